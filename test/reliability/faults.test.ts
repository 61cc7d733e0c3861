/* eslint-disable -- development tooling, not shipped: n8n's node rules (eslint.config.mjs, n8n-node lint) are for nodes/ and credentials/ */
/**
 * Faults injected by the sandbox (429 with Retry-After, 500/502/503, a response slower than the
 * timeout, a non-JSON body, success:false under 200, a reset) and a closed port, through n8n-core's
 * real RoutingNode over real HTTP. Retries are counted in the sandbox's request log; "no duplicate"
 * is proven on the sandbox's state. The retry code, the attempt count and Retry-After are real;
 * only the exponential backoff is shortened (fast-retry.ts). The policy's pure functions and
 * `withRetry` on a fake clock are tested without HTTP in retry-policy.test.ts.
 */
jest.mock('../../nodes/shared/retry', () => jest.requireActual('./fast-retry').fastRetryModule());

import { randomUUID } from 'node:crypto';
import diagnosticsChannel from 'node:diagnostics_channel';
import type { Socket } from 'node:net';

import { LoadOptionsContext } from 'n8n-core';
import type { IDataObject, INodeExecutionData, INodeParameters } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { ConversationInboxTrigger } from '../../nodes/ConversationInboxTrigger/ConversationInboxTrigger.node';
import { makeAdditionalData, makeWorkflow } from '../helpers/n8n-harness';
import { useSandbox } from '../helpers/node-runner';
import { TRIGGER_TYPE, TriggerInstance } from '../helpers/trigger-harness';
import type { Fault, Hold, RecordedRequest, Sandbox } from '../sandbox';
import { DEMO } from '../sandbox';
import { triggerParameters, webhooksFor } from '../trigger/setup';
import { closedPort, itemIndexOf, run, runError } from './helpers';

const ctx = useSandbox();

const WHATSAPP = DEMO.integrations.whatsapp.id;
const OFFICIAL = DEMO.integrations.official.id;
/**
 * Settings → Request Options → Timeout in these tests. A request that must time out is HELD by the
 * sandbox (it cannot answer in time however fast the machine is); the wide timeout is for the other
 * requests of a run, which must answer within it on a busy machine too. SLOW_MS: how slow the one
 * "slow" answer is that must arrive under the default timeout (30 s).
 */
const TIMEOUT_MS = 2000;
const SLOW_MS = 2500;

/** Lets the held requests go on and waits until the sandbox has handled each (created what it creates). */
async function releaseAndWaitHandled(sandbox: Sandbox, hold: Hold): Promise<void> {
	hold.release();
	await sandbox.waitForRequests(() => hold.held.every((request) => request.status !== 0));
}

const createTag = (name: string): INodeParameters => ({ resource: 'tag', operation: 'create', name });
const createWebhook = (url: string): INodeParameters => ({
	resource: 'webhook',
	operation: 'create',
	integrationId: WHATSAPP,
	url,
	type: 'MESSAGE_RECEIVED',
	method: 'POST',
});
const createBot = (name: string): INodeParameters => ({
	resource: 'botIntegration',
	operation: 'create',
	name,
	url: 'https://bots.example.com/api/v1/bots/retry-check',
});
const listIntegrations: INodeParameters = { resource: 'integration', operation: 'getAll', returnAll: true };
const listUsers: INodeParameters = { resource: 'user', operation: 'getAll', returnAll: true };

const calls = (sandbox: Sandbox, path: string): RecordedRequest[] =>
	sandbox.requests.filter((request) => request.path === `/v2${path}`);
const tagsNamed = (sandbox: Sandbox, name: string): number =>
	[...sandbox.state.tags.values()].filter((tag) => tag.name === name).length;
const webhooksTo = (sandbox: Sandbox, url: string): number =>
	[...sandbox.state.webhooks.values()].filter((webhook) => webhook.url === url).length;
const botsNamed = (sandbox: Sandbox, name: string): number =>
	[...sandbox.state.bots.values()].filter((bot) => bot.name === name).length;
const integrationIds = (sandbox: Sandbox): string[] => [...sandbox.state.integrations.keys()].sort();
const idsOf = (items: INodeExecutionData[]): string[] => items.map((item) => String(item.json.id)).sort();

