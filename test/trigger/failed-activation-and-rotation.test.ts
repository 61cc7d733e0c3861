/**
 * Issue 35, Build 2 and 3: one registration per event kind through an activation n8n fails, and a
 * token rotation that never makes the trigger deaf. n8n's part is played as n8n 1.123.81 (and
 * 2.41.1 without its publication service) plays it: static data is saved only after an activation
 * succeeds (ActiveWorkflowManager.addWebhooks; see docs/development.md, "The trigger and n8n's
 * static data"), a credential change re-activates nothing, and deactivation saves nothing new.
 * Through the trigger harness (n8n-core's HookContext / WebhookContext) against the sandbox, which
 * delivers real events (its simulate control) to the stand-in of n8n's webhook endpoint.
 */
import { randomUUID } from 'node:crypto';
import type { IDataObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { startSandbox } from '../sandbox';
import { N8nWebhookEndpointStandIn, restartedN8n, TriggerInstance } from '../helpers/trigger-harness';
import type { Sandbox } from './setup';
import { DEMO, derivedSecretFor, headerOf, secretHashOf, triggerParameters, webhooksFor, WHATSAPP } from './setup';

const REGISTER = '/v2/integration/webhook/create';
/** The token the company's credential holds after a rotation (the sandbox accepts both). */
const ROTATED = 'rotated-token-35-abcdefghijklmnop';
/** What the API answers when it refuses a registration (the sandbox's fault, a literal here). */
const REFUSAL = 'type CONNECTION_STATUS_UPDATE is not enabled for this integration';

let sandbox: Sandbox;
let endpoint: N8nWebhookEndpointStandIn;

beforeAll(async () => {
	sandbox = await startSandbox({ token: DEMO.token, otherTokens: [ROTATED], minuteMs: 20 });
	endpoint = await new N8nWebhookEndpointStandIn().start();
});
afterAll(async () => {
	await endpoint.stop();
	await sandbox.close();
});
beforeEach(() => {
	sandbox.clearFaults();
	endpoint.detach();
});

const registrationsSent = (): number =>
	sandbox.requests.filter((request) => request.method === 'POST' && request.path === REGISTER).length;

/** The workflow as n8n holds it: one trigger node, its static data as n8n last saved it. */
function workflow(
	webhookId: string,
	events: string[],
	options: { token?: string; saved?: IDataObject; restarted?: boolean } = {},
): TriggerInstance {
	return new TriggerInstance({
		parameters: triggerParameters({ events }),
		credentials: { baseUrl: sandbox.baseUrl, apiToken: options.token ?? DEMO.token },
		webhookBaseUrl: endpoint.webhookBaseUrl,
		webhookId,
		staticData: options.saved,
		nodeClass: options.restarted ? restartedN8n() : undefined,
	});
}

/** An inbound message on the integration; its deliveries to this URL, once answered. */
async function inboundMessage(url: string) {
	const deliveries = await sandbox.simulate.message({
		integrationId: WHATSAPP,
		phoneNumber: DEMO.contacts.alice.phoneNumber,
		direction: 'inbound',
		text: 'Oi',
	});
	return deliveries.filter((delivery) => delivery.url === url && delivery.event === 'MESSAGE_RECEIVED');
}

describe('an activation the API refuses part-way, then a corrected one', () => {
	test('MESSAGE_RECEIVED accepted, CONNECTION_STATUS_UPDATE refused, static data not saved: the corrected activation registers nothing again, one delivery runs the workflow once, and the error carries the API\'s refusal', async () => {
		const webhookId = randomUUID();
		sandbox.addFault({ kind: 'status', status: 400, path: REGISTER, match: 'CONNECTION_STATUS_UPDATE', message: REFUSAL });
		const first = workflow(webhookId, ['MESSAGE_RECEIVED', 'CONNECTION_STATUS_UPDATE']);
		const url = first.webhookUrl();

		const error = await first.activate().then(() => undefined, (caught: unknown) => caught);

		expect(error).toBeInstanceOf(NodeApiError);
		// n8n's editor shows a NodeApiError's description when activation fails: the refusal is in it.
		expect((error as NodeApiError).description).toContain(REFUSAL);
		expect((error as NodeApiError).description).toContain('CONNECTION_STATUS_UPDATE');
		expect((error as NodeApiError).message).toContain(REFUSAL);
		expect(webhooksFor(sandbox, url).map((webhook) => webhook.type)).toEqual(['MESSAGE_RECEIVED']);

		// n8n saved nothing: the user removes the refused event and activates again.
		const corrected = workflow(webhookId, ['MESSAGE_RECEIVED']);
		const sentBefore = registrationsSent();
		await corrected.activate();
		expect(registrationsSent()).toBe(sentBefore);
		expect(webhooksFor(sandbox, url)).toHaveLength(1);
		const saved = corrected.persistedStaticData();

		endpoint.attach(corrected);
		const executionsBefore = endpoint.executions.length;
		const deliveries = await inboundMessage(url);
		expect(deliveries.map((delivery) => delivery.status)).toEqual([200]);
		expect(endpoint.executions.length - executionsBefore).toBe(1);

		// What n8n saved now holds the registration: after a restart it is still known.
		const afterRestart = workflow(webhookId, ['MESSAGE_RECEIVED'], { saved, restarted: true });
		expect(await afterRestart.runHook('checkExists')).toBe(true);
	});
});

describe('the API token rotated', () => {
	/** A workflow activated under the first token, as n8n saved it. */
	async function activeUnderFirstToken(): Promise<{ webhookId: string; url: string; saved: IDataObject }> {
		const webhookId = randomUUID();
		const first = workflow(webhookId, ['MESSAGE_RECEIVED']);
		await first.activate();
		return { webhookId, url: first.webhookUrl(), saved: first.persistedStaticData() };
	}

	test('while the workflow stays active (n8n re-activates nothing; a webhook process with the saved static data only): the next delivery runs the workflow', async () => {
		const { webhookId, url, saved } = await activeUnderFirstToken();
		const rotated = workflow(webhookId, ['MESSAGE_RECEIVED'], { token: ROTATED, saved, restarted: true });
		endpoint.attach(rotated);
		const executionsBefore = endpoint.executions.length;

		const deliveries = await inboundMessage(url);

		expect(deliveries.map((delivery) => delivery.status)).toEqual([200]);
		expect(endpoint.executions.length - executionsBefore).toBe(1);
	});

	test('then deactivate and activate: no second registration, and the deliveries run the workflow (no 401)', async () => {
		const { webhookId, url, saved } = await activeUnderFirstToken();
		const active = workflow(webhookId, ['MESSAGE_RECEIVED'], { token: ROTATED, saved });
		await active.deactivate();
		const sentBefore = registrationsSent();

		const again = workflow(webhookId, ['MESSAGE_RECEIVED'], { token: ROTATED, saved, restarted: true });
		const calls = await again.activate();

		expect(calls.some((call) => call.hook === 'create')).toBe(false);
		expect(registrationsSent()).toBe(sentBefore);
		expect(webhooksFor(sandbox, url)).toHaveLength(1);
		endpoint.attach(again);
		const executionsBefore = endpoint.executions.length;
		const deliveries = await inboundMessage(url);
		expect(deliveries.map((delivery) => delivery.status)).toEqual([200]);
		expect(endpoint.executions.length - executionsBefore).toBe(1);
	});

	test('a forged delivery is still refused with 401 and runs nothing: a wrong secret, none, the new token\'s secret of another node, or the old secret\'s hash itself', async () => {
		const { webhookId, url, saved } = await activeUnderFirstToken();
		const rotated = workflow(webhookId, ['MESSAGE_RECEIVED'], { token: ROTATED, saved, restarted: true });
		endpoint.attach(rotated);
		const executionsBefore = endpoint.executions.length;
		const oldSecret = derivedSecretFor(webhookId);
		const forgeries: Array<string | undefined> = [
			'f'.repeat(64),
			undefined,
			derivedSecretFor(randomUUID(), ROTATED),
			secretHashOf(oldSecret),
			secretHashOf(oldSecret).slice(0, 16),
		];
		for (const secret of forgeries) {
			const headers: Record<string, string> = { 'content-type': 'application/json', 'x-inbox-event': 'MESSAGE_RECEIVED' };
			if (secret !== undefined) headers['x-inbox-webhook-secret'] = secret;
			const response = await fetch(url, { method: 'POST', headers, body: JSON.stringify({ event: 'MESSAGE_RECEIVED' }) });
			expect(response.status).toBe(401);
		}
		expect(endpoint.executions.length).toBe(executionsBefore);
	});

	test('after the rotation, a delivery echoing the old secret in its payload runs with the secret redacted from the item', async () => {
		const { webhookId, url, saved } = await activeUnderFirstToken();
		const rotated = workflow(webhookId, ['MESSAGE_RECEIVED'], { token: ROTATED, saved, restarted: true });
		endpoint.attach(rotated);
		const oldSecret = derivedSecretFor(webhookId);
		// The registration's headers, as the platform sends them with each delivery.
		const [registration] = webhooksFor(sandbox, url);
		const identity = { 'x-inbox-registration-id': headerOf(registration, 'x-inbox-registration-id')! };
		const executionsBefore = endpoint.executions.length;
		const response = await fetch(url, {
			method: 'POST',
			headers: { 'content-type': 'application/json', 'x-inbox-event': 'MESSAGE_RECEIVED', 'x-inbox-webhook-secret': oldSecret, ...identity },
			body: JSON.stringify({ event: 'MESSAGE_RECEIVED', echo: `secret=${oldSecret}` }),
		});
		expect(response.status).toBe(200);
		const [execution] = endpoint.executions.slice(executionsBefore);
		expect(JSON.stringify(execution.items)).toContain('secret=[redacted]');
		expect(JSON.stringify(execution.items)).not.toContain(oldSecret);
	});

	test('a registration saved by an earlier build with only its 16-hex secretTag: after the rotation its deliveries still run, a forged one is refused', async () => {
		const { webhookId, url, saved } = await activeUnderFirstToken();
		const oldSecret = derivedSecretFor(webhookId);
		// The layout of the builds between 0.1.0 and issue 35: the node's part only, the first 16 hex
		// characters of the hash, and no identity (nor does the registration carry one).
		const tagged = JSON.parse(JSON.stringify(saved)) as Record<string, { registrations: IDataObject[] }>;
		delete tagged.global;
		for (const node of Object.values(tagged)) {
			node.registrations = node.registrations.map(({ url: at, event, fingerprint }) => ({
				url: at,
				event,
				fingerprint,
				secretTag: secretHashOf(oldSecret).slice(0, 16),
			}));
		}
		for (const registration of webhooksFor(sandbox, url)) {
			registration.headers = registration.headers.filter((header) => header.key !== 'x-inbox-registration-id');
		}
		const rotated = workflow(webhookId, ['MESSAGE_RECEIVED'], { token: ROTATED, saved: tagged, restarted: true });
		expect(await rotated.runHook('checkExists')).toBe(true);
		endpoint.attach(rotated);
		const executionsBefore = endpoint.executions.length;

		const deliveries = await inboundMessage(url);
		expect(deliveries.map((delivery) => delivery.status)).toEqual([200]);
		expect(endpoint.executions.length - executionsBefore).toBe(1);
		const forged = await fetch(url, {
			method: 'POST',
			headers: { 'content-type': 'application/json', 'x-inbox-event': 'MESSAGE_RECEIVED', 'x-inbox-webhook-secret': 'e'.repeat(64) },
			body: JSON.stringify({ event: 'MESSAGE_RECEIVED' }),
		});
		expect(forged.status).toBe(401);
		expect(endpoint.executions.length - executionsBefore).toBe(1);
	});

	test('no secret is ever in static data in the clear, under either token', async () => {
		const { webhookId, saved } = await activeUnderFirstToken();
		// An event added after the rotation: registered with the new token's secret.
		const widened = workflow(webhookId, ['MESSAGE_RECEIVED', 'MESSAGE_SENT'], { token: ROTATED, saved });
		await widened.activate();
		const [added] = webhooksFor(sandbox, widened.webhookUrl()).filter((webhook) => webhook.type === 'MESSAGE_SENT');
		expect(headerOf(added, 'x-inbox-webhook-secret')).toBe(derivedSecretFor(webhookId, ROTATED));

		const text = JSON.stringify(widened.persistedStaticData());
		for (const secret of [derivedSecretFor(webhookId), derivedSecretFor(webhookId, ROTATED), DEMO.token, ROTATED]) {
			expect(text).not.toContain(secret);
		}
		const entries = (widened.nodeStaticData().registrations as IDataObject[]).map((entry) => entry.secretHash);
		expect(entries).toEqual([secretHashOf(derivedSecretFor(webhookId)), secretHashOf(derivedSecretFor(webhookId, ROTATED))]);
	});
});
