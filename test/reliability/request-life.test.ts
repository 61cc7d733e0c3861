/* eslint-disable -- development tooling, not shipped: n8n's node rules (eslint.config.mjs, n8n-node lint) are for nodes/ and credentials/
 * @jest-environment ./test/helpers/real-process-environment.ts
 */
/**
 * One request, one owner (issue 42; DESIGN.md "Never twice", decided 2026-11-27): the rows of the
 * issue's table that live on the request path, each through n8n-core's real engine (WorkflowExecute
 * where n8n's Retry On Fail matters, RoutingNode otherwise) against the sandbox over real HTTP.
 * What is asserted is counted by the sandbox (requests received, open at once, their answers) or is
 * the node's output; the order of events is arranged with the sandbox's holds, never read from the
 * clock. Only the exponential backoff is shortened (fast-retry.ts).
 */
jest.mock('../../nodes/shared/retry', () => jest.requireActual('./fast-retry').fastRetryModule());

import { LoadOptionsContext } from 'n8n-core';
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { ConversationInboxTrigger } from '../../nodes/ConversationInboxTrigger/ConversationInboxTrigger.node';
import { inboxApiRequest, mayHaveBeenDone } from '../../nodes/shared/transport';
import { makeAdditionalData, makeWorkflow } from '../helpers/n8n-harness';
import { TRIGGER_TYPE } from '../helpers/trigger-harness';
import { triggerParameters } from '../trigger/setup';
import { VALID } from './operations';

import { PACE } from '../../nodes/shared/pace';
import { forgetAllWrites, heldWrites } from '../../nodes/shared/writes';
import { useSandbox } from '../helpers/node-runner';
import { runWorkflow } from '../helpers/workflow-runner';
import type { RecordedRequest, Sandbox } from '../sandbox';
import { DEMO, startSandbox } from '../sandbox';
import { itemsFor, membersOf, paceOfSandbox as pace, reached, removalsOf, removeBigTag, BIG_TAG_CONTACTS } from './bulk';
import { run } from './helpers';

/** A second credential's token on the same API (its own pace, its own rate-limit bucket). */
const SECOND_TOKEN = 'request-life-second-token';
const ctx = useSandbox({ seed: { contactsOnBigTag: BIG_TAG_CONTACTS }, otherTokens: [SECOND_TOKEN] });

let executions = 0;
const executionId = (): string => `request-life-${++executions}-${Date.now()}`;

const BOT_PATH = '/v2/automation/integration-bot/create';
const VALIDATE_PATH = '/v2/integration/validate-chat-phone-number';
const callsTo = (path: string): RecordedRequest[] => ctx.sandbox.requests.filter((request) => request.path === path);
const botsNamed = (name: string): number => [...ctx.sandbox.state.bots.values()].filter((bot) => bot.name === name).length;

/**
 * The process's unhandled rejections, collected instead of failing the test (jest's own listener is
 * set aside meanwhile and put back by `restore`): for the one case where n8n's RoutingNode leaves an
 * item's promise unawaited. `realProcess` is the worker's process (real-process-environment.ts).
 */
function takeOverUnhandledRejections(): { reasons: unknown[]; restore(): void } {
	const { realProcess } = globalThis as unknown as { realProcess: NodeJS.Process };
	const saved = realProcess.listeners('unhandledRejection');
	realProcess.removeAllListeners('unhandledRejection');
	const reasons: unknown[] = [];
	const collect = (reason: unknown): void => void reasons.push(reason);
	realProcess.on('unhandledRejection', collect);
	return {
		reasons,
		restore: () => {
			realProcess.off('unhandledRejection', collect);
			for (const listener of saved) realProcess.on('unhandledRejection', listener as (reason: unknown) => void);
		},
	};
}

/** Nothing of the node is on the wire or waiting at the sandbox's API any more. */
const paceIdle = (): boolean => pace(ctx.sandbox).inFlight === 0 && pace(ctx.sandbox).waiting === 0;