/** The POST operations whose duplicates the sandbox can count: [label, parameters, count]. */
const CREATES: Array<[string, (key: string) => INodeParameters, (sandbox: Sandbox, key: string) => number]> = [
	['tag', (key) => createTag(key), tagsNamed],
	['webhook', (key) => createWebhook(`https://example.com/hooks/${key}`), (s, key) => webhooksTo(s, `https://example.com/hooks/${key}`)],
	['bot', (key) => createBot(key), botsNamed],
];
const CREATE_PATHS: Record<string, string> = {
	tag: '/tag/create',
	webhook: '/integration/webhook/create',
	bot: '/automation/integration-bot/create',
};

describe('429 Too Many Requests: retried for every method, honouring Retry-After', () => {
	test.each(CREATES)('POST %s: two 429s, then created exactly once', async (_label, parameters, count) => {
		const key = `rl-${randomUUID().slice(0, 8)}`;
		const path = CREATE_PATHS[_label];
		ctx.sandbox.addFault({ path, kind: 'status', status: 429, retryAfterSeconds: 0, times: 2 });
		const out = await run(ctx.sandbox, { parameters: parameters(key) });
		expect(out).toHaveLength(1);
		expect(out[0].error).toBeUndefined();
		expect(calls(ctx.sandbox, path).map((r) => r.status)).toEqual([429, 429, 200]);
		expect(count(ctx.sandbox, key)).toBe(1);
	});

	test('Retry-After in seconds is waited for (1 s between the 429 and the retry)', async () => {
		ctx.sandbox.addFault({ path: '/integration/list', kind: 'status', status: 429, retryAfterSeconds: 1 });
		const out = await run(ctx.sandbox, { parameters: listIntegrations });
		expect(idsOf(out)).toEqual(integrationIds(ctx.sandbox));
		const [first, second] = calls(ctx.sandbox, '/integration/list');
		expect([first.status, second.status]).toEqual([429, 200]);
		expect(second.at - first.at).toBeGreaterThanOrEqual(950);
	});

	test('Retry-After as an HTTP date is waited for too (not retried before that date)', async () => {
		ctx.sandbox.addFault({ path: '/user/list', kind: 'status', status: 429, retryAfterSeconds: 1, retryAfterAsDate: true });
		const out = await run(ctx.sandbox, { parameters: listUsers });
		expect(out).toHaveLength(ctx.sandbox.state.users.length);
		const [first, second] = calls(ctx.sandbox, '/user/list');
		expect([first.status, second.status]).toEqual([429, 200]);
		// The sandbox answered "Retry-After: <now + 1 s, whole seconds>"; the retry came after that date.
		const notBefore = Math.floor((first.at + 1000) / 1000) * 1000;
		expect(second.at).toBeGreaterThanOrEqual(notBefore - 5);
	});

	// 429 on every attempt: refusing-everything.test.ts (it ends once the API has accepted nothing for a minute).

	// Not waited for: the test's own timeout (jest's 30 s) is far below the 120 s asked.
	test('a Retry-After longer than 60 s is not waited for: one send, the error says how long', async () => {
		ctx.sandbox.addFault({ path: '/integration/list', kind: 'status', status: 429, retryAfterSeconds: 120 });
		const error = await runError(ctx.sandbox, { parameters: listIntegrations });
		expect(error.message).toBe('The API is receiving too many requests (HTTP 429): Too many requests, retry later');
		expect(String(error.description)).toContain('The API asked to wait 120 s before trying again');
		expect(calls(ctx.sandbox, '/integration/list')).toHaveLength(1);
	});
});

