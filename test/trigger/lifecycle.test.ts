/**
 * The trigger's webhook lifecycle (checkExists / create / delete) in n8n-core's real HookContext,
 * against the sandbox API over real HTTP. Registrations are inspected in the sandbox's state.
 * What 0.1.0 left behind (static data, registrations, deliveries) comes from the frozen fixtures
 * recorded from its build (test/fixtures/0.1.0/trigger/), never from today's functions.
 */
import { randomUUID } from 'node:crypto';
import { createHmac } from 'node:crypto';
import type { IDataObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { EVENT_HEADER, REGISTRATION_HEADER, REGISTRATION_ID_HEADER, SECRET_HEADER } from '../../nodes/ConversationInboxTrigger/registrations';
import { startSandbox } from '../sandbox';
import { N8nWebhookEndpointStandIn, restartedN8n, TriggerInstance } from '../helpers/trigger-harness';
import type { TriggerSetup } from '../helpers/trigger-harness';
import {
	DEMO,
	derivedSecretFor,
	headerOf,
	OFFICIAL,
	releasedTrigger,
	sandboxForFile,
	secretHashOf,
	triggerParameters,
	UNKNOWN_INTEGRATION,
	webhooksFor,
	WHATSAPP,
} from './setup';

const N8N_WEBHOOK_BASE = 'http://127.0.0.1:5678/webhook';
const N8N_WEBHOOK_TEST_BASE = 'http://127.0.0.1:5678/webhook-test';

const fixture = sandboxForFile();

/** A trigger in a workflow of its own (its own webhookId, so its own URL). */
function trigger(parameters: TriggerSetup['parameters'], extra: Partial<TriggerSetup> = {}): TriggerInstance {
	return new TriggerInstance({
		parameters,
		credentials: fixture.credentials,
		webhookBaseUrl: N8N_WEBHOOK_BASE,
		webhookTestBaseUrl: N8N_WEBHOOK_TEST_BASE,
		webhookId: randomUUID(),
		...extra,
	});
}

interface StoredState {
	secret?: string;
	registrations?: Array<Record<string, unknown> & { secretTag?: string }>;
}

function stored(instance: TriggerInstance): StoredState {
	return JSON.parse(JSON.stringify(instance.nodeStaticData())) as StoredState;
}

describe('activation (create)', () => {
	test('registers one webhook per selected event with our URL, POST, secret/event/user headers, transfer type and delay', async () => {
		const instance = trigger(
			triggerParameters({
				events: ['MESSAGE_RECEIVED', 'CONNECTION_STATUS_UPDATE'],
				transferType: 'USER',
				delayMinutes: 3,
				extraHeaders: [{ key: 'X-Proxy-Key', value: 'proxy-123' }],
			}),
		);
		const url = instance.webhookUrl();
		expect(url).toBe(`${N8N_WEBHOOK_BASE}/${instance.node.webhookId}/webhook`);

		const calls = await instance.activate();

		// n8n runs checkExists/create once per HTTP method entry; only the first one creates.
		expect(calls.map((call) => `${call.method} ${call.hook} ${String(call.result)}`)).toEqual([
			'POST checkExists false',
			'POST create true',
			'GET checkExists true',
			'PUT checkExists true',
			'PATCH checkExists true',
			'DELETE checkExists true',
		]);

		const state = stored(instance);
		// The secret is derived (HMAC of the webhook ID keyed with the token), not stored.
		const secret = derivedSecretFor(instance.node.webhookId!);
		expect(state.secret).toBeUndefined();
		// Only what a later activation reads: the registrations (and a version-1 secret).
		expect(Object.keys(state)).toEqual(['registrations']);

		const webhooks = webhooksFor(fixture.sandbox, url);
		expect(webhooks.map((webhook) => webhook.type)).toEqual(['MESSAGE_RECEIVED', 'CONNECTION_STATUS_UPDATE']);
		for (const webhook of webhooks) {
			expect(webhook).toMatchObject({
				integrationId: WHATSAPP,
				url,
				method: 'POST',
				transferType: 'USER',
				delayMinutes: 3,
			});
			expect(headerOf(webhook, SECRET_HEADER)).toBe(secret);
			expect(headerOf(webhook, EVENT_HEADER)).toBe(webhook.type);
			expect(headerOf(webhook, REGISTRATION_HEADER)).toMatch(/^[0-9a-f]{32}$/);
			// The registration's own identity (issue 42): 128 random bits, one per registration.
			expect(headerOf(webhook, REGISTRATION_ID_HEADER)).toMatch(/^[0-9a-f]{32}$/);
			expect(headerOf(webhook, 'X-Proxy-Key')).toBe('proxy-123');
			expect(webhook.headers).toHaveLength(5);
		}
		// Different events → different fingerprints, and different identities.
		expect(headerOf(webhooks[0], REGISTRATION_HEADER)).not.toBe(headerOf(webhooks[1], REGISTRATION_HEADER));
		expect(headerOf(webhooks[0], REGISTRATION_ID_HEADER)).not.toBe(headerOf(webhooks[1], REGISTRATION_ID_HEADER));

		// Static data records each registration by URL and fingerprint (which covers integration,
		// event, transfer type, delay and extra headers), and the hash of the secret it carries.
		expect(state.registrations).toEqual(
			webhooks.map((webhook) => ({
				url,
				event: webhook.type,
				fingerprint: headerOf(webhook, REGISTRATION_HEADER),
				secretHash: secretHashOf(secret),
				id: headerOf(webhook, REGISTRATION_ID_HEADER),
			})),
		);
		// The user's header values are not kept in static data, only a hash of them; nor is the
		// secret (only its one-way hash) or the token.
		expect(JSON.stringify(state)).not.toContain('proxy-123');
		expect(JSON.stringify(state)).not.toContain(secret);
		expect(JSON.stringify(state)).not.toContain(DEMO.token);
	});

	test('each trigger node gets its own secret; it is not the token and does not contain it', async () => {
		const first = trigger(triggerParameters());
		const second = trigger(triggerParameters());
		await first.activate();
		await second.activate();
		const [one] = webhooksFor(fixture.sandbox, first.webhookUrl());
		const [two] = webhooksFor(fixture.sandbox, second.webhookUrl());
		const secrets = [headerOf(one, SECRET_HEADER)!, headerOf(two, SECRET_HEADER)!];
		expect(secrets).toEqual([derivedSecretFor(first.node.webhookId!), derivedSecretFor(second.node.webhookId!)]);
		expect(secrets[0]).toMatch(/^[0-9a-f]{64}$/);
		expect(secrets[0]).not.toBe(secrets[1]);
		for (const secret of secrets) {
			expect(secret).not.toBe(DEMO.token);
			expect(secret).not.toContain(DEMO.token);
		}
		// The whole registration, as the platform holds it, holds no trace of the token.
		expect(JSON.stringify([one, two])).not.toContain(DEMO.token);
	});

	test('a node saved without a webhook ID derives its secret from the workflow ID and node name', async () => {
		const instance = trigger(triggerParameters({ events: ['MESSAGE_SENT'] }), { webhookId: null });
		await instance.activate();
		expect(instance.webhookUrl()).toBe(`${N8N_WEBHOOK_BASE}/wf-test/conversation%20inbox%20trigger/webhook`);
		const [registration] = webhooksFor(fixture.sandbox, instance.webhookUrl());
		const expected = createHmac('sha256', DEMO.token)
			.update('n8n-nodes-conversation-inbox/trigger-webhook-secret/v1\nworkflow:wf-test\nnode:Conversation Inbox Trigger')
			.digest('hex');
		expect(headerOf(registration, SECRET_HEADER)).toBe(expected);
	});

	test('a node whose webhook ID is empty (a hand-edited or imported workflow) is taken as one without: its secret comes from the workflow ID and node name', async () => {
		// An empty ID is no identity: taken as one, every such node of every workflow would share a secret.
		const instance = trigger(triggerParameters({ events: ['MESSAGE_SENT'] }), { webhookId: '' });
		await instance.activate();
		const [registration] = webhooksFor(fixture.sandbox, instance.webhookUrl());
		const expected = createHmac('sha256', DEMO.token)
			.update('n8n-nodes-conversation-inbox/trigger-webhook-secret/v1\nworkflow:wf-test\nnode:Conversation Inbox Trigger')
			.digest('hex');
		expect(headerOf(registration, SECRET_HEADER)).toBe(expected);
	});

	test('checkExists answers true once registered, and false for a URL that has no registrations (test URL)', async () => {
		const instance = trigger(triggerParameters({ events: ['MESSAGE_SENT'] }));
		expect(await instance.runHook('checkExists')).toBe(false);
		await instance.activate();
		expect(await instance.runHook('checkExists')).toBe(true);
		const testEntry = instance.webhooks(true)[0];
		expect(await instance.runHook('checkExists', testEntry, 'manual', 'manual')).toBe(false);
	});

	test('listening for a test event registers for the test URL once across the five method entries, with the same secret', async () => {
		const instance = trigger(triggerParameters({ events: ['MESSAGE_SENT'] }));
		await instance.activate();
		const secret = headerOf(webhooksFor(fixture.sandbox, instance.webhookUrl())[0], SECRET_HEADER);
		expect(secret).toBe(derivedSecretFor(instance.node.webhookId!));
		const calls = await instance.activate({ isTest: true });
		expect(calls.filter((call) => call.hook === 'create')).toHaveLength(1);
		const testUrl = instance.webhookUrl(true);
		expect(testUrl).toBe(`${N8N_WEBHOOK_TEST_BASE}/${instance.node.webhookId}/webhook`);
		const testWebhooks = webhooksFor(fixture.sandbox, testUrl);
		expect(testWebhooks).toHaveLength(1);
		expect(headerOf(testWebhooks[0], SECRET_HEADER)).toBe(secret);
		expect(webhooksFor(fixture.sandbox, instance.webhookUrl())).toHaveLength(1);
	});
});

describe('deactivation (delete) and re-activation', () => {
	test('delete returns true for every method entry, removes nothing on the platform and keeps secret and registrations', async () => {
		const instance = trigger(triggerParameters({ events: ['MESSAGE_RECEIVED', 'MESSAGE_SENT'] }));
		await instance.activate();
		const before = stored(instance);
		const url = instance.webhookUrl();
		const countBefore = fixture.sandbox.state.webhooks.size;

		const calls = await instance.deactivate();

		expect(calls).toHaveLength(5);
		expect(calls.every((call) => call.result === true)).toBe(true);
		const after = stored(instance);
		expect(after.secret).toBe(before.secret);
		expect(after.registrations).toEqual(before.registrations);
		// Nothing noted either: static data is what a later activation reads, nothing else.
		expect(after).toEqual(before);
		expect(fixture.sandbox.state.webhooks.size).toBe(countBefore);
		expect(webhooksFor(fixture.sandbox, url)).toHaveLength(2);
	});

	test('delete does not throw on empty or damaged static data', async () => {
		const empty = trigger(triggerParameters());
		expect(await empty.runHook('delete')).toBe(true);
		const damaged = trigger(triggerParameters(), {
			staticData: { [`node:Conversation Inbox Trigger`]: { registrations: 'oops', secret: 42 } },
		});
		expect(await damaged.runHook('delete')).toBe(true);
	});

	test('re-activating the saved workflow with unchanged settings reuses the registrations: checkExists true, nothing new on the sandbox', async () => {
		const parameters = triggerParameters({ events: ['MESSAGE_RECEIVED', 'FIRST_MESSAGE_RECEIVED'], delayMinutes: 1 });
		const first = trigger(parameters);
		await first.activate();
		await first.deactivate();
		const saved = first.persistedStaticData();
		const url = first.webhookUrl();
		const countBefore = fixture.sandbox.state.webhooks.size;

		// n8n loads the workflow again from the database: a new Workflow with the saved static data.
		const again = trigger(parameters, { staticData: saved, webhookId: first.node.webhookId });
		expect(again.webhookUrl()).toBe(url);
		const calls = await again.activate();

		expect(calls.every((call) => call.hook === 'checkExists' && call.result === true)).toBe(true);
		expect(fixture.sandbox.state.webhooks.size).toBe(countBefore);
		expect(webhooksFor(fixture.sandbox, url)).toHaveLength(2);
		expect(stored(again).registrations).toEqual(stored(first).registrations);
	});

	test('adding an event registers only the missing one, with the same secret', async () => {
		const first = trigger(triggerParameters({ events: ['MESSAGE_RECEIVED'] }));
		await first.activate();
		await first.deactivate();
		const url = first.webhookUrl();
		const [original] = webhooksFor(fixture.sandbox, url);

		const changed = trigger(triggerParameters({ events: ['MESSAGE_RECEIVED', 'MESSAGE_SENT'] }), {
			staticData: first.persistedStaticData(),
			webhookId: first.node.webhookId,
		});
		const calls = await changed.activate();

		expect(calls.filter((call) => call.hook === 'create')).toHaveLength(1);
		const webhooks = webhooksFor(fixture.sandbox, url);
		expect(webhooks.map((webhook) => webhook.type)).toEqual(['MESSAGE_RECEIVED', 'MESSAGE_SENT']);
		expect(webhooks[0].id).toBe(original.id);
		expect(headerOf(webhooks[1], SECRET_HEADER)).toBe(headerOf(original, SECRET_HEADER));
		expect(stored(changed).registrations).toHaveLength(2);
	});

	test('removing an event registers nothing (the remaining registration is reused)', async () => {
		const first = trigger(triggerParameters({ events: ['MESSAGE_RECEIVED', 'MESSAGE_SENT'] }));
		await first.activate();
		const countBefore = fixture.sandbox.state.webhooks.size;
		const narrowed = trigger(triggerParameters({ events: ['MESSAGE_SENT'] }), {
			staticData: first.persistedStaticData(),
			webhookId: first.node.webhookId,
		});
		expect(await narrowed.runHook('checkExists')).toBe(true);
		await narrowed.activate();
		expect(fixture.sandbox.state.webhooks.size).toBe(countBefore);
	});

	test('changing transfer type, delay, integration or extra headers registers new webhooks; switching back reuses the old ones', async () => {
		const base = { events: ['MESSAGE_RECEIVED'] };
		const first = trigger(triggerParameters({ ...base, transferType: 'ALL' }));
		await first.activate();
		const url = first.webhookUrl();
		let saved = first.persistedStaticData();
		const webhookId = first.node.webhookId;

		const variants = [
			triggerParameters({ ...base, transferType: 'API' }),
			triggerParameters({ ...base, transferType: 'ALL', delayMinutes: 5 }),
			triggerParameters({ ...base, transferType: 'ALL', integrationId: OFFICIAL }),
			triggerParameters({ ...base, transferType: 'ALL', extraHeaders: [{ key: 'x-a', value: '1' }] }),
		];
		for (const parameters of variants) {
			const instance = trigger(parameters, { staticData: saved, webhookId });
			expect(await instance.runHook('checkExists')).toBe(false);
			await instance.activate();
			saved = instance.persistedStaticData();
		}
		const webhooks = webhooksFor(fixture.sandbox, url);
		expect(webhooks).toHaveLength(5);
		expect(webhooks.map((webhook) => [webhook.transferType, webhook.delayMinutes, webhook.integrationId])).toEqual([
			['ALL', 0, WHATSAPP],
			['API', 0, WHATSAPP],
			['ALL', 5, WHATSAPP],
			['ALL', 0, OFFICIAL],
			['ALL', 0, WHATSAPP],
		]);
		expect(new Set(webhooks.map((webhook) => headerOf(webhook, SECRET_HEADER))).size).toBe(1);

		const back = trigger(triggerParameters({ ...base, transferType: 'ALL' }), { staticData: saved, webhookId });
		expect(await back.runHook('checkExists')).toBe(true);
		await back.activate();
		expect(webhooksFor(fixture.sandbox, url)).toHaveLength(5);
	});

	test('registrations made under another API token are reused: after the token changed, re-activation (n8n restarted, static data only) registers nothing', async () => {
		const first = trigger(triggerParameters());
		await first.activate();
		const webhookId = first.node.webhookId!;
		// The company's token was replaced: the same API (a sandbox answering the new token only).
		const rotated = 'rotated-token-0123456789';
		const rotatedApi = await startSandbox({ token: rotated, minuteMs: 20 });
		try {
			const again = trigger(triggerParameters(), {
				nodeClass: restartedN8n(),
				staticData: first.persistedStaticData(),
				webhookId,
				webhookBaseUrl: N8N_WEBHOOK_BASE,
				credentials: { baseUrl: rotatedApi.baseUrl, apiToken: rotated },
			});
			expect(await again.runHook('checkExists')).toBe(true);
			const calls = await again.activate();
			expect(calls.every((call) => call.hook === 'checkExists' && call.result === true)).toBe(true);
			expect(webhooksFor(rotatedApi, first.webhookUrl())).toEqual([]);
			// The one registration keeps the hash of the secret it was made with (the first token's).
			expect(stored(again).registrations).toEqual([
				expect.objectContaining({ secretHash: secretHashOf(derivedSecretFor(webhookId)) }),
			]);
		} finally {
			await rotatedApi.close();
		}
	});
});

/** POST /integration/webhook/create requests the sandbox has received so far. */
function registrationsSent(): number {
	return fixture.sandbox.requests.filter(
		(request) => request.method === 'POST' && request.path === '/v2/integration/webhook/create',
	).length;
}

/** The secret's header, as the 0.1.0 fixtures spell it (not taken from the node's code). */
const SECRET = 'x-inbox-webhook-secret';

describe.each([1, 2] as const)('the trigger as 0.1.0 left it (frozen fixtures of typeVersion %i)', (typeVersion) => {
	const released = releasedTrigger(typeVersion);
	const key = `node:${released.node.name}`;
	const releasedState = released.staticData.afterActivation[key] as {
		secret: string;
		registrations: Array<{ url: string; event: string; fingerprint: string }>;
	};
	const endpoint = new N8nWebhookEndpointStandIn();
	beforeAll(async () => {
		await endpoint.start();
	});
	afterAll(async () => {
		await endpoint.stop();
	});

	/** The node 0.1.0 saved, loaded by today's code (same URL, parameters and typeVersion). */
	function upgraded(staticData: IDataObject | undefined, parameters = released.node.parameters): TriggerInstance {
		return trigger(parameters, {
			staticData,
			webhookId: released.node.webhookId,
			webhookBaseUrl: released.activation.webhookBaseUrl,
			typeVersion: released.node.typeVersion,
		});
	}

	test.each(['afterActivation', 'afterDeactivation'] as const)(
		'its static data (%s) is reused: checkExists true on every method entry, as 0.1.0 answered, and no registration is sent',
		async (moment) => {
			const instance = upgraded(released.staticData[moment]);
			expect(instance.webhookUrl()).toBe(released.activation.webhookUrl);
			const before = registrationsSent();

			const calls = await instance.activate();

			expect(calls).toEqual(released.staticData.reactivationHookCalls);
			expect(calls.every((call) => call.hook === 'checkExists' && call.result === true)).toBe(true);
			expect(registrationsSent()).toBe(before);
			// Saved by today's code and loaded again: the 0.1.0 secret and registrations still serve.
			const again = upgraded(instance.persistedStaticData());
			expect(await again.runHook('checkExists')).toBe(true);
			expect(stored(again).secret).toBe(releasedState.secret);
			expect(registrationsSent()).toBe(before);
		},
	);

	test('adding an event registers that one only, with the derived secret; the 0.1.0 secret and registrations stay and serve', async () => {
		const events = released.node.parameters.events as string[];
		const widened = upgraded(released.staticData.afterDeactivation, {
			...released.node.parameters,
			events: [...events, 'MESSAGE_SENT'],
		});
		const before = registrationsSent();

		const calls = await widened.activate();

		expect(calls.filter((call) => call.hook === 'create')).toHaveLength(1);
		expect(registrationsSent()).toBe(before + 1);
		const added = webhooksFor(fixture.sandbox, released.activation.webhookUrl);
		expect(added.map((webhook) => webhook.type)).toEqual(['MESSAGE_SENT']);
		expect(headerOf(added[0], SECRET)).toBe(derivedSecretFor(released.node.webhookId));
		// Saved in the current layout: what 0.1.0 kept besides URL, event and fingerprint is dropped.
		expect(stored(widened)).toEqual({
			secret: releasedState.secret,
			registrations: [
				...releasedState.registrations.map(({ url, event, fingerprint }) => ({ url, event, fingerprint })),
				{
					url: released.activation.webhookUrl,
					event: 'MESSAGE_SENT',
					fingerprint: headerOf(added[0], 'x-inbox-registration'),
					secretHash: secretHashOf(derivedSecretFor(released.node.webhookId)),
					id: headerOf(added[0], 'x-inbox-registration-id'),
				},
			],
		});
		const reloaded = upgraded(widened.persistedStaticData());
		expect(await reloaded.runHook('checkExists')).toBe(true);
		expect(registrationsSent()).toBe(before + 1);
	});

	test('a first activation with the same settings registers what 0.1.0 registered: same bodies and headers, but the secret and one header added last, the registration\'s own identity (issue 42)', async () => {
		const before = fixture.sandbox.requests.length;
		await upgraded(undefined).activate();
		const sent = fixture.sandbox.requests
			.slice(before)
			.filter((request) => request.path === '/v2/integration/webhook/create')
			.map((request) => request.body as { headers: Array<{ key: string; value: string }> });
		const secret = derivedSecretFor(released.node.webhookId);
		// The identity is random: one per registration, 32 hex characters, the last header.
		const ids = sent.map((body) => body.headers.at(-1)?.value ?? '');
		expect(ids.every((id) => /^[0-9a-f]{32}$/.test(id))).toBe(true);
		expect(new Set(ids).size).toBe(ids.length);
		expect(sent).toEqual(
			released.activation.registrationRequests.map(({ body }, index) => ({
				...body,
				headers: [
					...body.headers.map((header) => (header.key === SECRET ? { ...header, value: secret } : header)),
					{ key: 'x-inbox-registration-id', value: ids[index] },
				],
			})),
		);
	});

	test.each(released.deliveries.map((recorded) => [recorded.delivery.event, recorded] as const))(
		'a %s delivery of a 0.1.0 registration is accepted and starts the workflow with the item 0.1.0 gave',
		async (_event, { delivery, released: [answer] }) => {
			const instance = upgraded(released.staticData.afterDeactivation);
			await instance.activate();
			endpoint.attach(instance);
			const handled = endpoint.calls.length;
			const url = new URL(delivery.url);

			const response = await fetch(`${endpoint.origin}${url.pathname}${url.search}`, {
				method: delivery.method,
				headers: delivery.headers,
				body: JSON.stringify(delivery.body),
			});

			expect(response.status).toBe(answer.statusCode);
			const [call] = (await endpoint.waitForCalls(handled + 1)).slice(handled);
			expect(call.items).toHaveLength(1);
			const item = call.items![0].json;
			const expected = answer.items[0].json;
			expect(Object.keys(item).sort()).toEqual(Object.keys(expected).sort());
			const { headers, ...rest } = item;
			const { headers: expectedHeaders, ...expectedRest } = expected;
			expect(rest).toEqual(expectedRest);
			// Every header the platform set reaches the item as it did in 0.1.0; the secret in neither.
			const platformHeaders = Object.keys(delivery.headers).filter((name) => name !== SECRET);
			const pick = (from: IDataObject | undefined) => platformHeaders.map((name) => [name, from?.[name]]);
			expect(pick(headers as IDataObject)).toEqual(pick(expectedHeaders as IDataObject));
			expect(Object.keys(headers as IDataObject)).not.toContain(SECRET);
		},
	);
});

describe('activation errors', () => {
	test('an unknown integration surfaces as the shared NodeApiError with HTTP 404 and the API message; nothing is recorded', async () => {
		const instance = trigger(triggerParameters({ integrationId: UNKNOWN_INTEGRATION, integrationMode: 'id' }));
		// What the API itself answers to this registration.
		const direct = await fetch(`${fixture.credentials.baseUrl}/integration/webhook/create`, {
			method: 'POST',
			headers: { Authorization: `Bearer ${DEMO.token}`, 'Content-Type': 'application/json' },
			body: JSON.stringify({
				integrationId: UNKNOWN_INTEGRATION,
				url: 'http://127.0.0.1:5678/webhook/x/webhook',
				method: 'POST',
				type: 'MESSAGE_RECEIVED',
				headers: [],
				delayMinutes: 0,
				transferType: 'ALL',
			}),
		});
		expect(direct.status).toBe(404);
		const apiMessage = ((await direct.json()) as { message: string }).message;
		const countBefore = fixture.sandbox.state.webhooks.size;

		const error = await instance.activate().then(
			() => undefined,
			(caught: unknown) => caught,
		);

		expect(error).toBeInstanceOf(NodeApiError);
		const apiError = error as NodeApiError;
		expect(apiError.httpCode).toBe('404');
		expect(apiError.message).toContain(apiMessage);
		expect(apiError.message).toContain('HTTP 404');
		expect(JSON.stringify(apiError)).not.toContain(DEMO.token);
		expect(fixture.sandbox.state.webhooks.size).toBe(countBefore);
		expect(stored(instance).registrations).toEqual([]);
	});

	test('an integration ID that breaks the ID rule fails with a NodeOperationError before any request', async () => {
		const instance = trigger(triggerParameters({ integrationId: 'not-an-id', integrationMode: 'id' }));
		const countBefore = fixture.sandbox.state.webhooks.size;
		await expect(instance.activate()).rejects.toThrow(NodeOperationError);
		await expect(instance.activate()).rejects.toThrow(/^Invalid Integration: must be an ID.*, got "not-an-id"$/);
		await expect(trigger(triggerParameters({ integrationId: 'abc', integrationMode: 'id' })).activate()).rejects.toThrow(
			/must be an ID/,
		);
		await expect(trigger(triggerParameters({ integrationId: '', integrationMode: 'id' })).activate()).rejects.toThrow(
			'Missing Integration: a value is required',
		);
		expect(fixture.sandbox.state.webhooks.size).toBe(countBefore);
		// Spaces around a pasted ID are trimmed.
		const padded = trigger(triggerParameters({ integrationId: ` ${WHATSAPP} `, integrationMode: 'id' }));
		await padded.activate();
		expect(webhooksFor(fixture.sandbox, padded.webhookUrl()).map((webhook) => webhook.integrationId)).toEqual([WHATSAPP]);
	});

	test.each([
		['empty', ''],
		['missing', undefined],
	])('a credential whose API token is %s fails with a NodeOperationError before any request', async (_, apiToken) => {
		const credentials = { ...fixture.credentials, apiToken } as typeof fixture.credentials;
		const requestsBefore = fixture.sandbox.requests.length;
		const activation = trigger(triggerParameters(), { credentials }).activate();
		await expect(activation).rejects.toThrow(NodeOperationError);
		await expect(trigger(triggerParameters(), { credentials }).activate()).rejects.toThrow(
			'The credential has no API token',
		);
		expect(fixture.sandbox.requests.length).toBe(requestsBefore);
	});

	test('no selected event, a negative delay, or a reserved header name fail before any request', async () => {
		const countBefore = fixture.sandbox.state.webhooks.size;
		await expect(trigger(triggerParameters({ events: [] })).activate()).rejects.toThrow(
			'Missing Events: at least one value is required',
		);
		await expect(trigger(triggerParameters({ delayMinutes: -1 })).activate()).rejects.toThrow(
			'Invalid Delay Minutes: must be a whole number of 0 or more, got -1',
		);
		await expect(
			trigger(triggerParameters({ extraHeaders: [{ key: 'X-Inbox-Webhook-Secret', value: 'mine' }] })).activate(),
		).rejects.toThrow(/^Invalid Extra Headers: entry 1 is reserved by the trigger.*, got "X-Inbox-Webhook-Secret"$/);
		await expect(
			trigger(triggerParameters({ extraHeaders: [{ key: 'bad header', value: '1' }] })).activate(),
		).rejects.toThrow(/^Invalid Extra Headers: entry 1 must be an HTTP header name.*, got "bad header"$/);
		await expect(
			trigger(triggerParameters({ extraHeaders: [{ key: 'x-a', value: '1' }, { key: 'X-A', value: '2' }] })).activate(),
		).rejects.toThrow('Invalid Extra Headers: entry 2 repeats a header name (names are case-insensitive), got "X-A"');
		await expect(trigger(triggerParameters({ events: ['MESSAGE_RECEIVED', 'NO_SUCH_EVENT'] })).activate()).rejects.toThrow(
			/^Invalid Events, value 2: must be one of MESSAGE_SENT_AND_RECEIVED, .*, got "NO_SUCH_EVENT"$/,
		);
		expect(fixture.sandbox.state.webhooks.size).toBe(countBefore);
	});
});
