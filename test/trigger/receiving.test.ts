/**
 * Receiving deliveries: the trigger's `webhook()` in n8n-core's real WebhookContext, fed by real
 * HTTP requests through the stand-in for n8n's webhook endpoint. The trigger is activated against
 * the sandbox first, and requests carry exactly the headers its registrations hold on the sandbox.
 */
import { randomUUID } from 'node:crypto';

import { secretMatches } from '../../nodes/ConversationInboxTrigger/delivery';
import {
	EVENT_HEADER,
	REGISTRATION_HEADER,
	SECRET_HEADER,
} from '../../nodes/ConversationInboxTrigger/registrations';
import type { InboxCredentials } from '../helpers/n8n-harness';
import { N8nWebhookEndpointStandIn, restartedN8n, TriggerInstance } from '../helpers/trigger-harness';
import type { EndpointCall } from '../helpers/trigger-harness';
import type { Sandbox } from './setup';
import { headersOf, startTestSandbox, triggerParameters, webhooksFor, WHATSAPP } from './setup';

let sandbox: Sandbox;
let credentials: InboxCredentials;
let endpoint: N8nWebhookEndpointStandIn;
let instance: TriggerInstance;
let url: string;
let secret: string;
/** Headers of the MESSAGE_RECEIVED registration, as the platform sends them. */
let received: Record<string, string>;
/** Headers of the MESSAGE_SENT registration (deselected after activation). */
let sent: Record<string, string>;

const payload = {
	event: 'MESSAGE_RECEIVED',
	integrationId: WHATSAPP,
	timestamp: '2025-01-01T00:00:00.000Z',
	data: { message: { text: 'Olá, preciso de ajuda', direction: 'inbound' } },
};

beforeAll(async () => {
	({ sandbox, credentials } = await startTestSandbox());
	endpoint = await new N8nWebhookEndpointStandIn().start();
	const webhookId = randomUUID();
	const setup = {
		credentials,
		webhookBaseUrl: endpoint.webhookBaseUrl,
		webhookId,
		parameters: triggerParameters({
			events: ['MESSAGE_RECEIVED', 'MESSAGE_SENT'],
			extraHeaders: [{ key: 'x-proxy-key', value: 'proxy-123' }],
		}),
	};
	const activated = new TriggerInstance(setup);
	await activated.activate();
	url = activated.webhookUrl();
	const webhooks = webhooksFor(sandbox, url);
	received = headersOf(webhooks.find((webhook) => webhook.type === 'MESSAGE_RECEIVED')!);
	sent = headersOf(webhooks.find((webhook) => webhook.type === 'MESSAGE_SENT')!);
	secret = received[SECRET_HEADER];

	// The user then deselects MESSAGE_SENT: its registration stays on the platform.
	instance = new TriggerInstance({
		...setup,
		parameters: triggerParameters({
			events: ['MESSAGE_RECEIVED'],
			extraHeaders: [{ key: 'x-proxy-key', value: 'proxy-123' }],
		}),
		staticData: activated.persistedStaticData(),
	});
	expect(await instance.runHook('checkExists')).toBe(true);
	endpoint.attach(instance);
});

afterAll(async () => {
	await endpoint.stop();
	await sandbox.close();
});

async function deliver(
	init: { method?: string; headers?: Record<string, string>; body?: string; query?: Record<string, string> } = {},
): Promise<{ status: number; text: string; call: EndpointCall }> {
	const target = new URL(url);
	for (const [key, value] of Object.entries(init.query ?? {})) target.searchParams.set(key, value);
	const before = endpoint.calls.length;
	const response = await fetch(target, {
		method: init.method ?? 'POST',
		headers: init.headers ?? { ...received, 'content-type': 'application/json' },
		body: init.body ?? ((init.method ?? 'POST') === 'GET' ? undefined : JSON.stringify(payload)),
	});
	const text = await response.text();
	const [call] = (await endpoint.waitForCalls(before + 1)).slice(before);
	return { status: response.status, text, call };
}