describe('overlapping tries share one outcome (Build 2; row 1)', () => {
	/**
	 * Item 1's Name refers to a node the workflow does not have: n8n's RoutingNode throws while it
	 * prepares item 1, after item 0's write has left and before it awaits it. Retry On Fail starts
	 * the next try at once (after its wait), whose item 0 finds the first try's write on the wire and
	 * waits for it, and so does the third. The sandbox holds that write until all three tries have
	 * failed, then refuses it (429 with Retry-After: 120, beyond the 60 s the node waits): not done,
	 * so ONE send follows, not one per try that waited.
	 *
	 * RoutingNode never awaits the first try's item 0 (it threw before): that promise's rejection (the
	 * 429) is unhandled, in n8n as here. It is collected, and must be that 429 and nothing else.
	 */
	test.each([
		['10 ms', 10],
		["n8n's default 1 s", 1000],
	])('Retry On Fail (3 tries, %s between them), item 1 failing in preparation, item 0 refused after all tries ended: one more send, one bot created', async (_label, waitBetweenTries) => {
		const { sandbox } = ctx;
		const name = `Overlap bot ${waitBetweenTries}`;
		const unhandled = takeOverUnhandledRejections();
		const held = sandbox.hold({ path: BOT_PATH });
		sandbox.addFault({ path: BOT_PATH, kind: 'status', status: 429, retryAfterSeconds: 120, times: 1 });
		const parameters: INodeParameters = {
			resource: 'botIntegration',
			operation: 'create',
			name: "={{ $json.name ?? $('A node this workflow does not have').item.json.name }}",
			url: 'https://bots.example.com/api/v1/bots/overlap',
		};
		try {
			const result = await runWorkflow(sandbox, {
				parameters,
				items: [{ name }, {}],
				onError: 'stopWorkflow',
				retryOnFail: true,
				maxTries: 3,
				waitBetweenTries,
				executionId: executionId(),
			});
			// Every try failed on item 1, while item 0's first send was held at the sandbox (on a busy
			// machine it can reach the sandbox after n8n gave up the tries: it is on the wire either way).
			expect(result.error?.message).toMatch(/A node this workflow does not have|Referenced node/);
			await reached(() => held.held.length >= 1, 20_000);
			expect(held.held.map((request) => (request.body as { name?: string }).name)).toEqual([name]);
		} finally {
			held.release();
		}
		try {
			// The refusal reaches the first try's write; what follows is counted once the node is idle.
			await reached(() => callsTo(BOT_PATH).length >= 2 && callsTo(BOT_PATH).every((r) => r.status !== 0) && paceIdle() && unhandled.reasons.length > 0, 20_000);
			expect(callsTo(BOT_PATH).map((r) => r.status)).toEqual([429, 200]);
			expect(botsNamed(name)).toBe(1);
			expect(unhandled.reasons.map((reason) => String((reason as Error).message))).toEqual(['The API is receiving too many requests (HTTP 429): Too many requests, retry later']);
		} finally {
			unhandled.restore();
		}
	}, 30_000);
});

describe('a timed-out request is closed, and holds its slot until it is (Build 3; row 6)', () => {
	/**
	 * 40 removals with a Timeout of 500 ms against an API that answers each after 4 s: each times out.
	 * The API never sees more requests open at once than the node's cap (10 in flight at first;
	 * timeouts are no pace signal, so it stays 10), counted at the sandbox, from arrival to the
	 * connection's end.
	 */
	test(`Timeout 500 ms, the API answering after 4 s: never more than ${PACE.initialInFlight} requests open at the sandbox; every item names the timeout`, async () => {
		const { sandbox } = ctx;
		const phones = membersOf(sandbox).slice(0, 40);
		sandbox.addFault({ path: '/tag/remove-from-contact', kind: 'slow', delayMs: 4000, times: Infinity });
		const out = await run(sandbox, { parameters: removeBigTag, items: itemsFor(phones), continueOnFail: true, timeoutMs: 500 });
		expect(out).toHaveLength(40);
		for (const item of out) expect(String(item.json.error)).toBe('The API did not answer within 500 ms (timeout)');
		expect(removalsOf(sandbox)).toHaveLength(40);
		expect(sandbox.maxInFlight).toBeLessThanOrEqual(PACE.initialInFlight);
	}, 30_000);
});

