/**
 * Issue 35, Build 4: "A spent quota stops the sending" (DESIGN.md "The API's pace", decided
 * 2026-11-26), through n8n-core's real RoutingNode and WorkflowExecute against the sandbox over
 * real HTTP. What is asserted is counted by the sandbox (requests received, their answers) or is the
 * node's output; the order of events is arranged with the sandbox's holds and faults, never read
 * from the clock. Only the exponential backoff is shortened (fast-retry.ts); Retry-After is real.
 * The figures are pace.ts's documented literals: 10 requests in flight at first, one more per
 * accepted answer; a quota in doubt sends one probe; spent, one probe a minute.
 */
jest.mock('../../nodes/shared/retry', () => jest.requireActual('./fast-retry').fastRetryModule());

import type { INodeExecutionData } from 'n8n-workflow';

import { useSandbox } from '../helpers/node-runner';
import { runWorkflow } from '../helpers/workflow-runner';
import type { RecordedRequest } from '../sandbox';
import { BIG_TAG_CONTACTS, itemsFor, membersOf, paceOfSandbox as pace, phoneOf, reached, removalsOf, removeBigTag } from './bulk';
import { run, runError } from './helpers';

const ctx = useSandbox({ seed: { contactsOnBigTag: BIG_TAG_CONTACTS } });

const members = (): string[] => membersOf(ctx.sandbox);
const removals = (): RecordedRequest[] => removalsOf(ctx.sandbox);

/** The 10 requests in flight at first and the one probe sent once the first refusal came. */
const A_HANDFUL = 11;

const DAY_S = 86_400;
const SENT_AND_REFUSED = 'The API is receiving too many requests (HTTP 429): Too many requests, retry later';
const NOT_SENT = /^The API asked to wait 86400 s \(until (\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}) UTC\) and accepted nothing since: not sent$/;
const TRY_AGAIN = /Try again after (\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}) UTC\./;

/**
 * Each item failed naming the API's wait and the clock time to try again: the day the API asked
 * for from one of its refusals (to the second, UTC). Returns how many were sent (the 429 error) and
 * how many were failed unsent.
 */
function expectEachNamesTheWait(out: INodeExecutionData[]): { sent: number; unsent: number } {
	const refusedAt = removals().map((r) => r.answeredAt!);
	let sent = 0;
	let unsent = 0;
	for (const item of out) {
		const message = String(item.json.error);
		const description = String(item.json.description ?? item.error?.description);
		if (message === SENT_AND_REFUSED) {
			sent++;
			expect(description).toContain(`The API asked to wait ${DAY_S} s before trying again, longer than the node waits (60 s), so it was not retried.`);
		} else {
			unsent++;
			expect(message).toMatch(NOT_SENT);
			expect(description).toContain('was not sent, so nothing was done on the platform');
			expect(description).toContain(`Retry-After: ${DAY_S} s`);
			// The headline and the description name the same time.
			expect(TRY_AGAIN.exec(description)?.[1]).toBe(NOT_SENT.exec(message)?.[1]);
		}
		const named = Date.parse(`${TRY_AGAIN.exec(description)?.[1]}Z`);
		expect(Number.isFinite(named)).toBe(true);
		expect(refusedAt.some((at) => Math.abs(named - (at + DAY_S * 1000)) < 60_000)).toBe(true);
	}
	return { sent, unsent };
}

describe('the API answers every request 429 with Retry-After: 86400 (a spent quota)', () => {
	beforeEach(() => {
		ctx.sandbox.addFault({ path: '/tag/remove-from-contact', kind: 'status', status: 429, retryAfterSeconds: DAY_S, times: Infinity });
	});

	test('400 items (Continue On Fail): at most 11 requests sent; 400 error items, each naming the wait and when to try again', async () => {
		const phones = members().slice(0, 400);
		const out = await run(ctx.sandbox, { parameters: removeBigTag, items: itemsFor(phones), continueOnFail: true });
		expect(removals().length).toBeLessThanOrEqual(A_HANDFUL);
		expect(removals().every((r) => r.status === 429)).toBe(true);
		// N in, N out, each paired with its item.
		expect(out.map((item) => (item.pairedItem as { item: number }).item)).toEqual(phones.map((_, i) => i));
		const { sent, unsent } = expectEachNamesTheWait(out);
		expect(sent).toBe(removals().length);
		expect(unsent).toBe(400 - removals().length);
		// Nothing was done: every phone keeps the tag.
		expect(members()).toEqual(expect.arrayContaining(phones));
	}, 60_000);

	test('a second run on the same credential a moment later sends nothing: all its items fail unsent', async () => {
		const phones = members().slice(0, 400);
		await run(ctx.sandbox, { parameters: removeBigTag, items: itemsFor(phones.slice(0, 200)), continueOnFail: true });
		const before = removals().length;
		const out = await run(ctx.sandbox, { parameters: removeBigTag, items: itemsFor(phones.slice(200)), continueOnFail: true });
		expect(removals()).toHaveLength(before);
		expect(expectEachNamesTheWait(out)).toEqual({ sent: 0, unsent: 200 });
	}, 60_000);

	test.each([['continueRegularOutput'], ['stopWorkflow']] as const)(
		'Retry On Fail (3 tries), On Error %s, 400 items: still at most 11 requests sent in all; the last try fails each item unsent',
		async (onError) => {
			const phones = members().slice(0, 400);
			const result = await runWorkflow(ctx.sandbox, {
				parameters: removeBigTag,
				items: itemsFor(phones),
				onError,
				retryOnFail: true,
				maxTries: 3,
				waitBetweenTries: 10,
				executionId: `spent-quota-${onError}-${Date.now()}`,
			});
			expect(removals().length).toBeLessThanOrEqual(A_HANDFUL);
			if (onError === 'stopWorkflow') {
				// The try n8n reports is a later one: item 0 was sent on the first, and not on this one.
				expect(result.error?.message).toMatch(NOT_SENT);
				return;
			}
			const [regular] = result.outputs;
			expect(regular).toHaveLength(400);
			// Item 0 was among the first 10 sent and refused: its error here comes from a later try
			// (proof that n8n did retry the node), which did not send it.
			expect(removals().some((r) => phoneOf(r) === phones[0])).toBe(true);
			expect(expectEachNamesTheWait(regular)).toEqual({ sent: 0, unsent: 400 });
		},
		60_000,
	);
});

