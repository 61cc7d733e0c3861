/**
 * Issue 43, the activation error: a registration the API refuses names the refused event kind, as the
 * Events list names it, with the API's message, in the error's message and at the start of its
 * description, each readable alone: n8n 2.41.1 shows the message (its publication status, and its
 * older activation path), n8n 1.x's editor the description only. The API's message need not name
 * the kind ("event type not available", as issue 43 saw it). Through the trigger harness (n8n-core's
 * HookContext) against the sandbox.
 */
import { randomUUID } from 'node:crypto';
import { NodeApiError } from 'n8n-workflow';

import { startSandbox } from '../sandbox';
import { N8nWebhookEndpointStandIn, TriggerInstance } from '../helpers/trigger-harness';
import type { Sandbox } from './setup';
import { DEMO, triggerParameters } from './setup';

/** What the API answered in issue 43 (the sandbox's fault, a literal here): no kind named. */
const REFUSAL = 'event type not available';

let sandbox: Sandbox;
let endpoint: N8nWebhookEndpointStandIn;

beforeAll(async () => {
	sandbox = await startSandbox({ token: DEMO.token });
	endpoint = await new N8nWebhookEndpointStandIn().start();
});
afterAll(async () => {
	await endpoint.stop();
	await sandbox.close();
});

test('the refused kind, by its name in the Events list, with the API\'s message: in the message and, readable alone, in the description', async () => {
	sandbox.addFault({ kind: 'status', status: 400, path: '/v2/integration/webhook/create', match: 'CONNECTION_STATUS_UPDATE', message: REFUSAL });
	const trigger = new TriggerInstance({
		parameters: triggerParameters({ events: ['MESSAGE_RECEIVED', 'CONNECTION_STATUS_UPDATE'] }),
		credentials: { baseUrl: sandbox.baseUrl, apiToken: DEMO.token },
		webhookBaseUrl: endpoint.webhookBaseUrl,
		webhookId: randomUUID(),
	});
	const error = await trigger.activate().then(() => undefined, (caught: unknown) => caught);
	expect(error).toBeInstanceOf(NodeApiError);
	const { message, description } = error as NodeApiError;
	const refusal = `Registering the webhook for Connection Status Update failed: The API rejected the request as invalid (HTTP 400): ${REFUSAL}`;
	expect(message).toBe(refusal);
	expect(description?.startsWith(`${refusal}. POST /integration/webhook/create answered HTTP 400.`)).toBe(true);
	// Alone (n8n 1.x shows only the description) it points at nothing "above".
	expect(description).not.toMatch(/above/);
	expect(description).toContain("Check the fields the API's message names against their rules in the node.");
});
