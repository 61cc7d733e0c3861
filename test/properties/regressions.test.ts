/**
 * Worlds kept as plain tests: the rows of issue 29's table as worlds (world.ts), and the worlds the
 * property test (writes.test.ts) found and shrank. Each is played through n8n-core's WorkflowExecute
 * against the sandbox (play.ts); every invariant (invariants.ts) must hold, and what the issue
 * names is asserted as its literal: receipts counted at the sandbox, statuses and texts.
 */
jest.mock('../../nodes/shared/retry', () => jest.requireActual('../reliability/fast-retry').fastRetryModule());

import { useSandbox } from '../helpers/node-runner';
import { SCRIPTED_TEXT } from '../sandbox';
import { violations } from './invariants';
import { itemName, nameOf, play, type Observation } from './play';
import type { ExecutionPlan, Step, World } from './world';

const env = useSandbox();

const RETRY_3: ExecutionPlan['settings'] = { retryOnFail: true, maxTries: 3, waitBetweenTries: 1, onError: 'stopWorkflow' };

/** How many times the API received each item's write, in item order. */
const receiptsOf = (observed: Observation, execution: number, items: number): number[] =>
	Array.from({ length: items }, (_, item) => observed.received.filter((request) => nameOf(request) === itemName(execution, item)).length);

const refuse = (status: number, more: Partial<Extract<Step, { kind: 'refuse' }>> = {}): Step => ({ kind: 'refuse', status, body: 'json', latencyMs: 0, ...more });

async function played(world: World): Promise<Observation> {
	const observed = await play(env.sandbox, world);
	expect(violations(world, observed)).toEqual([]);
	return observed;
}

describe('issue 29, row 1: Retry On Fail (3 tries) on Tag → Create, 5 items, the first answered 502 (n8n retries a continuing node only when its first item failed)', () => {
	test.each(['stopWorkflow', 'continueRegularOutput', 'continueErrorOutput'] as const)('On Error %s: each of the 4 accepted tags is received once', async (onError) => {
		const world: World = {
			executions: [{ items: 5, settings: { ...RETRY_3, onError } }],
			scripts: [{ execution: 0, item: 0, steps: [refuse(502), refuse(502), refuse(502)] }],
			latencyMs: 0,
		};
		const observed = await played(world);
		expect(receiptsOf(observed, 0, 5).slice(1)).toEqual([1, 1, 1, 1]);
	});
});

describe('issue 29: a 2xx to a write is done', () => {
	test('a 204 to Tag → Create: the item says the write was done (HTTP 204), never "may have"', async () => {
		const world: World = {
			executions: [{ items: 2, settings: { ...RETRY_3, onError: 'continueRegularOutput' } }],
			scripts: [{ execution: 0, item: 1, steps: [{ kind: 'done', status: 204, body: 'empty', latencyMs: 0 }] }],
			latencyMs: 0,
		};
		const observed = await played(world);
		const [, second] = observed.executions[0].items;
		expect(JSON.stringify(second.json)).toContain('HTTP 204');
		expect(JSON.stringify(second.json)).not.toMatch(/may have/i);
		expect(receiptsOf(observed, 0, 2)).toEqual([1, 1]);
	});
});

describe('issue 29: answers that are not JSON', () => {
	test('a 400 with text/plain: its text is the message', async () => {
		const world: World = {
			executions: [{ items: 1, settings: { ...RETRY_3, retryOnFail: false, onError: 'continueRegularOutput' } }],
			scripts: [{ execution: 0, item: 0, steps: [refuse(400, { body: 'text' })] }],
			latencyMs: 0,
		};
		const observed = await played(world);
		expect(JSON.stringify(observed.executions[0].items[0].json)).toContain(SCRIPTED_TEXT.text);
	});
});