function withSecret(value: string | undefined): Record<string, string> {
	const headers: Record<string, string> = { ...received, 'content-type': 'application/json' };
	if (value === undefined) delete headers[SECRET_HEADER];
	else headers[SECRET_HEADER] = value;
	return headers;
}

describe('authenticity', () => {
	test('right secret: 200 and one item with payload, event, integrationId, query and headers, without the secret', async () => {
		const { status, call } = await deliver({ query: { source: 'test' } });
		expect(status).toBe(200);
		expect(call.items).toHaveLength(1);
		const item = call.items![0].json;
		expect(item.event).toBe('MESSAGE_RECEIVED');
		expect(item.integrationId).toBe(WHATSAPP);
		expect(item.body).toEqual(payload);
		expect(item.query).toEqual({ source: 'test' });
		const headers = item.headers as Record<string, string>;
		expect(headers[EVENT_HEADER]).toBe('MESSAGE_RECEIVED');
		expect(headers['x-proxy-key']).toBe('proxy-123');
		expect(headers[SECRET_HEADER]).toBeUndefined();
		expect(JSON.stringify(call.items)).not.toContain(secret);
	});

	test.each([
		['wrong secret', () => 'f'.repeat(64)],
		['missing secret', () => undefined],
		['truncated secret', () => secret.slice(0, 63)],
		['secret with one extra character', () => `${secret}0`],
		['differently-cased secret', () => secret.toUpperCase()],
		['empty secret', () => ''],
		['secret of another node', () => 'a1'.repeat(32)],
	])('%s: 401, no execution', async (_name, value) => {
		const executionsBefore = endpoint.executions.length;
		const { status, text, call } = await deliver({ headers: withSecret(value()) });
		expect(status).toBe(401);
		expect(call.items).toBeUndefined();
		expect(endpoint.executions.length).toBe(executionsBefore);
		expect(text).not.toContain(secret);
		expect(JSON.parse(text)).toEqual({ success: false, message: 'Missing or wrong webhook secret' });
	});

	test('the secret is compared in constant time on fixed-length digests; other lengths are mismatches, not errors', () => {
		expect(secretMatches(secret, secret)).toBe(true);
		expect(secretMatches(secret.slice(0, 10), secret)).toBe(false);
		expect(secretMatches(`${secret}${secret}`, secret)).toBe(false);
		expect(secretMatches('', secret)).toBe(false);
		expect(secretMatches(undefined, secret)).toBe(false);
		expect(secretMatches([secret, secret], secret)).toBe(false);
		expect(secretMatches(secret, undefined)).toBe(false);
	});

	test('a node with no static data yet (n8n 2.x saves it after the URL goes live) accepts its registration\'s delivery', async () => {
		const fresh = new TriggerInstance({
			credentials,
			webhookBaseUrl: endpoint.webhookBaseUrl,
			webhookId: instance.node.webhookId,
			parameters: instance.setup.parameters,
		});
		expect(fresh.persistedStaticData()).toEqual({});
		endpoint.attach(fresh);
		try {
			const { status, call } = await deliver();
			expect(status).toBe(200);
			expect(call.items).toHaveLength(1);
		} finally {
			endpoint.attach(instance);
		}
	});

	test('a node whose credential holds another API token and that has no record of the registration (no static data, n8n restarted) refuses the delivery with 401', async () => {
		const rotated = new TriggerInstance({
			nodeClass: restartedN8n(),
			credentials: { ...credentials, apiToken: 'another-token' },
			webhookBaseUrl: endpoint.webhookBaseUrl,
			webhookId: instance.node.webhookId,
			parameters: instance.setup.parameters,
		});
		endpoint.attach(rotated);
		try {
			const { status, call } = await deliver();
			expect(status).toBe(401);
			expect(call.items).toBeUndefined();
		} finally {
			endpoint.attach(instance);
		}
	});

	test('a node whose credential cannot be read and that has no record of the registration refuses even the right secret with 401, not an error', async () => {
		const unreadable = new TriggerInstance({
			nodeClass: restartedN8n(),
			credentials,
			webhookBaseUrl: endpoint.webhookBaseUrl,
			webhookId: instance.node.webhookId,
			parameters: instance.setup.parameters,
		});
		// as in a workflow whose credential was deleted: n8n's getCredentials throws
		delete unreadable.node.credentials;
		endpoint.attach(unreadable);
		try {
			const { status, text, call } = await deliver();
			expect(status).toBe(401);
			expect(JSON.parse(text)).toEqual({ success: false, message: 'Missing or wrong webhook secret' });
			expect(call.items).toBeUndefined();
		} finally {
			endpoint.attach(instance);
		}
	});

	test('a node first activated under version 1 still accepts the random secret in its static data, and the derived one', async () => {
		const legacySecret = 'b2'.repeat(32);
		const legacy = new TriggerInstance({
			...instance.setup,
			staticData: { [`node:${instance.node.name}`]: { version: 1, secret: legacySecret, registrations: [] } },
		});
		endpoint.attach(legacy);
		try {
			const old = await deliver({ headers: withSecret(legacySecret) });
			expect(old.status).toBe(200);
			expect(old.call.items).toHaveLength(1);
			expect(JSON.stringify(old.call.items)).not.toContain(legacySecret);
			const derived = await deliver();
			expect(derived.status).toBe(200);
			expect(derived.call.items).toHaveLength(1);
		} finally {
			endpoint.attach(instance);
		}
	});
});