describe('a timed-out request is closed at its Timeout (Build 3)', () => {
	test('12 removals the API never answers (held), Timeout 500 ms: each closed by the node while held, then the next sent; never more than 10 open', async () => {
		const { sandbox } = ctx;
		const phones = membersOf(sandbox).slice(0, 12);
		const held = sandbox.hold({ path: '/tag/remove-from-contact' });
		try {
			const out = await run(sandbox, { parameters: removeBigTag, items: itemsFor(phones), continueOnFail: true, timeoutMs: 500 });
			for (const item of out) expect(String(item.json.error)).toBe('The API did not answer within 500 ms (timeout)');
			expect(held.held).toHaveLength(12);
			// Closed by the node, no answer ever written; the 11th and 12th sent only after a close.
			await sandbox.waitForRequests(() => held.held.every((request) => request.answeredSeq !== undefined), 5_000);
			expect(held.held.map((request) => request.status)).toEqual(Array(12).fill(0));
			const firstClose = Math.min(...held.held.slice(0, 10).map((request) => request.answeredSeq as number));
			for (const later of held.held.slice(10)) expect(later.seq).toBeGreaterThan(firstClose);
			expect(sandbox.maxInFlight).toBeLessThanOrEqual(PACE.initialInFlight);
		} finally {
			held.release();
		}
	}, 30_000);
});

describe('retries follow what the operation does: Validate Phone Number only asks (Build 5; row 8)', () => {
	const validate: INodeParameters = { resource: 'integration', operation: 'validatePhoneNumber', integrationId: DEMO.integrations.whatsapp.id, phoneNumber: DEMO.contacts.alice.phoneNumber };

	beforeEach(() => forgetAllWrites());

	test('answered 502 once, under Retry On Fail: asked again like a read, answered; no write memory', async () => {
		ctx.sandbox.addFault({ path: VALIDATE_PATH, kind: 'status', status: 502, times: 1 });
		const result = await runWorkflow(ctx.sandbox, { parameters: validate, items: [{}], onError: 'continueRegularOutput', retryOnFail: true, maxTries: 3, waitBetweenTries: 10, executionId: executionId() });
		expect(result.error).toBeUndefined();
		const [regular] = result.outputs;
		expect(regular).toHaveLength(1);
		expect(regular[0].json.error).toBeUndefined();
		expect(regular[0].json.exists).toBe(true);
		expect(callsTo(VALIDATE_PATH).map((r) => r.status)).toEqual([502, 200]);
		expect(heldWrites().facts).toBe(0);
	});

	test("answered 502 every time, under Retry On Fail (3 tries): each try asks 3 times; the error is the API's 502, never 'Not sent again'", async () => {
		ctx.sandbox.addFault({ path: VALIDATE_PATH, kind: 'status', status: 502, times: Infinity });
		const result = await runWorkflow(ctx.sandbox, { parameters: validate, items: [{}], onError: 'stopWorkflow', retryOnFail: true, maxTries: 3, waitBetweenTries: 10, executionId: executionId() });
		expect(result.error?.message).toMatch(/HTTP 502/);
		expect(result.error?.message).not.toMatch(/Not sent again/);
		expect(String((result.error as { description?: unknown }).description)).toContain('Gave up after 3 attempts.');
		expect(callsTo(VALIDATE_PATH)).toHaveLength(9);
		expect(heldWrites().facts).toBe(0);
	});
});

