/* eslint-disable -- development tooling, not shipped: n8n's node rules (eslint.config.mjs, n8n-node lint) are for nodes/ and credentials/ */
/**
 * Never twice at real sizes and over real time (issue 35, Build 1): n8n-core's WorkflowExecute runs
 * Tag → Remove From Contact with Retry On Fail (3 tries) over many items, one refused on the first
 * try, and the sandbox counts what it receives per contact: every write the API accepted is received
 * exactly once, past the memory's answers bound (lowered here: SIZE_ANSWERS answers for SIZE_ITEMS
 * items, as the shipped 20 000 are for 100 000; `scripts/tools/never-twice-at-size.ts` runs the shipped
 * bounds), with two executions at once, and on a run longer than the memory's time bound (a fake
 * monotonic clock that moves a quarter of the bound with every request the sandbox receives).
 * The sandbox has no rate limit here: the case is the memory, not the pace.
 */
jest.mock('../../nodes/shared/retry', () => jest.requireActual('./fast-retry').fastRetryModule());
jest.mock('../../nodes/shared/clock', () => {
	const actual = jest.requireActual('../../nodes/shared/clock');
	return { ...actual, monotonicNow: () => actual.monotonicNow() + mockClock.offset() };
});

import type { IDataObject } from 'n8n-workflow';

import { forgetAllWrites, heldWrites, limits, SHIPPED_LIMITS } from '../../nodes/shared/writes';
import { DEMO } from '../sandbox';
import { useSandbox } from '../helpers/node-runner';
import { runWorkflow, type WorkflowResult } from '../helpers/workflow-runner';

/** The fake clock's lead over the monotonic clock (ms); tests that need it set `offset`. */
const mockClock = { offset: (): number => 0 };

const SIZE_ITEMS = Number(process.env.NEVER_TWICE_ITEMS ?? 2_000);
const SIZE_ANSWERS = Number(process.env.NEVER_TWICE_ANSWERS ?? 400);
const PATH = '/v2/tag/remove-from-contact';
/** n8n prepares every item of each try (1-20 ms an item on a loaded machine): room for the largest runs. */
const TIMEOUT_MS = Math.max(600_000, SIZE_ITEMS * 120);

const ctx = useSandbox();

const phoneOf = (index: number): string => `5599${String(index).padStart(9, '0')}`;

/** Contacts 0..count-1 of the tag VIP, for the writes to remove it. */
function seedContacts(from: number, count: number): void {
	for (let index = from; index < from + count; index++) {
		ctx.sandbox.state.addContact({
			phoneNumber: phoneOf(index),
			lid: null,
			name: `Contact ${index}`,
			params: {},
			tags: new Map([[DEMO.tags.vip.id, 0]]),
			customFields: new Map(),
			assignedTemplateIds: [],
			createdAt: new Date(0).toISOString(),
		});
	}
}

const itemsOf = (from: number, count: number) => Array.from({ length: count }, (_, index) => ({ phone: phoneOf(from + index) }));
const parameters = { resource: 'tag', operation: 'removeFromContact', phoneNumber: '={{ $json.phone }}', tagIds: [DEMO.tags.vip.id] };

/** How many removals the sandbox received per phone number. */
function receivedPerPhone(): Map<string, number> {
	const counts = new Map<string, number>();
	for (const request of ctx.sandbox.requests) {
		if (request.method !== 'POST' || request.path !== PATH) continue;
		const phone = (request.body as IDataObject).phoneNumber as string;
		counts.set(phone, (counts.get(phone) ?? 0) + 1);
	}
	return counts;
}

/** Every phone received once, but `refused`: twice (refused, then sent by the retry); a miss names the runs' errors. */
function expectEachOnce(from: number, count: number, refused: number, ...results: WorkflowResult[]): void {
	const counts = receivedPerPhone();
	const wrong: string[] = [];
	for (let index = from; index < from + count; index++) {
		const expected = index === refused ? 2 : 1;
		if (counts.get(phoneOf(index)) !== expected) wrong.push(`${phoneOf(index)}: ${counts.get(phoneOf(index)) ?? 0}`);
	}
	if (wrong.length > 0) {
		for (const { error } of results) if (error) wrong.push(`run error: ${error.message} ${(error as { description?: string }).description ?? ''}`);
	}
	expect(wrong).toEqual([]);
}