describe('issue 29: never stuck', () => {
	test('Retry-After: 86400 on every answer, 40 items: every item fails at once, the sent ones naming the 429, the others unsent as the quota is spent (issue 35: at most 11 sent)', async () => {
		const world: World = {
			executions: [{ items: 40, settings: { ...RETRY_3, retryOnFail: false, onError: 'continueRegularOutput' } }],
			scripts: Array.from({ length: 40 }, (_, item) => ({ execution: 0, item, steps: [refuse(429, { retryAfter: '86400' })] })),
			latencyMs: 0,
		};
		const observed = await played(world);
		const receipts = receiptsOf(observed, 0, 40);
		const items = observed.executions[0].items;
		expect(items).toHaveLength(40);
		for (const entry of items) {
			const text = JSON.stringify(entry.json);
			expect(entry.failed).toBe(true);
			if (receipts[entry.item] === 1) expect(text).toContain('HTTP 429');
			else expect(text).toMatch(/The API asked to wait 86400 s \(until .* UTC\) and accepted nothing since: not sent/);
		}
		expect(receipts.every((count) => count <= 1)).toBe(true);
		expect(receipts.reduce((sum, count) => sum + count, 0)).toBeLessThanOrEqual(11);
	});

	test('one item refused with Retry-After: 60 while the API accepts the 49 others: all 49 are received before the cancel that ends the wait', async () => {
		const world: World = {
			// The cancel comes with the 50th write: item 0's refusal and the 49 others.
			executions: [{ items: 50, settings: { ...RETRY_3, retryOnFail: false, onError: 'continueRegularOutput' }, cancelAfter: 50 }],
			scripts: [{ execution: 0, item: 0, steps: [refuse(429, { retryAfter: '60' })] }],
			latencyMs: 0,
		};
		const observed = await played(world);
		expect(receiptsOf(observed, 0, 50)).toEqual(Array.from({ length: 50 }, () => 1));
		expect(observed.executions[0].status).toBe('canceled');
	});

	test('the wall clock stepped back 1 h during a 1 s hold: the run ends within its bound', async () => {
		const world: World = {
			executions: [{ items: 3, settings: { ...RETRY_3, retryOnFail: false, onError: 'continueRegularOutput' } }],
			scripts: [{ execution: 0, item: 0, steps: [refuse(429, { retryAfter: '1' })] }],
			latencyMs: 0,
			clockStep: { afterRequests: 2, deltaMs: -3_600_000 },
		};
		const observed = await played(world);
		expect(receiptsOf(observed, 0, 3)).toEqual([2, 1, 1]);
	});

	test('a cancel while 300 sends wait out a Retry-After: no uncaught error, the run ends, nothing sent again, nothing left', async () => {
		// Every first answer is a 429 with Retry-After: 30, so the API refuses them all and the sends
		// wait (the refused ones on their Retry-After, the others in the queue); the cancel comes with
		// the 5th write.
		const world: World = {
			executions: [{ items: 300, settings: { ...RETRY_3, retryOnFail: false, onError: 'continueRegularOutput' }, cancelAfter: 5 }],
			scripts: Array.from({ length: 300 }, (_, item) => ({ execution: 0, item, steps: [refuse(429, { retryAfter: '30' })] })),
			latencyMs: 0,
		};
		const observed = await played(world);
		expect(observed.executions[0].status).toBe('canceled');
		// No refused send is sent again: each waited out its Retry-After until the cancel ended it.
		expect(Math.max(...receiptsOf(observed, 0, 300))).toBe(1);
		expect(observed.timersLeft).toBe(0);
	}, 90_000);
});

describe('found by the property test (writes.test.ts, seed 292026, shrunk)', () => {
	test('the wall clock stepped forward 1 h after a write was accepted: Retry On Fail does not send it again', async () => {
		// The memory of done writes expired on the wall clock: one step forward, and the accepted
		// write of the second execution's item 1 was received again when n8n retried the node.
		const world: World = {
			executions: [
				{ items: 1, settings: { retryOnFail: false, maxTries: 2, waitBetweenTries: 1, onError: 'stopWorkflow' } },
				{ items: 2, settings: { retryOnFail: true, maxTries: 2, waitBetweenTries: 1, onError: 'stopWorkflow' } },
			],
			scripts: [{ execution: 1, item: 0, steps: [refuse(400)] }],
			latencyMs: 0,
			clockStep: { afterRequests: 1, deltaMs: 3_600_000 },
		};
		const observed = await played(world);
		expect(receiptsOf(observed, 1, 2)).toEqual([2, 1]);
	});
});
