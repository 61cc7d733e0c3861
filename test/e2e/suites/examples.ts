/**
 * The example workflows in examples/workflows/ (what `npm run dev` imports and users copy), run by
 * n8n against the sandbox. Manual Trigger examples get a Webhook node in its place (same name).
 */
import { DEMO } from '../../sandbox';
import { importAndActivate, runWebhookWorkflow, waitForTriggerActivation, type E2EContext } from '../harness/context';
import { nodeJson, type WorkflowRecord } from '../harness/n8n-client';
import { exampleNames, loadExample, manualTriggerToWebhook, prepareForImport, ACTION_NODE_TYPE, TRIGGER_NODE_TYPE } from '../harness/workflows';

export function examplesSuite(ctx: () => E2EContext): void {
	describe('example workflows', () => {
		const active: WorkflowRecord[] = [];
		beforeEach(() => ctx().sandbox.reset());
		afterEach(async () => {
			for (const workflow of active.splice(0)) await ctx().client.deactivate(workflow.id);
		});

		test('there are the four examples, each using our nodes', () => {
			expect(exampleNames()).toEqual(['stop-automation', 'tag-contacts-export', 'template-listing', 'trigger-to-reply']);
			for (const name of exampleNames()) {
				const types = loadExample(name).nodes.map((n) => n.type);
				expect(types.some((t) => t === ACTION_NODE_TYPE || t === TRIGGER_NODE_TYPE)).toBe(true);
			}
		});

		test('tag contacts export: every contact of the tag (two pages) into one CSV file', async () => {
			const c = ctx();
			const definition = manualTriggerToWebhook(prepareForImport(loadExample('tag-contacts-export'), c.stack.credential), `example-export-${c.major}`, 'firstEntryBinary');
			const workflow = await importAndActivate(c, definition);
			active.push(workflow);
			const { execution, response } = await runWebhookWorkflow(c, workflow, {});
			expect(nodeJson(execution, 'Get contacts of the tag')).toHaveLength(DEMO.defaults.contactsOnBigTag);
			expect(c.sandbox.requests.filter((r) => r.path === '/v2/tag/list-contacts').map((r) => r.query.offset)).toEqual(['0', '100']);
			const rows = nodeJson(execution, 'Keep the columns');
			expect(Object.keys(rows[0]).sort()).toEqual(['chatId', 'name', 'phoneNumber', 'taggedAt']);
			// The webhook answers with the file the last node wrote (n8n 1.x sends it as a JSON-encoded
			// Buffer; the CSV starts with a byte-order mark).
			const body = response.body as { type?: string; data?: number[] };
			const text = body && body.type === 'Buffer' && Array.isArray(body.data) ? Buffer.from(body.data).toString('utf8') : response.text;
			const lines = text.replace(/^\uFEFF/, '').trim().split(/\r?\n/);
			expect(lines[0]).toBe('phoneNumber,name,chatId,taggedAt');
			expect(lines).toHaveLength(DEMO.defaults.contactsOnBigTag + 1);
			expect(lines[1]).toContain(String(rows[0].phoneNumber));
		});

		test('stop automation: a POST with a phone number stops the bot in that chat', async () => {
			const c = ctx();
			const definition = prepareForImport(loadExample('stop-automation'), c.stack.credential);
			const workflow = await importAndActivate(c, definition);
			active.push(workflow);
			expect(c.sandbox.state.chats.get(DEMO.chats.botFlow.id)?.automations).toHaveLength(1);
			const { response, execution } = await runWebhookWorkflow(c, workflow, {
				phoneNumber: DEMO.contacts.botFlow.phoneNumber,
				integrationId: DEMO.integrations.whatsapp.id,
			});
			expect(response.status).toBe(200);
			expect(response.body).toMatchObject({ stopped: true, chat: { chatInternalId: DEMO.chats.botFlow.id } });
			expect(nodeJson(execution, 'Stop the automation in the chat')).toHaveLength(1);
			expect(c.sandbox.state.chats.get(DEMO.chats.botFlow.id)?.automations).toEqual([]);
		});

		test('template listing: every approved template, following the cursor', async () => {
			const c = ctx();
			c.sandbox.reset({ templates: 600 });
			const definition = manualTriggerToWebhook(prepareForImport(loadExample('template-listing'), c.stack.credential), `example-templates-${c.major}`);
			const workflow = await importAndActivate(c, definition);
			active.push(workflow);
			const { execution } = await runWebhookWorkflow(c, workflow, {});
			const approved = c.sandbox.state.templates.get(DEMO.templates.integrationId)!.list.filter((t) => t.status === 'APPROVED');
			expect(approved.length).toBeGreaterThan(25);
			const out = nodeJson(execution, 'Name, language and category');
			expect(out.map((t) => t.name)).toEqual(approved.map((t) => t.name));
			expect(out.every((t) => t.status === 'APPROVED' && Object.keys(t).length === 4)).toBe(true);
		});

		test('trigger to reply: a contact asking for a person gets the bot stopped and a reply drafted', async () => {
			const c = ctx();
			const definition = prepareForImport(loadExample('trigger-to-reply'), c.stack.credential);
			const workflow = await c.client.createWorkflow(definition);
			await c.client.activate(workflow.id);
			active.push(workflow);
			const trigger = definition.nodes.find((n) => n.type === TRIGGER_NODE_TYPE)!;
			const url = `${c.stack.n8n.url}/webhook/${trigger.webhookId}/webhook`;
			await waitForTriggerActivation(c, workflow.id, trigger.name, url, 1);
			const registered = [...c.sandbox.state.webhooks.values()].filter((w) => w.url === url);
			expect(registered.map((w) => [w.type, w.integrationId, w.transferType])).toEqual([['MESSAGE_RECEIVED', DEMO.integrations.whatsapp.id, 'USER']]);

			const known = await c.client.executionIds(workflow.id);
			// A message that does not ask for a person: an execution that stops at the IF.
			await c.sandbox.simulate.message({ integrationId: DEMO.integrations.whatsapp.id, phoneNumber: DEMO.contacts.botFlow.phoneNumber, direction: 'inbound', text: 'What are your prices?' });
			const [ignored] = await c.client.waitForExecutions(workflow.id, known, 1);
			known.add(ignored.id);
			expect(ignored.data.resultData.runData['Stop the bot in this chat']).toBeUndefined();
			expect(c.sandbox.state.chats.get(DEMO.chats.botFlow.id)?.automations).toHaveLength(1);

			await c.sandbox.simulate.message({ integrationId: DEMO.integrations.whatsapp.id, phoneNumber: DEMO.contacts.botFlow.phoneNumber, direction: 'inbound', text: 'Can I talk to a HUMAN please?' });
			const [handled] = await c.client.waitForExecutions(workflow.id, known, 1);
			expect(handled.status).toBe('success');
			expect(nodeJson(handled, 'Stop the bot in this chat')).toEqual([expect.objectContaining({ stopped: true })]);
			expect(nodeJson(handled, 'Reply')).toEqual([
				{
					chatInternalId: DEMO.chats.botFlow.id,
					phoneNumber: DEMO.contacts.botFlow.phoneNumber,
					automationStopped: true,
					reply: `Hi ${DEMO.contacts.botFlow.name}, a person from our team will answer you here shortly.`,
				},
			]);
			expect(c.sandbox.state.chats.get(DEMO.chats.botFlow.id)?.automations).toEqual([]);
		});
	});
}
