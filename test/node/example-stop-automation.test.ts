/**
 * The stop-automation example's action node as the example sets it (On Error → error output), run
 * through n8n-core's WorkflowExecute: a request the node refuses leaves by the error output with the
 * node's own message, which the example's "Answer with the error" node answers (400, `{"error": <message>}`);
 * a good one leaves by the regular output. The Webhook and Respond to Webhook nodes are
 * n8n-nodes-base (not installed here): the e2e suite (test/e2e/suites/examples.ts) runs the whole
 * workflow in n8n.
 */
import type { INodeParameters } from 'n8n-workflow';

import stopAutomation from '../../examples/workflows/stop-automation.json';
import { DEMO } from '../sandbox';
import { useSandbox } from '../helpers/node-runner';
import { runWorkflow, type OnError } from '../helpers/workflow-runner';

const ctx = useSandbox();

interface ExampleNode {
	name: string;
	type: string;
	onError?: OnError;
	parameters: INodeParameters;
}
const example = stopAutomation as unknown as {
	nodes: ExampleNode[];
	connections: Record<string, { main: Array<Array<{ node: string }>> }>;
};
const action = example.nodes.find((node) => node.name === 'Stop the automation in the chat')!;
const errorAnswer = example.nodes.find((node) => node.name === 'Answer with the error')!;

let executions = 0;
const run = async (body: Record<string, unknown>) =>
	await runWorkflow(ctx.sandbox, {
		parameters: action.parameters,
		// What the Webhook node gives: the POST's JSON under `body`.
		items: [{ headers: {}, params: {}, query: {}, body }],
		onError: action.onError!,
		executionId: `example-stop-${++executions}`,
	});

describe('stop-automation example: the webhook answers with the node\'s error', () => {
	test('the error output is wired to a Respond to Webhook that answers 400 with the error message', () => {
		expect(action.onError).toBe('continueErrorOutput');
		expect(example.connections[action.name].main[1]).toEqual([expect.objectContaining({ node: errorAnswer.name })]);
		expect(errorAnswer.type).toBe('n8n-nodes-base.respondToWebhook');
		expect(errorAnswer.parameters).toEqual({
			respondWith: 'json',
			responseBody: '={{ { "error": $json.error } }}',
			options: { responseCode: 400 },
		});
	});

	test('a 5-digit phone number: nothing is sent; the error output carries the node\'s message', async () => {
		const { outputs, error } = await run({ phoneNumber: '12345' });
		expect(error).toBeUndefined();
		expect(ctx.sandbox.requests).toEqual([]);
		const [regular, errors] = outputs;
		expect(regular).toEqual([]);
		expect(errors).toHaveLength(1);
		// n8n keeps only the message in an error item's JSON (WorkflowExecute.normalizeNodeErrors).
		expect(errors[0].json).toEqual({ error: 'Invalid Chat (Phone): must be 8-30 characters, got 5 characters' });
	});

	test('a number the API does not know: its 404 message leaves by the error output', async () => {
		const { outputs } = await run({ phoneNumber: '5511900000000' });
		const [regular, errors] = outputs;
		expect(regular).toEqual([]);
		expect(errors).toHaveLength(1);
		expect(errors[0].json).toEqual({ error: expect.stringMatching(/^The API could not find what the request names \(HTTP 404\)/) });
	});

	test('a known number: the bot is stopped and the result leaves by the regular output', async () => {
		const { outputs } = await run({ phoneNumber: DEMO.contacts.botFlow.phoneNumber, integrationId: DEMO.integrations.whatsapp.id });
		const [regular, errors = []] = outputs;
		expect(errors).toEqual([]);
		expect(regular.map((item) => item.json)).toEqual([expect.objectContaining({ stopped: true, chat: expect.objectContaining({ chatInternalId: DEMO.chats.botFlow.id }) })]);
	});
});
