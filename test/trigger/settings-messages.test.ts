/**
 * The trigger's settings errors say what to do next (issue 26, item 3), in n8n-core's real
 * HookContext against the sandbox: activation fails before any request reaches the API.
 */
import { randomUUID } from 'node:crypto';

import { TriggerInstance } from '../helpers/trigger-harness';
import type { Sandbox } from './setup';
import { startTestSandbox, triggerParameters } from './setup';
import type { InboxCredentials } from '../helpers/n8n-harness';

let sandbox: Sandbox;
let credentials: InboxCredentials;

beforeAll(async () => {
	({ sandbox, credentials } = await startTestSandbox());
});

afterAll(async () => {
	await sandbox.close();
});

async function activationError(parameters: ReturnType<typeof triggerParameters>): Promise<Error & { description?: string }> {
	const instance = new TriggerInstance({
		parameters,
		credentials,
		webhookBaseUrl: 'http://127.0.0.1:1/webhook',
		webhookId: randomUUID(),
	});
	const failure = await instance.activate().then(
		() => new Error('activation succeeded'),
		(error: unknown) => error as Error,
	);
	return failure;
}

test('an integration name under By ID points at From List; nothing is sent', async () => {
	const error = await activationError(triggerParameters({ integrationMode: 'id', integrationId: 'WhatsApp Vendas' }));
	expect(error.message).toBe(
		'Invalid Integration: must be an ID: "c" followed by 24 lowercase letters or digits, got "WhatsApp Vendas"',
	);
	expect(error.description).toBe(
		'"WhatsApp Vendas" looks like a name, not an ID; choose the integration From List to find it by its name. IDs look like clx2v8k1h0000abcd1234efgh. Nothing was sent to the API.',
	);
	expect(sandbox.requests).toHaveLength(0);
});

test('an extra header name with a space says how to write one; nothing is sent', async () => {
	const error = await activationError(triggerParameters({ extraHeaders: [{ key: 'x source', value: 'n8n' }] }));
	expect(error.message).toMatch(/^Invalid Extra Headers: entry 1 must be an HTTP header name: .*, got "x source"$/);
	expect(error.description).toBe('Write the name without spaces or colons, e.g. x-source. Nothing was sent to the API.');
	expect(sandbox.requests).toHaveLength(0);
});