describe('one item refused while the API accepts the others holds nothing', () => {
	/**
	 * 200 items; the first one refused every time. The first 10 requests are held at the sandbox; the
	 * refused one is answered first, then the others of that round (accepted), while every later
	 * request is held in a second round. The node's requests on the wire in that round, once complete
	 * (all it sends have reached the sandbox and others still wait in the node), are 10 + the accepted
	 * answers when the refusal lowered nothing, as without it. A refusal that held the others (until
	 * a probe after 1 s) or halved the cap gives fewer.
	 */
	test.each([
		// held by the refusal until the 9 others answer: 10 + 9
		['Retry-After: 60', 60, 9, 19],
		// beyond the ceiling: the refused one's slot goes at once to an 11th (the quota's probe), in the first round too: 10 + 10
		['Retry-After: 86400 (beyond the 60 s the node waits)', DAY_S, 10, 20],
	])('%s: the second round has 10 + the accepted answers on the wire; the 199 others are all done once', async (_label, retryAfterSeconds, acceptedFirst, secondRound) => {
		const { sandbox } = ctx;
		const phones = members().slice(0, 200);
		const refusedPhone = phones[0];
		sandbox.addFault({ path: '/tag/remove-from-contact', match: refusedPhone, kind: 'status', status: 429, retryAfterSeconds, times: Infinity });
		// The first hold that takes a request decides: the second round takes what the first no longer does.
		const refusedFirst = sandbox.hold({ path: '/tag/remove-from-contact', match: refusedPhone });
		const others = sandbox.hold({ path: '/tag/remove-from-contact' });
		const second = sandbox.hold({ path: '/tag/remove-from-contact' });
		const controller = new AbortController();
		// The node's count of accepted answers (since the process started): the round is complete once
		// the node has READ the accepted answers, not once the sandbox sent them (on a busy machine the
		// node reads them later, and sends the second round's rest only then).
		const acceptedBefore = pace(sandbox).accepted;
		const running = runError(sandbox, { parameters: removeBigTag, items: itemsFor(phones), signal: controller.signal });
		try {
			// n8n prepares 200 items before the first leaves: a loaded machine takes more than 10 s.
			await refusedFirst.waitFor(1, 60_000);
			await others.waitFor(9, 60_000);
			await reached(() => pace(sandbox).inFlight === 10 && pace(sandbox).waiting > 0);
			refusedFirst.release();
			await reached(() => pace(sandbox).refused === 1);
			// What the node sends on the refusal (the 11th, beyond the ceiling) reaches the first round too.
			await reached(() => pace(sandbox).inFlight === others.held.length);
			expect(others.held.length).toBe(acceptedFirst);
			others.release();
			await reached(() => pace(sandbox).accepted - acceptedBefore === acceptedFirst && pace(sandbox).inFlight === second.held.length && pace(sandbox).waiting > 0);
			expect(second.held.length).toBe(secondRound);
			second.release();
			// The 199 others accepted, each once, while the refused one waits out its own Retry-After
			// (or failed at once, beyond the ceiling).
			await sandbox.waitForRequests((requests) => requests.filter((r) => r.status === 200).length === 199, 90_000);
			expect(removals().filter((r) => r.status === 200).map(phoneOf).sort()).toEqual(phones.slice(1).sort());
			expect(removals().filter((r) => phoneOf(r) === refusedPhone).map((r) => r.status)).toEqual([429]);
			// No rate was set: no send of the 199 waited for a clock.
			expect(pace(sandbox).rate).toBeUndefined();
		} finally {
			// Red or green, the run ends here: nothing of it reaches the next test.
			for (const hold of [refusedFirst, others, second]) hold.release();
			controller.abort();
			await running;
			await reached(() => pace(sandbox).inFlight === 0);
		}
	}, 240_000);
});