describe('5xx: a GET is retried with backoff, a POST never (it may have been carried out)', () => {
	test.each([500, 502, 503])('GET, one %i: retried once, the list is complete', async (status) => {
		ctx.sandbox.addFault({ path: '/integration/list', kind: 'status', status });
		const out = await run(ctx.sandbox, { parameters: listIntegrations });
		expect(idsOf(out)).toEqual(integrationIds(ctx.sandbox));
		expect(calls(ctx.sandbox, '/integration/list').map((r) => r.status)).toEqual([status, 200]);
	});

	test.each([500, 502, 503])('GET, %i every time: exactly 3 sends, then the error', async (status) => {
		ctx.sandbox.addFault({ path: '/user/list', kind: 'status', status, times: Infinity });
		const error = await runError(ctx.sandbox, { parameters: listUsers });
		expect(error.message).toBe(`The API failed to process the request (HTTP ${status}): Erro ao enviar mensagem`);
		expect(String(error.description)).toContain('Gave up after 3 attempts.');
		expect(calls(ctx.sandbox, '/user/list')).toHaveLength(3);
	});

	const postCases = CREATES.flatMap(([label, parameters, count]) =>
		[500, 502, 503].map((status) => [label, status, parameters, count] as const),
	);
	test.each(postCases)('POST %s, %i: one send, no retry, nothing duplicated', async (label, status, parameters, count) => {
		const key = `e5-${randomUUID().slice(0, 8)}`;
		const path = CREATE_PATHS[label];
		ctx.sandbox.addFault({ path, kind: 'status', status, times: Infinity });
		const error = await runError(ctx.sandbox, { parameters: parameters(key) });
		expect(error.message).toBe(`The API failed to process the request (HTTP ${status}): Erro ao enviar mensagem`);
		expect(String(error.description)).toContain('Not retried: the API may have carried out this POST');
		expect(calls(ctx.sandbox, path)).toHaveLength(1);
		expect(count(ctx.sandbox, key)).toBe(0);
	});
});

describe('a response slower than the timeout (Settings → Request Options → Timeout)', () => {
	test('GET, no answer in time once: timed out, retried, the list is complete', async () => {
		// The first send is held until the retry has arrived (so it timed out); then both go on.
		const hold = ctx.sandbox.hold({ path: '/integration/list' });
		const running = run(ctx.sandbox, { parameters: listIntegrations, timeoutMs: TIMEOUT_MS });
		await hold.waitFor(2);
		hold.release();
		const out = await running;
		expect(idsOf(out)).toEqual(integrationIds(ctx.sandbox));
		expect(calls(ctx.sandbox, '/integration/list')).toHaveLength(2);
	});

	test('GET, no answer in time ever: 3 sends, then a clear timeout error naming the limit and the setting', async () => {
		const hold = ctx.sandbox.hold({ path: '/user/list' });
		const error = await runError(ctx.sandbox, { parameters: listUsers, timeoutMs: TIMEOUT_MS });
		hold.release();
		expect(error).toBeInstanceOf(NodeApiError);
		expect(error.message).toBe(`The API did not answer within ${TIMEOUT_MS} ms (timeout)`);
		expect(String(error.description)).toContain('raise Timeout under the node\'s Settings → Request Options');
		expect(String(error.description)).toContain('Gave up after 3 attempts.');
		expect(calls(ctx.sandbox, '/user/list')).toHaveLength(3);
	});

	// n8n's loop held past the Timeout after the answer arrived (another execution's node preparing
	// thousands of items in the same process): the answer is there, so it is read, not timed out.
	test('POST tag, the answer there but n8n\'s loop busy past the timeout: created once, its ID in the output, not sent again', async () => {
		const key = `busy-${randomUUID().slice(0, 8)}`;
		ctx.sandbox.addFault({ path: '/tag/create', kind: 'busy-after', delayMs: TIMEOUT_MS + 1000 });
		const out = await run(ctx.sandbox, { parameters: createTag(key), timeoutMs: TIMEOUT_MS });
		expect(out).toHaveLength(1);
		expect(out[0].error).toBeUndefined();
		expect(out[0].json.id).toBe([...ctx.sandbox.state.tags.values()].find((tag) => tag.name === key)?.id);
		expect(calls(ctx.sandbox, '/tag/create')).toHaveLength(1);
		expect(tagsNamed(ctx.sandbox, key)).toBe(1);
	});

	test('GET, the answer there but n8n\'s loop busy past the timeout: read once, the list complete', async () => {
		ctx.sandbox.addFault({ path: '/integration/list', kind: 'busy-after', delayMs: TIMEOUT_MS + 1000 });
		const out = await run(ctx.sandbox, { parameters: listIntegrations, timeoutMs: TIMEOUT_MS });
		expect(idsOf(out)).toEqual(integrationIds(ctx.sandbox));
		expect(calls(ctx.sandbox, '/integration/list')).toHaveLength(1);
	});

	test('POST tag, webhook and bot, no answer in time: one send each, no retry; the API finished each once, so exactly one of each exists', async () => {
		const keys = CREATES.map(() => `to-${randomUUID().slice(0, 8)}`);
		const hold = ctx.sandbox.hold({ method: 'POST' });
		const errors = await Promise.all(
			CREATES.map(async ([, parameters], index) => await runError(ctx.sandbox, { parameters: parameters(keys[index]), timeoutMs: TIMEOUT_MS })),
		);
		for (const error of errors) {
			expect(error.message).toBe(`The API did not answer within ${TIMEOUT_MS} ms (timeout)`);
			expect(String(error.description)).toContain('Not retried: the API may have carried out this POST before failing (timeout)');
		}
		// The API carries them out after the client gave up.
		await releaseAndWaitHandled(ctx.sandbox, hold);
		expect(CREATES.map(([label]) => calls(ctx.sandbox, CREATE_PATHS[label]).length)).toEqual([1, 1, 1]);
		expect(CREATES.map(([, , count], index) => count(ctx.sandbox, keys[index]))).toEqual([1, 1, 1]);
	});

	test('without a Timeout setting the default (30 s) applies, not a tiny one: a slow answer arrives', async () => {
		ctx.sandbox.addFault({ path: '/integration/list', kind: 'slow', delayMs: SLOW_MS });
		const out = await run(ctx.sandbox, { parameters: listIntegrations });
		expect(idsOf(out)).toEqual(integrationIds(ctx.sandbox));
		expect(calls(ctx.sandbox, '/integration/list')).toHaveLength(1);
	});
});

