/**
 * Issue 43, Build 9 (row 14): "Execute step" on the trigger registers n8n's test URL once per node
 * for as long as the n8n process runs, not once per click (the API cannot delete a registration,
 * so each extra one would deliver every later event to the test URL for ever).
 *
 * Each click is played as n8n plays it (TestWebhooks.needsWebhook): a new Workflow with empty
 * static data (n8n keeps none in test mode), checkExists then create in mode manual, through
 * n8n-core's HookContext; its deliveries through WebhookContext at the stand-in of n8n's endpoint.
 * The sandbox counts the registrations (POST /integration/webhook/create) and never deletes one.
 */
import { randomUUID } from 'node:crypto';

import type { N8nWebhookEndpointStandIn } from '../helpers/trigger-harness';
import { restartedN8n, TriggerInstance } from '../helpers/trigger-harness';
import type { Sandbox, TriggerParameterInput } from './setup';
import { DEMO, sandboxAndEndpoint, triggerParameters, webhooksFor, WHATSAPP } from './setup';

const REGISTER = '/v2/integration/webhook/create';

const fixture = sandboxAndEndpoint();
let sandbox: Sandbox;
let endpoint: N8nWebhookEndpointStandIn;

beforeEach(() => {
	({ sandbox, endpoint } = fixture);
	endpoint.detach();
});

const registrationsSent = (): number =>
	sandbox.requests.filter((request) => request.method === 'POST' && request.path === REGISTER).length;

/**
 * One click on "Execute step" of the node `webhookId` with these settings: a new Workflow with
 * empty static data, its webhooks run in mode manual. Returns the registrations it sent.
 */
async function executeStep(
	webhookId: string,
	settings: TriggerParameterInput,
	options: { apiToken?: string; nodeClass?: ReturnType<typeof restartedN8n> } = {},
): Promise<{ instance: TriggerInstance; sent: number }> {
	const instance = new TriggerInstance({
		parameters: triggerParameters(settings),
		credentials: { baseUrl: sandbox.baseUrl, apiToken: options.apiToken ?? DEMO.token },
		webhookBaseUrl: endpoint.webhookBaseUrl,
		webhookTestBaseUrl: endpoint.webhookTestBaseUrl,
		webhookId,
		nodeClass: options.nodeClass,
	});
	const before = registrationsSent();
	await instance.activate({ isTest: true });
	return { instance, sent: registrationsSent() - before };
}

/** A real inbound message (the sandbox's simulate control): the deliveries to `url`. */
async function inboundMessageTo(url: string): Promise<{ statuses: Array<number | undefined>; executions: number }> {
	const executionsBefore = endpoint.executions.length;
	const deliveries = (
		await sandbox.simulate.message({ integrationId: WHATSAPP, phoneNumber: DEMO.contacts.alice.phoneNumber, direction: 'inbound', text: 'test event' })
	).filter((delivery) => delivery.url === url);
	return { statuses: deliveries.map((delivery) => delivery.status), executions: endpoint.executions.length - executionsBefore };
}

describe('"Execute step" registers the test URL once per node while n8n runs (issue 43, row 14)', () => {
	test('three Execute step tests in a row register each selected event once; the later clicks send nothing', async () => {
		const webhookId = randomUUID();
		const settings = { events: ['MESSAGE_RECEIVED', 'MESSAGE_SENT'] };
		const first = await executeStep(webhookId, settings);
		const second = await executeStep(webhookId, settings);
		const third = await executeStep(webhookId, settings);
		expect([first.sent, second.sent, third.sent]).toEqual([2, 0, 0]);
		const testUrl = first.instance.webhookUrl(true);
		expect(testUrl).toBe(`${endpoint.webhookTestBaseUrl}/${webhookId}/webhook`);
		expect(webhooksFor(sandbox, testUrl).map((webhook) => webhook.type).sort()).toEqual(['MESSAGE_RECEIVED', 'MESSAGE_SENT']);
	});

	test('the registration a later click reuses delivers to that test and runs it, also after the API token changed; nothing is logged as an error', async () => {
		const webhookId = randomUUID();
		const settings = { events: ['MESSAGE_RECEIVED'] };
		const first = await executeStep(webhookId, settings);
		expect(first.sent).toBe(1);
		// The token changed between the clicks: the reused registration carries the secret derived
		// from the old one, which the node now accepts by the hash the process record kept.
		const second = await executeStep(webhookId, settings, { apiToken: `${DEMO.token}-rotated` });
		expect(second.sent).toBe(0);
		endpoint.attach(second.instance);
		const logsBefore = endpoint.logs.length;
		expect(await inboundMessageTo(second.instance.webhookUrl(true))).toEqual({ statuses: [200], executions: 1 });
		expect(endpoint.logs.slice(logsBefore).filter((log) => log.level === 'error' || log.level === 'warn')).toEqual([]);
	});

	test('a changed setting registers only the events it lacks; changing it back registers nothing', async () => {
		const webhookId = randomUUID();
		const sent: number[] = [];
		const click = async (settings: TriggerParameterInput): Promise<void> => {
			sent.push((await executeStep(webhookId, settings)).sent);
		};
		await click({ events: ['MESSAGE_RECEIVED'] });
		await click({ events: ['MESSAGE_RECEIVED', 'MESSAGE_SENT'] });
		await click({ events: ['MESSAGE_RECEIVED', 'MESSAGE_SENT'], transferType: 'API' });
		await click({ events: ['MESSAGE_RECEIVED'], delayMinutes: 2 });
		await click({ events: ['MESSAGE_RECEIVED'], extraHeaders: [{ key: 'x-proxy', value: 'one' }] });
		await click({ events: ['MESSAGE_RECEIVED', 'MESSAGE_SENT'] });
		await click({ events: ['MESSAGE_RECEIVED'], delayMinutes: 2 });
		expect(sent).toEqual([1, 1, 2, 1, 1, 0, 0]);
	});

	test('another trigger node registers its own test URL, once', async () => {
		const settings = { events: ['MESSAGE_RECEIVED'] };
		const one = randomUUID();
		const other = randomUUID();
		expect((await executeStep(one, settings)).sent).toBe(1);
		const first = await executeStep(other, settings);
		const second = await executeStep(other, settings);
		expect([first.sent, second.sent]).toEqual([1, 0]);
		expect(webhooksFor(sandbox, first.instance.webhookUrl(true))).toHaveLength(1);
	});

	test('a restart of n8n forgets the test registrations: the next Execute step registers the test URL again (the limit the notice states)', async () => {
		const webhookId = randomUUID();
		const settings = { events: ['MESSAGE_RECEIVED'] };
		const before = await executeStep(webhookId, settings);
		const afterRestart = await executeStep(webhookId, settings, { nodeClass: restartedN8n() });
		expect([before.sent, afterRestart.sent]).toEqual([1, 1]);
		expect(webhooksFor(sandbox, before.instance.webhookUrl(true))).toHaveLength(2);
	});
});