describe('event selection', () => {
	test('a delivery for an event kind no longer selected is acknowledged with 200 and does not execute', async () => {
		const executionsBefore = endpoint.executions.length;
		const { status, text, call } = await deliver({
			headers: { ...sent, 'content-type': 'application/json' },
			body: JSON.stringify({ ...payload, event: 'MESSAGE_SENT' }),
		});
		expect(status).toBe(200);
		expect(call.items).toBeUndefined();
		expect(endpoint.executions.length).toBe(executionsBefore);
		expect(JSON.parse(text)).toMatchObject({ executed: false });
	});

	test('a delivery of a registration made with earlier settings (other fingerprint) is acknowledged, not executed', async () => {
		const { status, call } = await deliver({
			headers: { ...received, [REGISTRATION_HEADER]: '0'.repeat(32), 'content-type': 'application/json' },
		});
		expect(status).toBe(200);
		expect(call.items).toBeUndefined();
	});

	test('a delivery whose payload names another integration is acknowledged, not executed', async () => {
		const { status, call } = await deliver({
			body: JSON.stringify({ ...payload, integrationId: 'c111111111111111111111111' }),
		});
		expect(status).toBe(200);
		expect(call.items).toBeUndefined();
	});

	test('without our event header, the event kind comes from the payload', async () => {
		const headers: Record<string, string> = { ...received, 'content-type': 'application/json' };
		delete headers[EVENT_HEADER];
		const { status, call } = await deliver({ headers });
		expect(status).toBe(200);
		expect(call.items?.[0].json.event).toBe('MESSAGE_RECEIVED');

		const other = await deliver({ headers, body: JSON.stringify({ ...payload, event: 'MESSAGE_SENT' }) });
		expect(other.status).toBe(200);
		expect(other.call.items).toBeUndefined();
	});
});

describe('HTTP methods', () => {
	test('GET: the payload comes from the query string', async () => {
		const query = { event: 'MESSAGE_RECEIVED', integrationId: WHATSAPP, data: '{"message":{"text":"hi"}}' };
		const { status, call } = await deliver({ method: 'GET', headers: received, query });
		expect(status).toBe(200);
		expect(call.items).toHaveLength(1);
		expect(call.items![0].json).toMatchObject({
			event: 'MESSAGE_RECEIVED',
			integrationId: WHATSAPP,
			body: query,
			query,
		});
	});

	test.each(['POST', 'PUT', 'PATCH', 'DELETE'])('%s: the JSON body is the payload', async (method) => {
		const { status, call } = await deliver({ method });
		expect(status).toBe(200);
		expect(call.method).toBe(method);
		expect(call.items).toHaveLength(1);
		expect(call.items![0].json).toMatchObject({ event: 'MESSAGE_RECEIVED', integrationId: WHATSAPP, body: payload });
	});

	test('HEAD is not a delivery method: the endpoint does not route it to the trigger', async () => {
		const before = endpoint.calls.length;
		const response = await fetch(url, { method: 'HEAD', headers: received });
		await endpoint.waitForCalls(before + 1);
		expect(response.status).toBe(404);
		expect(endpoint.calls[before].items).toBeUndefined();
	});
});