describe('every Retry-After is read or ignored, never a crash (Build 6; row 9)', () => {
	/** The answer to each removal: 429 with this Retry-After the first time it arrives, then the API's own. */
	function refuseOnceWith(retryAfter: string): void {
		const seen = new Set<string>();
		ctx.sandbox.answerWith = (request) => {
			if (request.path !== '/v2/tag/remove-from-contact') return undefined;
			const phone = String((request.body as IDataObject).phoneNumber);
			if (seen.has(phone)) return undefined;
			seen.add(phone);
			return { answer: { status: 429, retryAfter } };
		};
	}

	test('Retry-After: 9999999999999 (317 million years) on 5 items: each fails at once naming the HTTP 429 and the wait, not "Invalid time value"', async () => {
		const phones = membersOf(ctx.sandbox).slice(0, 5);
		refuseOnceWith('9999999999999');
		const out = await run(ctx.sandbox, { parameters: removeBigTag, items: itemsFor(phones), continueOnFail: true });
		expect(out).toHaveLength(5);
		for (const item of out) {
			const text = `${String(item.json.error)} ${String(item.json.description ?? item.error?.description)}`;
			expect(text).not.toMatch(/Invalid time value/);
			expect(text).toMatch(/HTTP 429|Retry-After: 9999999999999 s/);
			expect(text).toContain('9999999999999 s');
		}
		// Sent once each, refused; nothing sent again.
		expect(removalsOf(ctx.sandbox).map((r) => r.status)).toEqual([429, 429, 429, 429, 429]);
	});

	test.each([
		['negative', '-1'],
		['fractional', '0.5'],
		['not a number', 'soon'],
		['a date in the past', 'Wed, 21 Oct 2015 07:28:00 GMT'],
		['a date beyond what JavaScript can hold', 'Sat, 13 Sep 275760 00:00:01 GMT'],
		['a number beyond every date', '99999999999999999999999'],
		['an exponent', '1e3'],
	])('Retry-After %s (%s) on one item: read or ignored; the item ends (done or naming the 429), never a crash', async (_label, retryAfter) => {
		const [phone] = membersOf(ctx.sandbox);
		refuseOnceWith(retryAfter);
		const out = await run(ctx.sandbox, { parameters: removeBigTag, items: itemsFor([phone]), continueOnFail: true });
		expect(out).toHaveLength(1);
		const text = `${String(out[0].json.error ?? '')} ${String(out[0].json.description ?? out[0].error?.description ?? '')}`;
		expect(text).not.toMatch(/Invalid time value|Invalid Date|NaN/);
		if (out[0].json.error === undefined) expect(removalsOf(ctx.sandbox).map((r) => r.status)).toEqual([429, 200]);
		else expect(text).toMatch(/HTTP 429/);
	});
});

/**
 * What the trigger learns of a registration that failed (issue 42, Build 1's part on the request
 * path): `mayHaveBeenDone(error)` is true when the API may have carried the write out (sent, then a
 * 5xx, a lost connection after it was read, a page not the API's), false for a refusal, for what
 * never left, and for a request that only asks. Called as the trigger calls it: inboxApiRequest in
 * a context of n8n-core (here the pickers' LoadOptionsContext), and for the action node's items.
 */
