/**
 * The version contract in real n8n: every workflow saved with the released 0.1.0
 * (test/fixtures/0.1.0/action, recorded once from the 0.1.0 build and frozen) is imported as it was
 * saved (typeVersion 1, defaults left out; its Manual Trigger swapped for a Webhook node so the test
 * can run it), run by n8n, and what the sandbox received is compared with what 0.1.0 sent.
 */
import { actionFixtures, asRecorded, cameFor, endOfListProbes } from '../../compat/fixtures';
import { importAndActivate, runWebhookWorkflow, type E2EContext } from '../harness/context';
import type { WorkflowDefinition } from '../harness/n8n-client';
import { manualTriggerToWebhook, prepareForImport } from '../harness/workflows';

export function compat010Suite(ctx: () => E2EContext): void {
	describe('workflows saved with 0.1.0 send exactly what 0.1.0 sent', () => {
		beforeEach(() => ctx().sandbox.reset());

		test.each(actionFixtures().map((f) => [f.name, f] as const))('%s', async (name, fixture) => {
			const { client, stack, sandbox } = ctx();
			const path = `compat-${name.replace(/\W/g, '-')}-${Date.now()}`;
			const saved = fixture.workflow as unknown as WorkflowDefinition;
			const workflow = await importAndActivate(ctx(), prepareForImport(manualTriggerToWebhook(saved, path), stack.credential));
			try {
				await runWebhookWorkflow(ctx(), workflow, {});
			} finally {
				await client.deactivate(workflow.id);
			}
			const received = sandbox.requests.filter((request) => request.path.startsWith('/v2/'));
			expect(received.slice(0, fixture.requests.length).map(asRecorded)).toEqual(fixture.requests);
			expect(endOfListProbes(fixture, received.slice(fixture.requests.length), await cameFor(fixture, sandbox))).toEqual([]);
		});
	});
}