describe('answers that retrying would not change: one send, a clear error', () => {
	test.each([
		['GET', listIntegrations, '/integration/list'],
		['POST', createTag('NotJson'), '/tag/create'],
	] as const)('non-JSON body under 200 (%s)', async (method, parameters, path) => {
		ctx.sandbox.addFault({ path, kind: 'non-json', times: Infinity });
		const error = await runError(ctx.sandbox, { parameters });
		expect(error).toBeInstanceOf(NodeApiError);
		expect(error.message).toBe('The answer was a web page, not the API (HTTP 200): "502 Bad Gateway"');
		expect(String(error.description)).toContain('The answer was not JSON (text/html)');
		// No hint about the inputs: the answer was not a decision of the API about them.
		expect(String(error.description)).not.toMatch(/Check the (Name|values)/);
		expect(String(error.description)).toContain('Base URL');
		// A write answered by a page that is not the API's: whether it was done is unknown, said plainly.
		const unknown = 'The node cannot tell whether this POST was carried out (the answer is not the API\'s): check on the platform before running it again.';
		if (method === 'POST') expect(String(error.description)).toContain(unknown);
		else expect(String(error.description)).not.toContain('cannot tell');
		expect(calls(ctx.sandbox, path)).toHaveLength(1);
		expect(tagsNamed(ctx.sandbox, 'NotJson')).toBe(0);
	});

	test.each([
		['GET', listIntegrations, '/integration/list'],
		['POST', createTag('SuccessFalse'), '/tag/create'],
	] as const)('success:false under 200 (%s)', async (_method, parameters, path) => {
		ctx.sandbox.addFault({ path, kind: 'success-false', times: Infinity });
		const error = await runError(ctx.sandbox, { parameters });
		expect(error.message).toBe('The API answered that the request did not succeed (HTTP 200): Erro ao enviar mensagem');
		expect(error.message).toContain(': Erro ao enviar mensagem');
		expect(String(error.description)).toContain('"error sending message"');
		expect(calls(ctx.sandbox, path)).toHaveLength(1);
	});

	test('4xx: 409 on a duplicate tag name, 404 on an unknown ID, 400 on a GET: one send each', async () => {
		expect((await runError(ctx.sandbox, { parameters: createTag(DEMO.tags.vip.name) })).httpCode).toBe('409');
		expect(
			(await runError(ctx.sandbox, { parameters: { resource: 'integration', operation: 'delete', integrationId: 'c000000000000000000000000' } }))
				.httpCode,
		).toBe('404');
		expect(
			(await runError(ctx.sandbox, { parameters: { resource: 'template', operation: 'getAll', integrationId: WHATSAPP, returnAll: true } }))
				.httpCode,
		).toBe('400');
		expect(ctx.sandbox.requests).toHaveLength(3);
	});
});