describe('mayHaveBeenDone: a failed registration the platform may have made', () => {
	const WEBHOOK_PATH = '/integration/webhook/create';
	const register = async (): Promise<unknown> => {
		const trigger = new ConversationInboxTrigger();
		const { workflow, node } = makeWorkflow(TRIGGER_TYPE, trigger, triggerParameters());
		const context = new LoadOptionsContext(workflow, node, makeAdditionalData({ baseUrl: ctx.sandbox.baseUrl, apiToken: ctx.sandbox.token }), 'parameters.integrationId');
		return await inboxApiRequest
			.call(context, { method: 'POST', path: WEBHOOK_PATH, body: { integrationId: DEMO.integrations.whatsapp.id, url: 'https://example.com/hook', method: 'POST', type: 'MESSAGE_RECEIVED', headers: [], delayMinutes: 0, transferType: 'ALL' } })
			.then(
				() => undefined,
				(error: unknown) => error,
			);
	};

	test.each([
		['answered 502', true, { kind: 'status', status: 502 } as const],
		['read, then the connection dropped', true, { kind: 'reset-after' } as const],
		['answered 400', false, { kind: 'status', status: 400 } as const],
		['answered 429 with Retry-After: 120 (not retried)', false, { kind: 'status', status: 429, retryAfterSeconds: 120 } as const],
		['answered success: false', false, { kind: 'success-false' } as const],
	])('a registration %s: may have been made %s', async (_label, possibly, fault) => {
		ctx.sandbox.addFault({ path: WEBHOOK_PATH, times: Infinity, ...fault });
		const error = await register();
		expect(error).toBeInstanceOf(Error);
		expect(mayHaveBeenDone(error)).toBe(possibly);
	});

	test('a GET answered 502 every time: not a write, never "may have been done"; an error that is no object neither', async () => {
		ctx.sandbox.addFault({ path: '/integration/list', kind: 'status', status: 502, times: Infinity });
		const out = await run(ctx.sandbox, { parameters: { resource: 'integration', operation: 'getAll', returnAll: true }, continueOnFail: true });
		expect(out[0].error).toBeInstanceOf(Error);
		expect(mayHaveBeenDone(out[0].error)).toBe(false);
		expect(mayHaveBeenDone(undefined)).toBe(false);
		expect(mayHaveBeenDone('HTTP 502')).toBe(false);
	});

	test("the action node's write answered 502: its error item may have been done; a retry's \"Not sent again\" too", async () => {
		forgetAllWrites();
		ctx.sandbox.addFault({ path: BOT_PATH, kind: 'status', status: 502, times: Infinity });
		const result = await runWorkflow(ctx.sandbox, { parameters: VALID.botCreate, items: [{}], onError: 'continueRegularOutput', retryOnFail: true, maxTries: 2, waitBetweenTries: 10, executionId: executionId() });
		const [regular] = result.outputs;
		expect(String(regular[0].json.error)).toMatch(/Not sent again/);
		expect(mayHaveBeenDone(regular[0].error)).toBe(true);
		const first = await run(ctx.sandbox, { parameters: VALID.botCreate, continueOnFail: true });
		expect(mayHaveBeenDone(first[0].error)).toBe(true);
	});
});

describe('each API and each token has its own pace (the limiter named by what transport.ts passes)', () => {
	/**
	 * 12 user lists held at the API with one token: the node's 10 in flight are all taken, 2 wait.
	 * A list of integrations sent meanwhile with another token, or to another API, is its own
	 * credential's: it reaches its API and is answered while the first 10 are still held. (One
	 * limiter for all, or for every token of an API, would queue it behind the held ones.)
	 */
	let other: Sandbox;
	beforeAll(async () => {
		other = await startSandbox({ quiet: true });
	});
	afterAll(async () => {
		await other.close();
	});

	test.each([
		['another token on the same API', () => ({ sandbox: ctx.sandbox, apiToken: SECOND_TOKEN })],
		['another API', () => ({ sandbox: other, apiToken: other.token })],
	])('%s: not queued behind the 10 held requests', async (_label, second) => {
		const held = ctx.sandbox.hold({ path: '/v2/user/list' });
		const first = run(ctx.sandbox, { parameters: VALID.userList, items: Array.from({ length: 12 }, () => ({})), continueOnFail: true, mode: 'trigger' });
		try {
			await held.waitFor(PACE.initialInFlight);
			const { sandbox, apiToken } = second();
			const out = await run(sandbox, { parameters: VALID.integrationList, apiToken, baseUrl: sandbox.baseUrl, mode: 'trigger' });
			expect(out.length).toBeGreaterThan(0);
			// Answered while the first token's 10 were held, and its 2 others still waited at the node.
			expect(held.held).toHaveLength(PACE.initialInFlight);
		} finally {
			held.release();
			await first;
		}
	}, 30_000);
});