describe('bodies', () => {
	test('a text/plain body holding JSON is parsed; one that is not JSON is rejected with 400, no execution', async () => {
		const ok = await deliver({
			headers: { ...received, 'content-type': 'text/plain' },
			body: JSON.stringify(payload),
		});
		expect(ok.status).toBe(200);
		expect(ok.call.items?.[0].json.body).toEqual(payload);

		const bad = await deliver({ headers: { ...received, 'content-type': 'text/plain' }, body: 'not json {' });
		expect(bad.status).toBe(400);
		expect(bad.call.items).toBeUndefined();
		expect(JSON.parse(bad.text)).toEqual({ success: false, message: 'The body is not valid JSON' });
	});

	test('a body of an unknown content type is read from the raw bytes as JSON', async () => {
		const { status, call } = await deliver({
			headers: { ...received, 'content-type': 'application/octet-stream' },
			body: JSON.stringify(payload),
		});
		expect(status).toBe(200);
		expect(call.items?.[0].json.body).toEqual(payload);
	});

	test('a huge raw body (6 MB) is rejected with 413 without executing', async () => {
		const huge = JSON.stringify({ ...payload, padding: 'x'.repeat(6 * 1024 * 1024) });
		const { status, call } = await deliver({ headers: { ...received, 'content-type': 'text/plain' }, body: huge });
		expect(status).toBe(413);
		expect(call.items).toBeUndefined();
	});

	test('a JSON array body is kept as it is', async () => {
		const { status, call } = await deliver({ body: JSON.stringify([1, 2, 3]) });
		expect(status).toBe(200);
		expect(call.items?.[0].json.body).toEqual([1, 2, 3]);
	});

	test('a deeply nested JSON body does not crash the handler', async () => {
		const deep = `${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}`;
		const { status, call } = await deliver({ body: deep });
		expect(status).toBe(200);
		expect(call.items).toHaveLength(1);
	});

	test('the secret never reaches the output, even when the payload echoes it', async () => {
		const echo = { ...payload, data: { webhook: { headers: [{ key: SECRET_HEADER, value: secret }] }, note: `secret=${secret}` } };
		const { status, call } = await deliver({ body: JSON.stringify(echo), query: { s: secret } });
		expect(status).toBe(200);
		expect(call.items).toHaveLength(1);
		const output = JSON.stringify(call.items);
		expect(output).not.toContain(secret);
		expect(output).toContain('[redacted]');
	});
});

describe('the answer to the platform', () => {
	test('an accepted delivery is answered 200 with a small JSON acknowledgement, not n8n\'s placeholder text', async () => {
		const executionsBefore = endpoint.executions.length;
		const { status, text, call } = await deliver();
		expect(status).toBe(200);
		expect(call.items).toHaveLength(1);
		expect(endpoint.executions.length).toBe(executionsBefore + 1);
		expect(text).not.toContain('firstEntryJson');
		expect(JSON.parse(text)).toEqual({ success: true, executed: true });
	});

	test('refused deliveries keep their status codes and JSON bodies: 401 wrong secret, 400 bad JSON', async () => {
		const wrong = await deliver({ headers: withSecret('f'.repeat(64)) });
		const badJson = await deliver({ headers: { ...received, 'content-type': 'text/plain' }, body: '{"event":' });
		expect([wrong.status, badJson.status]).toEqual([401, 400]);
		expect(JSON.parse(wrong.text)).toMatchObject({ success: false });
		expect(JSON.parse(badJson.text)).toEqual({ success: false, message: 'The body is not valid JSON' });
	});
});