describe('no HTTP answer at all', () => {
	test('connection refused (a closed port): nothing was sent, so a GET and a POST alike give up after 3 attempts', async () => {
		const port = await closedPort();
		const baseUrl = `http://127.0.0.1:${port}/v2`;
		// The attempts are counted where they happen: every TCP connection opened to that port and
		// refused (Node's diagnostics channel for client sockets), not read from the node's text.
		let refusedConnections = 0;
		const countRefused = ({ socket }: { socket: Socket }): void => {
			socket.once('error', (error: NodeJS.ErrnoException & { port?: number }) => {
				if (error.code === 'ECONNREFUSED' && error.port === port) refusedConnections++;
			});
		};
		diagnosticsChannel.subscribe('net.client.socket', countRefused as (message: unknown) => void);
		try {
			await expectRefusedThreeTimes(port, baseUrl, () => refusedConnections);
		} finally {
			diagnosticsChannel.unsubscribe('net.client.socket', countRefused as (message: unknown) => void);
		}
	});

	async function expectRefusedThreeTimes(port: number, baseUrl: string, connections: () => number): Promise<void> {
		const get = await runError(ctx.sandbox, { baseUrl, parameters: listUsers });
		expect(connections()).toBe(3);
		expect(get.message).toBe(`Could not reach the API at 127.0.0.1:${port} (ECONNREFUSED): nothing was sent`);
		expect(String(get.description)).toContain('GET /user/list never reached the API');
		expect(String(get.description)).toContain('Gave up after 3 attempts.');
		const post = await runError(ctx.sandbox, { baseUrl, parameters: createTag('Refused') });
		expect(connections()).toBe(6);
		expect(post.message).toBe(`Could not reach the API at 127.0.0.1:${port} (ECONNREFUSED): nothing was sent`);
		expect(String(post.description)).toContain('Gave up after 3 attempts.');
		expect(String(post.description)).not.toContain('may have carried out');
		expect(ctx.sandbox.requests).toHaveLength(0);
	}

	test('reset once on a GET: retried, the list is complete', async () => {
		ctx.sandbox.addFault({ path: '/integration/list', kind: 'reset' });
		const out = await run(ctx.sandbox, { parameters: listIntegrations });
		expect(idsOf(out)).toEqual(integrationIds(ctx.sandbox));
		expect(calls(ctx.sandbox, '/integration/list').map((r) => r.status)).toEqual([0, 200]);
	});

	test('reset every time on a GET: 3 sends, then the error', async () => {
		ctx.sandbox.addFault({ path: '/user/list', kind: 'reset', times: Infinity });
		const error = await runError(ctx.sandbox, { parameters: listUsers });
		expect(String(error.description)).toContain('GET /user/list got no HTTP answer (ECONNRESET)');
		expect(calls(ctx.sandbox, '/user/list')).toHaveLength(3);
	});

	test.each(CREATES)('reset on POST %s: one send, not retried, nothing created', async (label, parameters, count) => {
		const key = `rs-${randomUUID().slice(0, 8)}`;
		const path = CREATE_PATHS[label];
		ctx.sandbox.addFault({ path, kind: 'reset', times: Infinity });
		const error = await runError(ctx.sandbox, { parameters: parameters(key) });
		expect(String(error.description)).toContain('got no HTTP answer (ECONNRESET)');
		expect(String(error.description)).toContain('Not retried');
		expect(calls(ctx.sandbox, path)).toHaveLength(1);
		expect(count(ctx.sandbox, key)).toBe(0);
	});
});

