/**
 * Issue 42, Build 1: the trigger's state survives what n8n does to it, and where the record of a
 * registration is lost anyway, its deliveries never double the current one. The rows of the
 * issue's table, each played as n8n 1.123.81 (and 2.41.1 without its publication service) plays
 * it: static data is saved only after an activation succeeds, a restart or an update of the
 * package loads the node's module again (`restartedN8n`: the process record starts empty), a
 * rename moves nothing in static data (n8n keys a node's part by its name). Through the trigger
 * harness (n8n-core's HookContext / WebhookContext) against the sandbox, which delivers real
 * events (its simulate control) to the stand-in of n8n's webhook endpoint and never deletes a
 * registration.
 *
 * The only stand-in beyond the harness: the "no answer until the Timeout" row shortens the
 * trigger's 30 s request Timeout to 300 ms for its one failing activation (the clock module's
 * afterLoopFreeMs, for the 30 s only), so that the test does not wait 30 s for the timeout it is
 * about.
 */
import { randomUUID } from 'node:crypto';
import type { IDataObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

/** While set, the trigger's Timeout (transport.ts DEFAULT_TIMEOUT_MS, 30 s) lasts this long instead. */
let shortTimeoutMs: number | undefined;
jest.mock('../../nodes/shared/clock', () => {
	const actual = jest.requireActual<typeof import('../../nodes/shared/clock')>('../../nodes/shared/clock');
	return {
		...actual,
		// Only the 30 s of a request's Timeout, and only while a test asks; every other wait as it is.
		afterLoopFreeMs: (ms: number, fire: () => void) => actual.afterLoopFreeMs(ms === 30_000 && shortTimeoutMs !== undefined ? shortTimeoutMs : ms, fire),
	};
});

import type { ScriptedAnswer } from '../sandbox';
import { N8nWebhookEndpointStandIn, restartedN8n, TriggerInstance } from '../helpers/trigger-harness';
import type { Sandbox } from './setup';
import { DEMO, derivedSecretFor, headerOf, releasedTrigger, sandboxAndEndpoint, triggerParameters, webhooksFor, WHATSAPP } from './setup';

const REGISTER = '/v2/integration/webhook/create';
/** What the API answers when it refuses a registration (the sandbox's fault, a literal here). */
const REFUSAL = 'type CONNECTION_STATUS_UPDATE is not enabled for this integration';

const fixture = sandboxAndEndpoint();
let sandbox: Sandbox;
let endpoint: N8nWebhookEndpointStandIn;

beforeEach(() => {
	({ sandbox, endpoint } = fixture);
	sandbox.clearFaults();
	sandbox.answerWith = undefined;
	endpoint.detach();
});

const registrationsSent = (): number => sandbox.requests.filter((request) => request.method === 'POST' && request.path === REGISTER).length;

/** The workflow as n8n holds it: one trigger node, its static data as n8n last saved it. */
function workflow(
	webhookId: string,
	events: string[],
	options: { saved?: IDataObject; nodeClass?: ReturnType<typeof restartedN8n>; nodeName?: string; typeVersion?: number } = {},
): TriggerInstance {
	return new TriggerInstance({
		parameters: triggerParameters({ events }),
		credentials: { baseUrl: sandbox.baseUrl, apiToken: DEMO.token },
		webhookBaseUrl: endpoint.webhookBaseUrl,
		webhookId,
		staticData: options.saved,
		nodeClass: options.nodeClass,
		nodeName: options.nodeName,
		typeVersion: options.typeVersion,
	});
}

/** One inbound message on the integration: its MESSAGE_RECEIVED deliveries to `url`, and the executions they started. */
async function inboundMessage(url: string, text = 'Oi'): Promise<{ statuses: Array<number | undefined>; executions: number; answers: unknown[] }> {
	const executionsBefore = endpoint.executions.length;
	const deliveries = (
		await sandbox.simulate.message({ integrationId: WHATSAPP, phoneNumber: DEMO.contacts.alice.phoneNumber, direction: 'inbound', text })
	).filter((delivery) => delivery.url === url && delivery.event === 'MESSAGE_RECEIVED');
	return {
		statuses: deliveries.map((delivery) => delivery.status),
		executions: endpoint.executions.length - executionsBefore,
		answers: deliveries.map((delivery) => JSON.parse(delivery.responseBody ?? 'null') as unknown),
	};
}

const failureOf = async (activation: Promise<unknown>): Promise<unknown> =>
	await activation.then(
		() => undefined,
		(caught: unknown) => caught,
	);

/** The acknowledgement of a delivery that ran nothing because another registration of its kind is the current one. */
const NOT_CURRENT = {
	success: true,
	executed: false,
	reason: 'The delivery comes from another registration of this event kind than the current one (made again after n8n lost its record of it)',
};

describe('the node renamed, then n8n restarted', () => {
	test('the next activation reuses the registration (kept under the webhook ID, not the name): nothing registered again, one execution per message', async () => {
		const webhookId = randomUUID();
		const first = workflow(webhookId, ['MESSAGE_RECEIVED']);
		await first.activate();
		await first.deactivate();
		const url = first.webhookUrl();
		const saved = first.persistedStaticData();
		const sentBefore = registrationsSent();

		// Renamed in the editor, n8n restarted, the workflow activated: static data as saved, under the old name.
		const renamed = workflow(webhookId, ['MESSAGE_RECEIVED'], { saved, nodeName: 'Inbox renamed', nodeClass: restartedN8n() });
		expect(renamed.node.name).toBe('Inbox renamed');
		expect(renamed.webhookUrl()).toBe(url);
		const calls = await renamed.activate();

		expect(calls.some((call) => call.hook === 'create')).toBe(false);
		expect(registrationsSent()).toBe(sentBefore);
		expect(webhooksFor(sandbox, url)).toHaveLength(1);
		endpoint.attach(renamed);
		expect(await inboundMessage(url)).toMatchObject({ statuses: [200], executions: 1 });

		// Saved again and restarted once more: still known, under the new name too.
		const again = workflow(webhookId, ['MESSAGE_RECEIVED'], { saved: renamed.persistedStaticData(), nodeName: 'Inbox renamed', nodeClass: restartedN8n() });
		expect(await again.runHook('checkExists')).toBe(true);
	});

	test('a node saved by the build before issue 42 (its registrations in the node\'s part, none carrying an identity), renamed before its first activation with this build: registered anew, the old registration\'s deliveries acknowledged and ignored', async () => {
		const webhookId = randomUUID();
		const first = workflow(webhookId, ['MESSAGE_RECEIVED']);
		await first.activate();
		const url = first.webhookUrl();
		// As that build left it: no global part, and a registration without x-inbox-registration-id.
		const saved = first.persistedStaticData();
		delete saved.global;
		for (const entry of (saved[`node:${first.node.name}`] as { registrations: IDataObject[] }).registrations) delete entry.id;
		for (const registration of webhooksFor(sandbox, url)) {
			registration.headers = registration.headers.filter((header) => header.key !== 'x-inbox-registration-id');
		}

		const renamed = workflow(webhookId, ['MESSAGE_RECEIVED'], { saved, nodeName: 'Renamed after the upgrade', nodeClass: restartedN8n() });
		await renamed.activate();
		expect(webhooksFor(sandbox, url)).toHaveLength(2);
		endpoint.attach(renamed);

		const delivered = await inboundMessage(url);
		expect(delivered.statuses).toEqual([200, 200]);
		expect(delivered.executions).toBe(1);
		expect(delivered.answers).toContainEqual(NOT_CURRENT);
	});

	test('a node 0.1.0 saved (a random secret kept in the node\'s part, under the old name), renamed before its first activation with this build: registered anew; 0.1.0\'s registration, whose secret the node cannot find under the new name, is refused (401): one execution per message', async () => {
		const released = releasedTrigger(2);
		const webhookId = randomUUID();
		const url = `${endpoint.webhookBaseUrl}/${webhookId}/webhook`;
		// What 0.1.0 left: its registrations on the platform (its requests as recorded, sent again
		// to this sandbox for this node's URL) and its static data, under the node's old name.
		const toHere = (text: string): string => text.split(released.activation.webhookUrl).join(url);
		for (const { body } of released.activation.registrationRequests) {
			const response = await fetch(`${sandbox.baseUrl}/integration/webhook/create`, {
				method: 'POST',
				headers: { authorization: `Bearer ${DEMO.token}`, 'content-type': 'application/json' },
				body: toHere(JSON.stringify(body)),
			});
			expect(response.status).toBe(200);
		}
		const saved = JSON.parse(toHere(JSON.stringify(released.staticData.afterDeactivation))) as IDataObject;
		const events = released.node.parameters.events as string[];
		expect(events).toContain('FIRST_MESSAGE_RECEIVED');
		const renamed = new TriggerInstance({
			parameters: released.node.parameters,
			credentials: { baseUrl: sandbox.baseUrl, apiToken: DEMO.token },
			webhookBaseUrl: endpoint.webhookBaseUrl,
			webhookId,
			staticData: saved,
			typeVersion: released.node.typeVersion,
			nodeName: 'Renamed after the upgrade',
			nodeClass: restartedN8n(),
		});

		await renamed.activate();
		endpoint.attach(renamed);

		// n8n cannot hand the node its old name's part: every event is registered anew.
		expect(webhooksFor(sandbox, url)).toHaveLength(2 * events.length);
		const executionsBefore = endpoint.executions.length;
		const deliveries = (
			await sandbox.simulate.message({ integrationId: WHATSAPP, phoneNumber: `55119${String(Date.now()).slice(-8)}`, direction: 'inbound', text: 'first words' })
		).filter((delivery) => delivery.url === url && delivery.event === 'FIRST_MESSAGE_RECEIVED');
		expect(deliveries.map((delivery) => delivery.status).sort()).toEqual([200, 401]);
		const ran = endpoint.executions.slice(executionsBefore).filter((call) => (call.items?.[0]?.json as IDataObject).event === 'FIRST_MESSAGE_RECEIVED');
		expect(ran).toHaveLength(1);
	});
});

describe('n8n restarted between a failed activation and the corrected one', () => {
	test('the registration accepted in the failed activation is made again (its record is gone), and runs nothing: one execution per message, each delivery answered 200', async () => {
		const webhookId = randomUUID();
		sandbox.addFault({ kind: 'status', status: 400, path: REGISTER, match: 'CONNECTION_STATUS_UPDATE', message: REFUSAL });
		const failed = workflow(webhookId, ['MESSAGE_RECEIVED', 'CONNECTION_STATUS_UPDATE']);
		const url = failed.webhookUrl();
		expect(await failureOf(failed.activate())).toBeInstanceOf(NodeApiError);
		expect(webhooksFor(sandbox, url).map((webhook) => webhook.type)).toEqual(['MESSAGE_RECEIVED']);

		// n8n saved nothing; restarted; the user removes the refused event and activates again.
		const corrected = workflow(webhookId, ['MESSAGE_RECEIVED'], { nodeClass: restartedN8n() });
		await corrected.activate();
		const [lost, current] = webhooksFor(sandbox, url);
		expect(webhooksFor(sandbox, url).map((webhook) => webhook.type)).toEqual(['MESSAGE_RECEIVED', 'MESSAGE_RECEIVED']);
		endpoint.attach(corrected);

		const delivered = await inboundMessage(url);
		expect(delivered.statuses).toEqual([200, 200]);
		expect(delivered.executions).toBe(1);
		expect(delivered.answers).toContainEqual(NOT_CURRENT);
		expect(delivered.answers).toContainEqual({ success: true, executed: true });
		// The one that ran is the registration the corrected activation made.
		const [execution] = endpoint.executions.slice(-1);
		expect((execution.items?.[0]?.json.headers as IDataObject)['x-inbox-registration']).toBe(headerOf(current, 'x-inbox-registration'));
		expect(headerOf(lost, 'x-inbox-registration-id')).not.toBe(headerOf(current, 'x-inbox-registration-id'));

		// Saved, restarted again, a webhook process that reads static data only: still one.
		const restarted = workflow(webhookId, ['MESSAGE_RECEIVED'], { saved: corrected.persistedStaticData(), nodeClass: restartedN8n() });
		endpoint.attach(restarted);
		expect(await inboundMessage(url)).toMatchObject({ statuses: [200, 200], executions: 1 });
		// The ignored delivery leaves a debug line (never the body), no warning.
		const lines = endpoint.logs.filter((log) => log.message.includes('another registration of this event kind'));
		expect(lines.length).toBeGreaterThan(0);
		expect(lines.every((log) => log.level === 'debug' && !log.message.includes('Oi'))).toBe(true);
	});
});

describe('a registration the platform carried out but answered 502, or never answered', () => {
	/** The first registration of MESSAGE_RECEIVED is carried out, then answered as `answer`. */
	function carriedOutThen(answer: ScriptedAnswer['answer']): void {
		let first = true;
		sandbox.answerWith = (request) => {
			if (request.path !== REGISTER || (request.body as { type?: unknown }).type !== 'MESSAGE_RECEIVED' || !first) return undefined;
			first = false;
			return { carriedOut: true, answer };
		};
	}

	test.each([
		['answered 500', { status: 500 } as const, '500'],
		['answered 502', { status: 502 } as const, '502'],
		['the connection reset, no answer', 'reset' as const, null],
		['no answer until the Timeout', 'hang' as const, null],
	])('%s: activation fails saying it may exist; the next one registers anew (in this process, and after a restart), and the first one\'s deliveries run nothing', async (_name, answer, httpCode) => {
		const webhookId = randomUUID();
		carriedOutThen(answer);
		const failed = workflow(webhookId, ['MESSAGE_RECEIVED']);
		const url = failed.webhookUrl();

		if (answer === 'hang') shortTimeoutMs = 300;
		const error = await failureOf(failed.activate()).finally(() => {
			shortTimeoutMs = undefined;
		});

		expect(error).toBeInstanceOf(NodeApiError);
		expect((error as NodeApiError).httpCode).toBe(httpCode);
		expect((error as NodeApiError).description).toContain('The platform may have registered it all the same');
		// The platform holds it; the node counted it as possibly made, not as made.
		expect(webhooksFor(sandbox, url)).toHaveLength(1);

		// Activated again in the same process: not reused (it may not exist), registered anew.
		const again = workflow(webhookId, ['MESSAGE_RECEIVED'], { nodeClass: failed.setup.nodeClass });
		await again.activate();
		expect(webhooksFor(sandbox, url)).toHaveLength(2);
		endpoint.attach(again);
		const delivered = await inboundMessage(url);
		expect(delivered.statuses).toEqual([200, 200]);
		expect(delivered.executions).toBe(1);
		expect(delivered.answers).toContainEqual(NOT_CURRENT);

		// n8n restarted with what it saved: nothing registered, still one execution per message.
		const sentBefore = registrationsSent();
		const restarted = workflow(webhookId, ['MESSAGE_RECEIVED'], { saved: again.persistedStaticData(), nodeClass: restartedN8n() });
		await restarted.activate();
		expect(registrationsSent()).toBe(sentBefore);
		endpoint.attach(restarted);
		expect(await inboundMessage(url)).toMatchObject({ statuses: [200, 200], executions: 1 });
	});

	test('answered 502 and n8n restarted before the next activation (the record of it gone): registered anew, still one execution per message', async () => {
		const webhookId = randomUUID();
		carriedOutThen({ status: 502 });
		const failed = workflow(webhookId, ['MESSAGE_RECEIVED']);
		const url = failed.webhookUrl();
		expect(await failureOf(failed.activate())).toBeInstanceOf(NodeApiError);

		const corrected = workflow(webhookId, ['MESSAGE_RECEIVED'], { nodeClass: restartedN8n() });
		await corrected.activate();
		expect(webhooksFor(sandbox, url)).toHaveLength(2);
		endpoint.attach(corrected);
		expect(await inboundMessage(url)).toMatchObject({ statuses: [200, 200], executions: 1 });
	});

	test('a refusal (HTTP 400, or 499) is not counted as possibly made: nothing extra kept; the error starts with the refusal and says nothing more', async () => {
		for (const status of [400, 499]) {
			const webhookId = randomUUID();
			sandbox.addFault({ kind: 'status', status, path: REGISTER, message: REFUSAL });
			const failed = workflow(webhookId, ['MESSAGE_RECEIVED']);
			const error = (await failureOf(failed.activate())) as NodeApiError;
			expect(error).toBeInstanceOf(NodeApiError);
			// The event kind as the Events list names it, then the API's refusal (refusal-words.test.ts).
			expect(error.message).toMatch(new RegExp(`^Registering the webhook for Message Received failed: .*${REFUSAL}`));
			// The refusal first, a space, then what the request path says.
			expect(error.description?.startsWith(`${error.message}. POST /integration/webhook/create answered HTTP ${status}.`)).toBe(true);
			expect(error.description).toBe(error.description?.trim());
			expect(error.description).not.toContain('may have registered');
			expect(JSON.stringify(failed.persistedStaticData())).not.toContain('possiblyMade');
		}
	});

	test('a failure before anything is sent (the credential\'s Base URL without /v2): not possibly made, its own error unchanged', async () => {
		const failed = new TriggerInstance({
			parameters: triggerParameters({ events: ['MESSAGE_RECEIVED'] }),
			credentials: { baseUrl: sandbox.url, apiToken: DEMO.token },
			webhookBaseUrl: endpoint.webhookBaseUrl,
			webhookId: randomUUID(),
		});
		const sentBefore = registrationsSent();
		const error = (await failureOf(failed.activate())) as Error & { description?: string };
		expect(error).toBeInstanceOf(NodeOperationError);
		expect(error.message).toBe("The credential's Base URL must be an http(s) address ending in /v2");
		expect(error.description).toMatch(/^Got "/);
		expect(registrationsSent()).toBe(sentBefore);
		expect(JSON.stringify(failed.persistedStaticData())).not.toContain('possiblyMade');
	});
});

describe('n8n\'s test URL ("Listen for test event")', () => {
	test('a delivery to the test URL runs, though its registration is not the production URL\'s current one (n8n takes one delivery per test)', async () => {
		const webhookId = randomUUID();
		const setup = {
			parameters: triggerParameters({ events: ['MESSAGE_RECEIVED'] }),
			credentials: { baseUrl: sandbox.baseUrl, apiToken: DEMO.token },
			webhookBaseUrl: endpoint.webhookBaseUrl,
			webhookTestBaseUrl: endpoint.webhookTestBaseUrl,
			webhookId,
		};
		const active = new TriggerInstance(setup);
		await active.activate();
		// The user listens for a test event: n8n registers the test URL (mode manual), in the same process.
		const listening = new TriggerInstance({ ...setup, staticData: active.persistedStaticData() });
		await listening.activate({ isTest: true });
		const testUrl = listening.webhookUrl(true);
		expect(webhooksFor(sandbox, testUrl)).toHaveLength(1);
		endpoint.attach(listening);
		const executionsBefore = endpoint.executions.length;
		const deliveries = (
			await sandbox.simulate.message({ integrationId: WHATSAPP, phoneNumber: DEMO.contacts.alice.phoneNumber, direction: 'inbound', text: 'test event' })
		).filter((delivery) => delivery.url === testUrl);
		expect(deliveries.map((delivery) => delivery.status)).toEqual([200]);
		const atTestUrl = endpoint.executions.slice(executionsBefore).filter((call) => call.path.startsWith('/webhook-test/'));
		expect(atTestUrl).toHaveLength(1);
	});
});

describe('the registration\'s identity in the item', () => {
	test('a saved version-2 node\'s full item keeps the headers it gave: the identity header is left out, like the secret', async () => {
		const instance = workflow(randomUUID(), ['MESSAGE_RECEIVED'], { typeVersion: 2 });
		await instance.activate();
		endpoint.attach(instance);
		const executionsBefore = endpoint.executions.length;
		expect(await inboundMessage(instance.webhookUrl())).toMatchObject({ statuses: [200], executions: 1 });
		const headers = endpoint.executions[executionsBefore].items![0].json.headers as IDataObject;
		expect(headers['x-inbox-registration']).toMatch(/^[0-9a-f]{32}$/);
		expect(headers['x-inbox-event']).toBe('MESSAGE_RECEIVED');
		expect(Object.keys(headers)).not.toContain('x-inbox-registration-id');
		expect(Object.keys(headers)).not.toContain('x-inbox-webhook-secret');
	});
});

describe('the current registration is known only to the process that made it', () => {
	test('a webhook process that reads static data saved before the registration (or none) runs its delivery: never deaf', async () => {
		const webhookId = randomUUID();
		const main = workflow(webhookId, ['MESSAGE_RECEIVED']);
		await main.activate();
		// Another process (a webhook processor in queue mode) before n8n saved static data.
		const webhookProcess = workflow(webhookId, ['MESSAGE_RECEIVED'], { nodeClass: restartedN8n() });
		endpoint.attach(webhookProcess);
		expect(await inboundMessage(main.webhookUrl())).toMatchObject({ statuses: [200], executions: 1 });
		expect(derivedSecretFor(webhookId)).toBe(headerOf(webhooksFor(sandbox, main.webhookUrl())[0], 'x-inbox-webhook-secret'));
	});
});