/** The retried run succeeded: one item per input item, each removal done (some only as a fact). */
function expectDone(result: WorkflowResult, count: number): void {
	expect(result.error).toBeUndefined();
	const [regular] = result.outputs;
	expect(regular).toHaveLength(count);
	const forgotten = regular.filter((item) => /answer is no longer held in memory/.test(String(item.json.note)));
	const answered = regular.filter((item) => Array.isArray(item.json.removedTags));
	expect(forgotten.length + answered.length).toBe(count);
}

const retry = { onError: 'stopWorkflow' as const, retryOnFail: true, maxTries: 3, waitBetweenTries: 10 };
let executions = 0;
const executionId = (): string => `at-size-${++executions}`;

beforeEach(() => {
	forgetAllWrites();
	limits.maxAnswers = SIZE_ANSWERS;
	mockClock.offset = () => 0;
});
afterAll(() => {
	Object.assign(limits, SHIPPED_LIMITS);
	forgetAllWrites();
});

test(`Retry On Fail over ${SIZE_ITEMS} items, past the ${SIZE_ANSWERS} answers held, one refused: each accepted write received once`, async () => {
	seedContacts(0, SIZE_ITEMS);
	const refused = SIZE_ITEMS - 2;
	ctx.sandbox.addFault({ kind: 'status', status: 400, method: 'POST', path: '/tag/remove-from-contact', match: phoneOf(refused), times: 1 });
	const result = await runWorkflow(ctx.sandbox, { parameters, items: itemsOf(0, SIZE_ITEMS), executionId: executionId(), ...retry });
	expectEachOnce(0, SIZE_ITEMS, refused, result);
	expectDone(result, SIZE_ITEMS);
	const held = heldWrites();
	expect(held.facts).toBe(SIZE_ITEMS);
	expect(held.answers).toBe(SIZE_ANSWERS);
}, TIMEOUT_MS);

test(`two executions at once (${Math.round(SIZE_ITEMS * 0.48)} + ${Math.round(SIZE_ITEMS * 0.4)} items), the smaller retried: neither evicts the other's writes`, async () => {
	const big = Math.round(SIZE_ITEMS * 0.48);
	const small = Math.round(SIZE_ITEMS * 0.4);
	seedContacts(0, big + small);
	const refused = big + small - 1;
	ctx.sandbox.addFault({ kind: 'status', status: 400, method: 'POST', path: '/tag/remove-from-contact', match: phoneOf(refused), times: 1 });
	const [first, second] = await Promise.all([
		runWorkflow(ctx.sandbox, { parameters, items: itemsOf(0, big), executionId: executionId(), ...retry }),
		runWorkflow(ctx.sandbox, { parameters, items: itemsOf(big, small), executionId: executionId(), ...retry }),
	]);
	expectEachOnce(0, big + small, refused, first, second);
	expectDone(first, big);
	expectDone(second, small);
}, TIMEOUT_MS);

test('a run longer than the memory\'s time bound (fake clock: a quarter of it per request received), one refused: each accepted write received once', async () => {
	const count = 400;
	seedContacts(0, count);
	// The run lasts about 100 bounds; its idle gap is never more than a quarter of one.
	mockClock.offset = () => ctx.sandbox.requests.length * (SHIPPED_LIMITS.runIdleMs / 4);
	const refused = count - 1;
	ctx.sandbox.addFault({ kind: 'status', status: 400, method: 'POST', path: '/tag/remove-from-contact', match: phoneOf(refused), times: 1 });
	const result = await runWorkflow(ctx.sandbox, { parameters, items: itemsOf(0, count), executionId: executionId(), ...retry });
	expectEachOnce(0, count, refused, result);
	expectDone(result, count);
}, TIMEOUT_MS);

test('an idle run is released when its time is up, without another write (issue 42, Build 8): the idle bound lowered to 300 ms', async () => {
	seedContacts(0, 3);
	limits.runIdleMs = 300;
	const result = await runWorkflow(ctx.sandbox, { parameters, items: itemsOf(0, 3), executionId: executionId(), ...retry });
	expect(result.error).toBeUndefined();
	expect(heldWrites()).toMatchObject({ runs: 1, facts: 3 });
	// No write after this: the memory's own wake-up releases the run (a bounded wait for it, not a sleep).
	for (const deadline = Date.now() + 10_000; heldWrites().runs > 0; ) {
		if (Date.now() > deadline) throw new Error(`still held: ${JSON.stringify(heldWrites())}`);
		await new Promise((resolve) => setTimeout(resolve, 20));
	}
	expect(heldWrites()).toMatchObject({ runs: 0, facts: 0, answers: 0 });
});