describe('continueOnFail with good and faulty items: N in, N out, in order, paired', () => {
	/** Ten tag names; the sandbox faults the ones whose body contains the marker. */
	const names = ['A-ok', 'B-500', 'C-invalid', 'D-429', 'E-reset', 'F-slow', 'G-html', 'H-false', DEMO.tags.vip.name, 'J-ok'];
	const items: IDataObject[] = names.map((name) => ({ name: name === 'C-invalid' ? 'x'.repeat(256) : name }));
	const faults: Fault[] = [
		{ path: '/tag/create', match: 'B-500', kind: 'status', status: 500, times: Infinity },
		{ path: '/tag/create', match: 'D-429', kind: 'status', status: 429, retryAfterSeconds: 0 },
		{ path: '/tag/create', match: 'E-reset', kind: 'reset', times: Infinity },
		{ path: '/tag/create', match: 'G-html', kind: 'non-json', times: Infinity },
		{ path: '/tag/create', match: 'H-false', kind: 'success-false', times: Infinity },
	];
	const parameters = createTag('={{ $json.name }}');

	test('ten items (two good, one retried 429, one invalid, six failing): ten results in input order', async () => {
		faults.forEach((fault) => ctx.sandbox.addFault(fault));
		// F-slow gets no answer in time: held until the run is over.
		const slow = ctx.sandbox.hold({ path: '/tag/create', match: 'F-slow' });
		const out = await run(ctx.sandbox, { parameters, items, continueOnFail: true, timeoutMs: TIMEOUT_MS });
		expect(out).toHaveLength(10);
		expect(out.map((item) => item.pairedItem)).toEqual(names.map((_, index) => ({ item: index })));
		const summary = out.map((item) => (item.error ? String(item.json.error) : `ok ${String(item.json.name)}`));
		expect(summary).toEqual([
			'ok A-ok',
			'The API failed to process the request (HTTP 500): Erro ao enviar mensagem',
			'Invalid Name: must be 1-255 characters, got 256 characters [item 2]',
			'ok D-429',
			'The connection to the server was closed unexpectedly, perhaps it is offline. You can retry the request immediately or wait and retry later.',
			`The API did not answer within ${TIMEOUT_MS} ms (timeout)`,
			'The answer was a web page, not the API (HTTP 200): "502 Bad Gateway"',
			'The API answered that the request did not succeed (HTTP 200): Erro ao enviar mensagem',
			'The request conflicts with existing data (HTTP 409): Name: a tag named \"VIP\" already exists',
			'ok J-ok',
		]);
		expect(out[2].error).toBeInstanceOf(NodeOperationError);
		for (const index of [1, 4, 5, 6, 7, 8]) expect(out[index].error).toBeInstanceOf(NodeApiError);

		// Sends per item: the 429 retried once, nothing else sent twice, the invalid item never.
		await releaseAndWaitHandled(ctx.sandbox, slow);
		const sends = (name: string): number =>
			calls(ctx.sandbox, '/tag/create').filter((r) => (r.body as { name?: string })?.name === name).length;
		expect(names.map((name) => (name.startsWith('C-') ? sends('x'.repeat(256)) : sends(name)))).toEqual([1, 1, 0, 2, 1, 1, 1, 1, 1, 1]);
		// The state: the good ones and the retried one exist once; the timed-out POST was carried
		// out by the API (once); the failed ones do not exist; VIP is still unique.
		expect(names.map((name) => tagsNamed(ctx.sandbox, name))).toEqual([1, 0, 0, 1, 0, 1, 0, 0, 1, 1]);
	});

	test('without continueOnFail the run stops with the first failing item\'s error (item 1)', async () => {
		faults.forEach((fault) => ctx.sandbox.addFault(fault));
		const slow = ctx.sandbox.hold({ path: '/tag/create', match: 'F-slow' });
		const error = await runError(ctx.sandbox, { parameters, items, timeoutMs: TIMEOUT_MS });
		expect(error).toBeInstanceOf(NodeApiError);
		expect(error.message).toBe('The API failed to process the request (HTTP 500): Erro ao enviar mensagem');
		expect(itemIndexOf(error)).toBe(1);
		expect(String(error.description)).toContain('POST /tag/create answered HTTP 500');
		await releaseAndWaitHandled(ctx.sandbox, slow);
		const sends = calls(ctx.sandbox, '/tag/create').filter((r) => (r.body as { name?: string })?.name === 'B-500');
		expect(sends).toHaveLength(1);
		// n8n's RoutingNode starts every item at once: the items after the failing one were sent as
		// well. The node's output is discarded, not their effects (a known property of declarative
		// nodes; continueOnFail is the way to see every item's outcome).
		expect(tagsNamed(ctx.sandbox, 'J-ok')).toBe(1);
	});

	test('list items: a 429 mid-pagination, a 500 once, an invalid ID: every list complete, every element paired', async () => {
		const { big, vip, customer } = DEMO.tags;
		ctx.sandbox.addFault({ path: '/tag/list-contacts', match: big.id, kind: 'status', status: 429, retryAfterSeconds: 0, skip: 1 });
		ctx.sandbox.addFault({ path: '/tag/list-contacts', match: vip.id, kind: 'status', status: 500 });
		const out = await run(ctx.sandbox, {
			parameters: { resource: 'tag', operation: 'getContacts', tagId: '={{ $json.tag }}', returnAll: true },
			items: [{ tag: big.id }, { tag: vip.id }, { tag: 'not-an-id' }, { tag: customer.id }],
			continueOnFail: true,
		});
		const expected = (tagId: string): string[] => ctx.sandbox.state.tagMembers(tagId).map((member) => member.phoneNumber);
		const of = (index: number): string[] =>
			out.filter((item) => (item.pairedItem as { item: number }).item === index && !item.error).map((item) => String(item.json.phoneNumber));
		expect(of(0)).toEqual(expected(big.id));
		expect(of(1)).toEqual(expected(vip.id));
		expect(of(3)).toEqual(expected(customer.id));
		const errors = out.filter((item) => item.error);
		expect(errors).toHaveLength(1);
		expect(errors[0].pairedItem).toEqual({ item: 2 });
		// In input order: item 0's elements, then 1's, the error of 2, then 3's.
		expect(out.map((item) => (item.pairedItem as { item: number }).item)).toEqual([
			...expected(big.id).map(() => 0),
			...expected(vip.id).map(() => 1),
			2,
			...expected(customer.id).map(() => 3),
		]);
		expect(calls(ctx.sandbox, '/tag/list-contacts').filter((r) => r.query.tagId === big.id).map((r) => [r.query.offset, r.status])).toEqual([
			['0', 200],
			['100', 429],
			['100', 200],
		]);
	});
});

describe('pagination survives a 429 (or a 5xx) in the middle of Return All: nothing lost, nothing doubled', () => {
	const big = useSandbox({ seed: { contactsOnBigTag: 350, chats: 5500, messagesPerChat: 1, templates: 600 } });

	const noDuplicates = (values: string[]): void => expect(new Set(values).size).toBe(values.length);

	test('tag contacts (offset + total, pages 2-4 fetched at once): 429 on page 2', async () => {
		const { sandbox } = big;
		sandbox.addFault({ path: '/tag/list-contacts', query: { offset: '100' }, kind: 'status', status: 429, retryAfterSeconds: 0 });
		const out = await run(sandbox, { parameters: { resource: 'tag', operation: 'getContacts', tagId: DEMO.tags.big.id, returnAll: true } });
		const got = out.map((item) => String(item.json.phoneNumber));
		expect(got).toEqual(sandbox.state.tagMembers(DEMO.tags.big.id).map((member) => member.phoneNumber));
		expect(got).toHaveLength(350);
		noDuplicates(got);
		const sent = calls(sandbox, '/tag/list-contacts').map((r) => `${r.query.offset}:${r.status}`);
		expect(sent[0]).toBe('0:200');
		expect([...sent].sort()).toEqual(['0:200', '100:200', '100:429', '200:200', '300:200']);
		// The retry went out after the 429 (the same offset again).
		expect(sent.indexOf('100:200')).toBeGreaterThan(sent.indexOf('100:429'));
	});

	test('chats (offset, no total): 429 on page 2', async () => {
		const { sandbox } = big;
		sandbox.addFault({ path: '/inbox/find-all-chats', kind: 'status', status: 429, retryAfterSeconds: 0, skip: 1 });
		const out = await run(sandbox, { parameters: { resource: 'chat', operation: 'getAll', category: 'attendance', returnAll: true } });
		const got = out.map((item) => String(item.json.id));
		const expected = sandbox.state.chatsIn('attendance').map((chat) => chat.id);
		expect(expected.length).toBeGreaterThan(1000);
		expect(got).toEqual(expected);
		noDuplicates(got);
		expect(calls(sandbox, '/inbox/find-all-chats').map((r) => `${r.query.offset}:${r.status}`)).toEqual(['0:200', '1000:429', '1000:200']);
	});

	test('templates (cursor): 429 on page 2, 503 on page 3; the same cursor is sent again', async () => {
		const { sandbox } = big;
		sandbox.addFault({ path: '/provider-template/list', kind: 'status', status: 429, retryAfterSeconds: 0, skip: 1 });
		// Counted after the 429 fault took its request: page 1, the retried page 2, then page 3.
		sandbox.addFault({ path: '/provider-template/list', kind: 'status', status: 503, skip: 2 });
		const out = await run(sandbox, { parameters: { resource: 'template', operation: 'getAll', integrationId: OFFICIAL, returnAll: true } });
		const got = out.map((item) => String(item.json.id));
		expect(got).toEqual(sandbox.state.templates.get(OFFICIAL)!.list.map((template) => template.id));
		expect(got).toHaveLength(600);
		noDuplicates(got);
		const sent = calls(sandbox, '/provider-template/list');
		expect(sent.map((r) => r.status)).toEqual([200, 429, 200, 503, 200]);
		expect(sent[1].query.after).toBe(sent[2].query.after);
		expect(sent[3].query.after).toBe(sent[4].query.after);
		expect(sent[0].query.after).toBeUndefined();
	});
});

describe('inboxApiRequest (trigger activation, list searches) uses the same policy', () => {
	const credentials = (sandbox: Sandbox) => ({ baseUrl: sandbox.baseUrl, apiToken: sandbox.token });

	test('activation: a 429 on a registration is waited out and retried; one webhook per event, none doubled', async () => {
		const { sandbox } = ctx;
		sandbox.addFault({ path: '/integration/webhook/create', kind: 'status', status: 429, retryAfterSeconds: 0 });
		const instance = new TriggerInstance({
			parameters: triggerParameters({ events: ['MESSAGE_RECEIVED', 'MESSAGE_SENT'] }),
			credentials: credentials(sandbox),
			webhookBaseUrl: 'http://127.0.0.1:5678/webhook',
			webhookId: randomUUID(),
		});
		await instance.activate();
		const registered = webhooksFor(sandbox, instance.webhookUrl());
		expect(registered.map((webhook) => webhook.type).sort()).toEqual(['MESSAGE_RECEIVED', 'MESSAGE_SENT']);
		expect(calls(sandbox, '/integration/webhook/create').map((r) => r.status)).toEqual([429, 200, 200]);
	});

	test('activation: a 503 on a registration (a POST) is not retried; activation fails clearly', async () => {
		const { sandbox } = ctx;
		sandbox.addFault({ path: '/integration/webhook/create', kind: 'status', status: 503, times: Infinity });
		const instance = new TriggerInstance({
			parameters: triggerParameters(),
			credentials: credentials(sandbox),
			webhookBaseUrl: 'http://127.0.0.1:5678/webhook',
			webhookId: randomUUID(),
		});
		const error = (await instance.activate().then(
			() => undefined,
			(caught: unknown) => caught,
		)) as NodeApiError;
		expect(error).toBeInstanceOf(NodeApiError);
		// The refused event kind first (issue 43: named on every activation path), then the API's answer.
		expect(error.message).toBe('Registering the webhook for Message Received failed: The API failed to process the request (HTTP 503): Erro ao enviar mensagem');
		expect(error.description).toContain('Not retried');
		expect(calls(sandbox, '/integration/webhook/create')).toHaveLength(1);
		expect(webhooksFor(sandbox, instance.webhookUrl())).toHaveLength(0);
	});

	test('list search (GET /integration/list): a 503 and a 429 are retried', async () => {
		const { sandbox } = ctx;
		sandbox.addFault({ path: '/integration/list', kind: 'status', status: 503 });
		sandbox.addFault({ path: '/integration/list', kind: 'status', status: 429, retryAfterSeconds: 0 });
		const trigger = new ConversationInboxTrigger();
		const { workflow, node } = makeWorkflow(TRIGGER_TYPE, trigger, triggerParameters());
		const context = new LoadOptionsContext(workflow, node, makeAdditionalData(credentials(sandbox)), 'parameters.integrationId');
		const result = await trigger.methods.listSearch.searchIntegrations.call(context);
		expect(result.results.map((entry) => entry.value).sort()).toEqual(integrationIds(sandbox));
		expect(calls(sandbox, '/integration/list').map((r) => r.status)).toEqual([503, 429, 200]);
	});
});
