/* eslint-disable -- development tooling, not shipped: n8n's node rules (eslint.config.mjs, n8n-node lint) are for nodes/ and credentials/ */
/**
 * The API's limiter (nodes/shared/pace.ts) driven directly, fast enough for StrykerJS (issue 29:
 * "pace.ts … at >= 90 %"): pace.test.ts and never-stuck.test.ts pin the same rules through the
 * sandbox over HTTP, which takes minutes per mutant. Here:
 * - the requests are stand-ins (`answerWith`, named so): each answers with the status and headers
 *   the test gives, when the test says;
 * - time is jest's fake timers (they fake `performance.now`, the limiter's monotonic clock, and the
 *   timers of n8n-workflow's `sleep` that clock.ts wakes the limiter with), moved on by the test.
 * Every expected figure is one of pace.ts's documented literals (its header and `PACE`: 10 in flight
 * at first, one more per accepted answer up to 64, halved by a refusal; no rate until a 429, then
 * 0.7 × the accepted rate, 0.9 × after a Retry-After, never under 1/s; CUBIC's C = 0.4; events at
 * least 1 s apart; a hold's one probe after 1 s; a Retry-After over 60 s holds nothing unless nothing
 * else succeeds (then the quota is spent: one probe, then one a minute); the lanes;
 * idle limiters dropped after 10 minutes) or the retry policy's (backoff 1 s × 2^(n-1) ±25 %).
 */
import { getEventListeners } from 'events';

import type { IN8nHttpFullResponse } from 'n8n-workflow';

import type { Turn, TurnOptions } from '../../nodes/shared/pace';
import { ApiPace, forgetPaces, IDLE_PACE_MS, PACE, paceOf, pacesKept, QuotaSpent, RefusingEverything } from '../../nodes/shared/pace';

/** Stand-in for an HTTP request: the answer a test decides. */
const answerWith =
	(statusCode: number, headers: Record<string, string> = {}) =>
	async (): Promise<IN8nHttpFullResponse> => ({ statusCode, headers, body: {} });

/** Lets pending promise callbacks run (no timer is involved). */
const settle = async (): Promise<void> => {
	for (let i = 0; i < 20; i++) await Promise.resolve();
};

/** One send asking the limiter for its turn, and what became of it. */
interface Ask {
	name: string;
	state: 'waiting' | 'went' | 'timed out' | 'cancelled' | 'answered';
	turn?: Turn;
	error?: unknown;
}

let pace: ApiPace;
/** names of the sends in the order the limiter let them go */
let wentOrder: string[];
let asks: Ask[];

function ask(name: string, options: TurnOptions = {}, signal?: AbortSignal): Ask {
	const entry: Ask = { name, state: 'waiting' };
	asks.push(entry);
	pace.turn(signal, options).then(
		(turn) => {
			if (turn === undefined) {
				entry.state = 'timed out';
				return;
			}
			entry.state = 'went';
			entry.turn = turn;
			wentOrder.push(name);
		},
		(error: unknown) => {
			entry.state = 'cancelled';
			entry.error = error;
		},
	);
	return entry;
}

/** `count` sends, named `prefix1` … */
const askMany = (prefix: string, count: number, options: TurnOptions = {}): Ask[] =>
	Array.from({ length: count }, (_, i) => ask(`${prefix}${i + 1}`, options));

/** The sends on the wire (let through, not answered yet), oldest first. */
const onTheWire = (): Ask[] => asks.filter((entry) => entry.state === 'went');
const went = (): number => wentOrder.length;

/** The API answers `entry` (on the wire) with `statusCode`. */
async function answer(entry: Ask, statusCode: number, headers: Record<string, string> = {}): Promise<void> {
	expect(entry.state).toBe('went');
	entry.state = 'answered';
	await entry.turn!.send(answerWith(statusCode, headers));
	await settle();
}

/** The API answers the oldest `count` sends on the wire with `statusCode`, one after the other. */
async function answerOldest(count: number, statusCode: number, headers: Record<string, string> = {}): Promise<void> {
	for (let i = 0; i < count; i++) await answer(onTheWire()[0], statusCode, headers);
}

/** Moves the fake clock to `ms` after the start of the test, running the wake-ups due. */
async function at(ms: number): Promise<void> {
	await jest.advanceTimersByTimeAsync(ms - performance.now());
	await settle();
}

beforeEach(() => {
	jest.useFakeTimers();
	// performance.now() is 0 at the start of every test
	pace = new ApiPace();
	wentOrder = [];
	asks = [];
});

afterEach(() => {
	jest.restoreAllMocks();
	jest.useRealTimers();
	forgetPaces();
});

describe('the PACE constants (pace.ts header, DESIGN.md)', () => {
	test('10 in flight at first, at most 64, β 0.7 (0.9 after a Retry-After), C 0.4, windows of 1 s, at least 1 request/s, the probe after 1 s, a spent quota probed once a minute; idle limiters dropped after 10 minutes', () => {
		expect(PACE).toEqual({
			initialInFlight: 10,
			maxInFlight: 64,
			beta: 0.7,
			betaAfterRetryAfter: 0.9,
			cubicScale: 0.4,
			minWindowMs: 1000,
			minRate: 1,
			probeAfterMs: 1000,
			spentProbeMs: 60_000,
		});
		expect(Object.isFrozen(PACE)).toBe(true);
		expect(IDLE_PACE_MS).toBe(600_000);
	});
});

describe('requests in flight', () => {
	test('a new limiter lets 10 go at once with no rate; the 11th waits for a free slot', async () => {
		askMany('s', 11);
		await settle();
		expect(went()).toBe(10);
		expect(pace.inFlight).toBe(10);
		expect(pace.waiting).toBe(1);
		expect(pace.rate).toBeUndefined();
		expect(pace.holding).toBe(false);
	});

	test('one more in flight per accepted answer: 12 waiting, one answered 200, the other two go (11 in flight)', async () => {
		askMany('s', 12);
		await settle();
		await answerOldest(1, 200);
		expect(went()).toBe(12);
		expect(pace.inFlight).toBe(11);
		expect(pace.accepted).toBe(1);
	});

	test('grows to 64 in flight and no further', async () => {
		askMany('s', 200);
		await settle();
		const inFlight: number[] = [];
		for (let i = 0; i < 60; i++) {
			await answerOldest(1, 200);
			inFlight.push(pace.inFlight);
		}
		// after k accepted answers: 10 + k, up to 64 (reached after 54)
		expect(inFlight.slice(0, 3)).toEqual([11, 12, 13]);
		expect(inFlight[53]).toBe(64);
		expect(inFlight.slice(54)).toEqual([64, 64, 64, 64, 64, 64]);
		expect(pace.waiting).toBe(200 - 60 - 64);
	});

	test('a 4xx other than 429 is an accepted answer: the cap grows (404 and 499)', async () => {
		askMany('s', 13);
		await settle();
		await answerOldest(1, 404);
		await answerOldest(1, 499);
		expect(pace.accepted).toBe(2);
		expect(pace.inFlight).toBe(11);
		expect(went()).toBe(13);
	});

	test('a 5xx (500, 503) and a request that throws say nothing about the pace: the slot is freed, the cap stays 10', async () => {
		askMany('s', 14);
		await settle();
		await answerOldest(1, 500);
		await answerOldest(1, 503);
		const thrower = onTheWire()[0];
		thrower.state = 'answered';
		await expect(
			thrower.turn!.send(async () => {
				throw new Error('socket hang up');
			}),
		).rejects.toThrow('socket hang up');
		await settle();
		expect(pace.accepted).toBe(0);
		expect(pace.refused).toBe(0);
		expect(pace.inFlight).toBe(10);
		expect(went()).toBe(13);
		expect(pace.waiting).toBe(1);
		expect(pace.rate).toBeUndefined();
	});
});

describe('a 429 lowers the pace', () => {
	test('the cap is halved (10 → 5), once for the refusals of sends made before the decrease', async () => {
		askMany('s', 30);
		await settle();
		// Retry-After: 0 holds nothing, so only the cap decides who goes
		await answerOldest(3, 429, { 'retry-after': '0' });
		expect(pace.refused).toBe(3);
		expect(pace.inFlight).toBe(7);
		// answers that say nothing free slots without growing the cap: with a cap of 5, the
		// fourth frees the slot of one more (with 2, after a halving per refusal, none would go)
		await answerOldest(2, 503);
		expect(pace.inFlight).toBe(5);
		expect(went()).toBe(10);
		await answerOldest(1, 503);
		expect(pace.inFlight).toBe(5);
		expect(went()).toBe(11);
	});

	test('a send made after the decrease and refused within 1 s of it is the same event; one refused after 1 s is a new one (5 → 2)', async () => {
		await at(5000);
		askMany('s', 30);
		await settle();
		await answerOldest(1, 429, { 'retry-after': '0' });
		// cap 5: free slots (with no-signal answers) until a send made after the decrease is on the wire
		await answerOldest(5, 503);
		expect(went()).toBe(11);
		const after = onTheWire()[onTheWire().length - 1];
		expect(after.name).toBe('s11');
		await at(5999);
		await answer(after, 429, { 'retry-after': '0' });
		// still 5: the 4 on the wire and one more
		expect(pace.inFlight).toBe(5);
		expect(went()).toBe(12);
		await at(6999);
		const later = onTheWire()[onTheWire().length - 1];
		expect(later.name).toBe('s12');
		// a send made after the decrease, refused 1 s or more after it: cap 5 → 2
		await answer(later, 429, { 'retry-after': '0' });
		expect(pace.inFlight).toBe(4);
		// a second refusal event in a row with nothing accepted: its Retry-After of 0 is no wait any
		// more; the backoff's hold (2 s ± 25 %) is waited out (no slot is free for its probe)
		await at(6999 + 2500);
		expect(went()).toBe(12);
		await answerOldest(2, 503);
		expect(pace.inFlight).toBe(2);
		expect(went()).toBe(12);
		await answerOldest(1, 503);
		expect(pace.inFlight).toBe(2);
		expect(went()).toBe(13);
	});

	test('a refusal exactly 1 s after the decrease, of a send made after it, is a new event', async () => {
		await at(5000);
		askMany('s', 30);
		await settle();
		await answerOldest(1, 429, { 'retry-after': '0' });
		await answerOldest(5, 503);
		await at(6000);
		await answer(onTheWire()[onTheWire().length - 1], 429, { 'retry-after': '0' });
		// cap 2: 4 on the wire stay, no one goes
		expect(pace.inFlight).toBe(4);
		expect(went()).toBe(11);
	});

	test('a refusal of a send made before the decrease is the same event, even 1.5 s later (the last one sent before it too)', async () => {
		askMany('s', 12);
		await settle();
		await answer(asks[0], 429, { 'retry-after': '0' });
		await at(1500);
		// s10, the last send made before the decrease
		await answer(asks[9], 429, { 'retry-after': '0' });
		expect(pace.inFlight).toBe(8);
		// cap still 5 (2 after a second halving): the fourth no-signal answer frees a slot for s11
		await answerOldest(3, 503);
		expect(went()).toBe(10);
		await answerOldest(1, 503);
		expect(went()).toBe(11);
		expect(pace.inFlight).toBe(5);
	});

	test('20 accepted over 1.4 s, the 21st refused: the rate is 0.7 × 20 / 1.4 s = 10 requests/s, one send every 100 ms', async () => {
		askMany('s', 30);
		await settle();
		await answerOldest(20, 200);
		expect(pace.rate).toBeUndefined();
		await at(1400);
		await answerOldest(1, 429);
		expect(pace.rate).toBeCloseTo(10, 9);
		// no Retry-After, a rate to go by: no hold
		expect(pace.holding).toBe(false);
		askMany('n', 3);
		await settle();
		expect(pace.waiting).toBe(3);
		await at(1499);
		expect(pace.waiting).toBe(3);
		await at(1501);
		expect(pace.waiting).toBe(2);
		await at(1599);
		expect(pace.waiting).toBe(2);
		await at(1601);
		expect(pace.waiting).toBe(1);
		await at(1701);
		expect(pace.waiting).toBe(0);
	});

	test('the window is at least 1 s: 20 accepted at once, the 21st refused at once: 0.7 × 20/s = 14/s', async () => {
		askMany('s', 30);
		await settle();
		await answerOldest(20, 200);
		await answerOldest(1, 429);
		expect(pace.rate).toBeCloseTo(14, 9);
	});

	test('a refusal with Retry-After lowers the rate less: 0.9 × 20/s = 18/s, and holds the others for its 1 s', async () => {
		askMany('s', 22);
		await settle();
		await answerOldest(20, 200);
		await at(1000);
		await answerOldest(1, 429, { 'retry-after': '1' });
		expect(pace.rate).toBeCloseTo(18, 9);
		expect(pace.holding).toBe(true);
		askMany('n', 2);
		await at(1999);
		expect(pace.waiting).toBe(2);
		await at(2000);
		expect(pace.waiting).toBe(0);
		expect(pace.holding).toBe(false);
	});

	test('never under 1 request/s: one accepted over 10 s, then refused, gives 1/s, and an accepted answer right after keeps it at 1/s', async () => {
		askMany('s', 3);
		await settle();
		await answerOldest(1, 200);
		await at(10_000);
		await answerOldest(1, 429);
		// 0.7 × 0.1/s, or 0.7 × the lowest peak of 1/s, would be under the floor
		expect(pace.rate).toBe(1);
		// answered 200 right after the refusal: CUBIC's curve is then 0.7 × the peak of 1/s, under the floor
		await answerOldest(1, 200);
		expect(pace.rate).toBe(1);
	});

	test('with nothing accepted since the last refusal, the rate stays where it was (0.7 × the last one, not a new measure)', async () => {
		askMany('s', 30);
		await settle();
		await answerOldest(20, 200);
		await answerOldest(1, 429);
		expect(pace.rate).toBeCloseTo(14, 9);
		// a send made after the decrease, refused 1 s after it: a new event, nothing accepted since
		const after = ask('after');
		await at(1000);
		expect(after.state).toBe('went');
		await answer(after, 429);
		expect(pace.rate).toBeCloseTo(9.8, 9);
	});
});

describe('CUBIC: how the rate comes back after a refusal', () => {
	test('peak 20/s, β 0.7: 14/s right after, back at 20/s after ∛(20 × 0.3 / 0.4) s, then above (+0.4/s after one more second)', async () => {
		askMany('s', 30);
		await settle();
		await answerOldest(20, 200);
		await answerOldest(1, 429);
		// 9 on the wire, answered one by one at the times below
		await answerOldest(1, 200);
		expect(pace.rate).toBeCloseTo(14, 6);
		const recoverMs = Math.cbrt((20 * 0.3) / 0.4) * 1000;
		await jest.advanceTimersByTimeAsync(recoverMs);
		await answer(onTheWire().filter((entry) => Number(entry.name.slice(1)) <= 30)[0], 200);
		expect(pace.rate).toBeCloseTo(20, 3);
		await jest.advanceTimersByTimeAsync(1000);
		await answer(onTheWire()[0], 200);
		expect(pace.rate).toBeCloseTo(20.4, 3);
	});
});

describe('the rate is measured where the API worked', () => {
	test('an idle hour is not averaged in: 10 accepted, idle 1 h, 9 accepted over 2 s and the 10th refused: 0.7 × 9/2 s', async () => {
		askMany('a', 10);
		await settle();
		await answerOldest(10, 200);
		await at(3_600_000);
		askMany('b', 10);
		await settle();
		await answerOldest(9, 200);
		await at(3_602_000);
		await answerOldest(1, 429);
		expect(pace.rate).toBeCloseTo(3.15, 9);
	});

	test('sends waiting out a hold with nothing on the wire are no idle moment: the window runs on from the refusal', async () => {
		// `early` is sent before the refused one: its acceptance says nothing of the refusal (one made
		// after it would show the refusal was that request's own and end the hold)
		const [early, refusedFirst] = askMany('r', 2);
		await settle();
		await answer(refusedFirst, 429, { 'retry-after': '2' });
		askMany('s', 5);
		await at(500);
		// accepted during the hold: nothing left on the wire, five sends waiting
		await answer(early, 200);
		expect(pace.inFlight).toBe(0);
		await at(1000);
		// the probe, accepted: the hold ends and the other four go; two of them accepted
		await answer(asks[2], 200);
		expect(went()).toBe(7);
		await answerOldest(2, 200);
		await at(2500);
		await answerOldest(1, 429);
		// 4 accepted since the refusal at 0 s, over 2.5 s: 0.7 × 1.6/s
		expect(pace.rate).toBeCloseTo(1.12, 9);
	});

	test('a refusal that holds nothing (no Retry-After, at a known rate) does not shorten the window: 5 accepted over 2 s, 0.7 × 2.5/s', async () => {
		askMany('s', 30);
		await settle();
		await answerOldest(20, 200);
		await answerOldest(1, 429);
		expect(pace.rate).toBeCloseTo(14, 9);
		// a send made after the decrease, out at 1/14 s
		const after = ask('after');
		await at(500);
		expect(after.state).toBe('went');
		// s22, sent before the decrease: the same event, and no hold (there is a rate)
		await answerOldest(1, 429);
		expect(pace.holding).toBe(false);
		await answerOldest(5, 200);
		await at(2000);
		await answer(after, 429);
		expect(pace.rate).toBeCloseTo(0.7 * 2.5, 9);
	});

	test('a Retry-After wait is not the API\'s rate: 10 accepted in the 1 s after a 1 s hold, then a refusal: 0.7 × 10/s (not over 2 s)', async () => {
		const [kept, refusedFirst] = askMany('k', 2);
		await settle();
		// `kept` stays on the wire all along, so the window is never reset by an idle moment
		await answer(refusedFirst, 429, { 'retry-after': '1' });
		expect(pace.rate).toBeUndefined();
		askMany('s', 11);
		await at(1000);
		// a hold of 1 s has no probe: the sends go when it ends
		expect(went()).toBeGreaterThan(2);
		for (let accepted = 0; accepted < 10; ) {
			const next = onTheWire().find((entry) => entry !== kept);
			await answer(next!, 200);
			accepted++;
		}
		await at(2000);
		const last = onTheWire().find((entry) => entry !== kept);
		await answer(last!, 429);
		expect(pace.rate).toBeCloseTo(7, 9);
		expect(kept.state).toBe('went');
	});
});

describe('spacing: a timer that fires late is made up with the next send', () => {
	test('at 10/s, idle 5 s, then three sends: two go at once (a bucket of two), the third 100 ms later', async () => {
		askMany('s', 30);
		await settle();
		await answerOldest(20, 200);
		await at(1400);
		await answerOldest(1, 429);
		expect(pace.rate).toBeCloseTo(10, 9);
		// the 9 on the wire answered with no signal (the rate stays), the queue emptied at 10/s
		await at(2500);
		while (onTheWire().length > 0) await answerOldest(1, 503);
		expect(pace.waiting).toBe(0);
		await at(7500);
		askMany('n', 3);
		await settle();
		expect(pace.waiting).toBe(1);
		await at(7599);
		expect(pace.waiting).toBe(1);
		await at(7601);
		expect(pace.waiting).toBe(0);
	});
});

describe('a hold and its one probe', () => {
	test('Retry-After: 5 holds the others; after 1 s one probe goes; refused, the rest wait out its hold', async () => {
		askMany('r', 1);
		await settle();
		// the API's other headers come first
		await answerOldest(1, 429, { 'content-type': 'application/json', 'x-request-id': 'abc', 'retry-after': '5' });
		expect(pace.holding).toBe(true);
		askMany('s', 3);
		await at(999);
		expect(went()).toBe(1);
		await at(1000);
		expect(wentOrder).toEqual(['r1', 's1']);
		// the probe refused with Retry-After: 5 again: held until 6 s, no second probe
		await answer(asks[1], 429, { 'retry-after': '5' });
		await at(5999);
		expect(went()).toBe(2);
		expect(pace.holding).toBe(true);
		await at(6000);
		expect(wentOrder).toEqual(['r1', 's1', 's2', 's3']);
		expect(pace.holding).toBe(false);
	});

	test('the probe accepted: the refusal concerned that request, the hold ends and the others go at once', async () => {
		askMany('r', 1);
		await settle();
		await answerOldest(1, 429, { 'retry-after': '30' });
		askMany('s', 4);
		await at(1000);
		expect(wentOrder).toEqual(['r1', 's1']);
		await answer(asks[1], 200);
		expect(pace.holding).toBe(false);
		expect(wentOrder).toEqual(['r1', 's1', 's2', 's3', 's4']);
	});

	test('a refusal of another send during the hold does not end it: the probe goes 1 s into the hold, once', async () => {
		askMany('r', 2);
		await settle();
		await answerOldest(1, 429, { 'retry-after': '30' });
		askMany('s', 3);
		await at(500);
		// r2, sent before the hold, refused in it (same event): the hold goes on, with its start
		await answerOldest(1, 429, { 'retry-after': '30' });
		await at(999);
		expect(went()).toBe(2);
		await at(1000);
		expect(wentOrder).toEqual(['r1', 'r2', 's1']);
		await at(20_000);
		expect(went()).toBe(3);
		// an answer that says nothing from the probe: no second probe either
		await answer(asks[2], 503);
		await at(29_999);
		expect(went()).toBe(3);
		await at(30_500);
		expect(went()).toBe(5);
	});

	test('the probe is known by its answer whatever came back before it: another send answered, then the probe accepted, ends the hold', async () => {
		askMany('r', 2);
		await settle();
		await answerOldest(1, 429, { 'retry-after': '30' });
		askMany('s', 3);
		await at(1000);
		expect(wentOrder).toEqual(['r1', 'r2', 's1']);
		await at(1500);
		await answer(asks[1], 503);
		await at(2000);
		await answer(asks[2], 200);
		expect(pace.holding).toBe(false);
		expect(wentOrder).toEqual(['r1', 'r2', 's1', 's2', 's3']);
	});

	test('each hold has its probe: a hold that starts after an earlier one ended (its probe answered) probes again after 1 s', async () => {
		askMany('r', 2);
		await settle();
		await answerOldest(1, 429, { 'retry-after': '5' });
		askMany('s', 1);
		await at(1000);
		await answer(asks[2], 200);
		expect(pace.holding).toBe(false);
		await at(10_000);
		await answer(asks[1], 429, { 'retry-after': '5' });
		askMany('t', 2);
		await at(10_999);
		expect(went()).toBe(3);
		await at(11_000);
		expect(wentOrder).toEqual(['r1', 'r2', 's1', 't1']);
	});

	test('while the last hold\'s probe is still unanswered, a new hold sends no second probe and sets one wake-up, at its end; that probe accepted ends it', async () => {
		askMany('r', 2);
		await settle();
		await answerOldest(1, 429, { 'retry-after': '2' });
		askMany('s', 4);
		await at(1000);
		expect(wentOrder).toEqual(['r1', 'r2', 's1']);
		await at(2000);
		expect(went()).toBe(6);
		// s1, the probe, is still on the wire when r2 is refused for 5 s
		const timers = jest.spyOn(globalThis, 'setTimeout');
		await at(2500);
		await answer(asks[1], 429, { 'retry-after': '5' });
		askMany('t', 2);
		await at(3500);
		expect(went()).toBe(6);
		// an answer 1.1 s into the new hold: still no probe, s1 is out asking
		await at(3600);
		await answer(asks[3], 503);
		expect(went()).toBe(6);
		await at(4000);
		// one wake-up since the refusal, at the hold's end 5 s later (not one per pump, not one every millisecond)
		expect(timers.mock.calls.map(([, ms]) => ms)).toEqual([5000]);
		await answer(asks[2], 200);
		expect(pace.holding).toBe(false);
		expect(went()).toBe(8);
	});

	test('a refusal the moment a hold ends starts a new hold, with its own probe', async () => {
		askMany('r', 2);
		await settle();
		await answerOldest(1, 429, { 'retry-after': '2' });
		askMany('s', 1);
		await at(1000);
		// the probe refused: held until 2 s, as before
		await answer(asks[2], 429, { 'retry-after': '1' });
		await at(2000);
		expect(pace.holding).toBe(false);
		await answer(asks[1], 429, { 'retry-after': '5' });
		askMany('t', 2);
		await at(2999);
		expect(went()).toBe(3);
		await at(3000);
		expect(wentOrder).toEqual(['r1', 'r2', 's1', 't1']);
	});

	test('a hold of 1 s or less has no probe: every send waits it out (Retry-After: 1)', async () => {
		askMany('r', 1);
		await settle();
		await answerOldest(1, 429, { 'retry-after': '1' });
		askMany('s', 3);
		await at(999);
		expect(went()).toBe(1);
		await at(1000);
		expect(went()).toBe(4);
	});

	test('a Retry-After over 60 s (the longest the node waits) holds nothing and does not halve the cap', async () => {
		askMany('s', 12);
		await settle();
		await answerOldest(1, 429, { 'retry-after': '61' });
		expect(pace.refused).toBe(1);
		expect(pace.holding).toBe(false);
		// cap still 10: the freed slot goes to the 11th at once
		expect(went()).toBe(11);
		expect(pace.inFlight).toBe(10);
	});

	test('a Retry-After of exactly 60 s holds the others', async () => {
		askMany('s', 12);
		await settle();
		await answerOldest(1, 429, { 'retry-after': '60' });
		expect(pace.holding).toBe(true);
		expect(went()).toBe(10);
		expect(pace.inFlight).toBe(9);
	});

	test('the Retry-After header is found whatever its case, and as an HTTP date', async () => {
		jest.setSystemTime(new Date('2026-11-25T12:00:00Z'));
		askMany('r', 2);
		await settle();
		await answerOldest(1, 429, { 'Retry-After': '3' });
		expect(pace.holding).toBe(true);
		// 1 s into it: the probe (r2 is on the wire)
		askMany('s', 2);
		await at(1000);
		expect(went()).toBe(3);
		await answer(asks[2], 429, { 'RETRY-AFTER': 'Wed, 25 Nov 2026 12:00:05 GMT' });
		// held until 5 s (the date), not 3 s
		await at(4999);
		expect(went()).toBe(3);
		await at(5000);
		expect(went()).toBe(4);
	});

	test('no Retry-After and no rate yet: the retry policy\'s backoff holds them (1 s × 2^(n-1) ±25 %, here the middle)', async () => {
		jest.spyOn(Math, 'random').mockReturnValue(0.5);
		askMany('r', 1);
		await settle();
		// a 429 without headers at all
		const first = onTheWire()[0];
		first.state = 'answered';
		await first.turn!.send(async () => ({ statusCode: 429, body: {} }) as unknown as IN8nHttpFullResponse);
		await settle();
		expect(pace.holding).toBe(true);
		askMany('s', 3);
		await at(999);
		expect(went()).toBe(1);
		// 1 s: no probe, they go when it ends (cap 5)
		await at(1000);
		expect(went()).toBe(4);
		// the second refusal event in a row, nothing accepted: 2 s, with its probe after 1 s
		await answer(asks[1], 429);
		await at(1999);
		expect(went()).toBe(4);
		askMany('t', 2);
		await answerOldest(2, 503);
		await at(2000);
		expect(went()).toBe(5);
		await at(2999);
		expect(went()).toBe(5);
		await at(3000);
		expect(went()).toBe(6);
	});

	test('an accepted answer starts the backoff over: refused, accepted, idle, refused again: 1 s, not 2 s', async () => {
		jest.spyOn(Math, 'random').mockReturnValue(0.5);
		askMany('r', 1);
		await settle();
		await answerOldest(1, 429);
		askMany('s', 1);
		await at(1000);
		await answerOldest(1, 200);
		await at(5000);
		askMany('t', 1);
		await settle();
		await answerOldest(1, 429);
		// with nothing accepted in its window (it restarted at this send) the rate stays unknown
		expect(pace.rate).toBeUndefined();
		askMany('u', 2);
		await at(5999);
		expect(went()).toBe(3);
		await at(6000);
		expect(went()).toBe(5);
	});
});

describe('one refused request among accepted ones holds nothing (DESIGN.md, a spent quota, decided 2026-11-26)', () => {
	test('Retry-After: 60 on one send, then a send made after it accepted: the refusal was that request\'s own, the hold ends and the cap is 10 + 1, no rate', async () => {
		askMany('s', 30);
		await settle();
		await answer(asks[0], 429, { 'retry-after': '60' });
		expect(pace.holding).toBe(true);
		await answer(asks[1], 200);
		expect(pace.holding).toBe(false);
		expect(pace.rate).toBeUndefined();
		// 10 at first, one more for the accepted answer: 11 on the wire, none of them the refused one
		expect(pace.inFlight).toBe(11);
		expect(went()).toBe(13);
	});

	test('with a rate: 20 accepted, a 429 without Retry-After (14/s); 2 s later one refused with Retry-After: 5 and a later send accepted: the rate is CUBIC\'s from the first refusal, as if the second never came', async () => {
		askMany('s', 40);
		await settle();
		await answerOldest(20, 200);
		await answerOldest(1, 429);
		expect(pace.rate).toBeCloseTo(14, 9);
		// sends made after that decrease, out at 14/s
		await at(2000);
		const [refused, later] = onTheWire().slice(-2);
		await answer(refused, 429, { 'retry-after': '5' });
		expect(pace.holding).toBe(true);
		await answer(later, 200);
		expect(pace.holding).toBe(false);
		// peak 20/s, β 0.7: back at 20/s after ∛(20 × 0.3 / 0.4) s; 2 s after the first refusal
		expect(pace.rate).toBeCloseTo(0.4 * (2 - Math.cbrt((20 * 0.3) / 0.4)) ** 3 + 20, 6);
	});

	test('a send made after the refused one refused too: the refusal was the API\'s; a third accepted keeps the hold (until the probe)', async () => {
		askMany('s', 30);
		await settle();
		await answer(asks[0], 429, { 'retry-after': '60' });
		await answer(asks[1], 429, { 'retry-after': '60' });
		await answer(asks[2], 200);
		expect(pace.holding).toBe(true);
		expect(went()).toBe(10);
		// cap 10 → 5, + 1: two answers that say nothing free a slot for the hold's probe at 1 s
		await answerOldest(2, 503);
		await at(999);
		expect(went()).toBe(10);
		await at(1000);
		expect(went()).toBe(11);
	});

	test('a Retry-After of 1 s (a rate limit\'s) is in no doubt: a later send accepted keeps the hold and the halved cap (10 → 5, + 1)', async () => {
		askMany('s', 30);
		await settle();
		await answer(asks[0], 429, { 'retry-after': '1' });
		await answer(asks[1], 200);
		expect(pace.holding).toBe(true);
		await answerOldest(2, 503);
		expect(pace.inFlight).toBe(6);
		await at(1000);
		expect(went()).toBe(10);
		await settle();
		expect(pace.inFlight).toBe(6);
	});

	test('the hold waited out, a later send accepted after it: the decrease stays', async () => {
		const [refused, kept] = askMany('s', 2);
		await settle();
		await answer(refused, 429, { 'retry-after': '2' });
		expect(pace.holding).toBe(true);
		await at(2000);
		await answer(kept, 200);
		// cap halved to 5, then 6: 6 of 8 new sends go at once
		askMany('n', 8);
		await settle();
		expect(pace.inFlight).toBe(6);
	});
});

describe('a spent quota stops the sending (DESIGN.md, decided 2026-11-26)', () => {
	const DAY = { 'retry-after': '86400' };
	const tomorrow = Date.parse('2026-11-27T14:00:00Z');

	/** 30 sends; the 10 on the wire and the probe refused with Retry-After: 86400 at 14:00 UTC. */
	async function spend(): Promise<void> {
		jest.setSystemTime(new Date('2026-11-26T14:00:00Z'));
		askMany('s', 30);
		await settle();
		await answerOldest(1, 429, DAY);
		// in doubt: one probe, made after that answer came, goes at once; the others wait for its answer
		expect(wentOrder).toEqual([...Array.from({ length: 10 }, (_, i) => `s${i + 1}`), 's11']);
		await answerOldest(9, 429, DAY);
		expect(went()).toBe(11);
		expect(pace.waiting).toBe(19);
		await answer(asks[10], 429, DAY);
	}

	const failedUnsent = (entry: Ask): boolean =>
		entry.state === 'cancelled' && entry.error instanceof QuotaSpent && entry.error.askedMs === 86_400_000 && entry.error.tryAfter === tomorrow;

	test('all refused with Retry-After: 86400, the probe too: the 19 waiting fail at once, unsent, naming the wait and when to try again', async () => {
		await spend();
		expect(pace.waiting).toBe(0);
		expect(went()).toBe(11);
		expect(asks.slice(11).every(failedUnsent)).toBe(true);
		expect(pace.holding).toBe(false);
		expect(pace.rate).toBeUndefined();
	});

	test('while spent, a new send fails at once, until a minute after the probe; then one goes as the probe and the others wait for its answer; accepted, sending resumes', async () => {
		await spend();
		await at(59_999);
		const early = ask('early');
		await settle();
		expect(failedUnsent(early)).toBe(true);
		await at(60_000);
		const [probe, ...others] = askMany('p', 3);
		await settle();
		expect(probe.state).toBe('went');
		expect(others.map((entry) => entry.state)).toEqual(['waiting', 'waiting']);
		await answer(probe, 200);
		expect(others.map((entry) => entry.state)).toEqual(['went', 'went']);
		const after = ask('after');
		await settle();
		expect(after.state).toBe('went');
	});

	test('the minute\'s probe refused the same way: the others waiting for it fail, and the next probe is a minute later', async () => {
		await spend();
		await at(60_000);
		const [probe, ...others] = askMany('p', 3);
		await settle();
		await answer(probe, 429, DAY);
		// the wait the probe's answer asked for, from a minute later
		expect(others.map((entry) => entry.state)).toEqual(['cancelled', 'cancelled']);
		expect(others.every((entry) => entry.error instanceof QuotaSpent && entry.error.tryAfter === Date.parse('2026-11-27T14:01:00Z'))).toBe(true);
		await at(119_999);
		const early = ask('early');
		await settle();
		expect(early.state).toBe('cancelled');
		await at(120_000);
		const next = ask('next');
		await settle();
		expect(next.state).toBe('went');
	});

	test('the time the API named comes (Retry-After: 90, the minute\'s probe answered 503): the quota is forgotten and sends go', async () => {
		askMany('s', 11);
		await settle();
		await answerOldest(1, 429, { 'retry-after': '90' });
		await answerOldest(9, 429, { 'retry-after': '90' });
		await answer(asks[10], 429, { 'retry-after': '90' });
		const refusedNow = ask('now');
		await settle();
		expect(refusedNow.state).toBe('cancelled');
		await at(60_000);
		const probe = ask('probe');
		await settle();
		expect(probe.state).toBe('went');
		await answer(probe, 503);
		// a probe that says nothing: still spent, the next probe a minute later
		const still = ask('still');
		await settle();
		expect(still.state).toBe('cancelled');
		await at(90_000);
		const [a, b] = askMany('t', 2);
		await settle();
		expect([a.state, b.state]).toEqual(['went', 'went']);
	});

	test('two refused with Retry-After: 86400 among accepted ones (sent at once, answered first): nothing is failed, nothing held', async () => {
		askMany('s', 30);
		await settle();
		await answerOldest(2, 429, DAY);
		await answerOldest(1, 200);
		await settle();
		expect(asks.filter((entry) => entry.state === 'cancelled')).toEqual([]);
		// no quota: the cap alone decides (10 + 1 accepted, 11 on the wire)
		expect(pace.inFlight).toBe(11);
		expect(pace.holding).toBe(false);
		expect(pace.rate).toBeUndefined();
	});

	test('a probe answered at the API\'s pace (Retry-After: 2) ends the doubt: the usual hold and its probe apply', async () => {
		askMany('s', 30);
		await settle();
		await answerOldest(1, 429, DAY);
		const probe = asks[10];
		expect(probe.state).toBe('went');
		await answer(probe, 429, { 'retry-after': '2' });
		expect(pace.holding).toBe(true);
		// cap 10 → 5: five answers that say nothing free a slot for the hold's probe at 1 s
		await answerOldest(5, 503);
		await at(999);
		expect(went()).toBe(11);
		await at(1000);
		// the hold's probe, not a quota's failure
		expect(asks.filter((entry) => entry.state === 'cancelled')).toEqual([]);
		expect(went()).toBe(12);
	});

	test('a spent quota is kept past 10 idle minutes, until the time the API named', async () => {
		await spend();
		await answerOldest(0, 200);
		expect(pace.idleFor(IDLE_PACE_MS, IDLE_PACE_MS + 60_000)).toBe(false);
		expect(pace.idleFor(IDLE_PACE_MS, 86_400_000)).toBe(true);
	});
});

describe('an API that refuses everything ends the run (DESIGN.md, decided 2026-11-27; issue 42, Build 4)', () => {
	const MINUTE = 60_000;
	beforeEach(() => {
		// The backoff's jitter at its middle: the holds are 1 s, 2 s, 4 s …
		jest.spyOn(Math, 'random').mockReturnValue(0.5);
	});

	const stoppedUnsent = (entry: Ask, forMs: number, retryAfterMs?: number): boolean =>
		entry.state === 'cancelled' && entry.error instanceof RefusingEverything && entry.error.forMs === forMs && entry.error.retryAfterMs === retryAfterMs;

	/** 12 sends, the 10 on the wire refused (429, no Retry-After): the first at 0, the second at `second`, the third at `third`. */
	async function refuseAtTimes(second: number, third: number, headers: Record<string, string> = {}): Promise<void> {
		askMany('s', 12);
		await settle();
		await answer(asks[0], 429, headers);
		await at(second);
		await answer(asks[1], 429, headers);
		await at(third);
		await answer(asks[2], 429, headers);
	}

	test('a refusal 60 s after the first, nothing accepted between: the waiting sends fail at once, unsent, and so does a new one', async () => {
		await refuseAtTimes(MINUTE - 1, MINUTE);
		expect(pace.refusingEverything).toBe(true);
		expect(pace.waiting).toBe(0);
		expect(asks.slice(10).every((entry) => stoppedUnsent(entry, MINUTE))).toBe(true);
		expect(went()).toBe(10);
		const late = ask('late');
		await settle();
		expect(stoppedUnsent(late, MINUTE)).toBe(true);
	});

	test('a refusal 59.999 s after the first stops nothing: the API may be at a per-minute limit', async () => {
		await refuseAtTimes(MINUTE - 2, MINUTE - 1);
		expect(pace.refusingEverything).toBe(false);
		expect(asks.slice(10).map((entry) => entry.state)).toEqual(['waiting', 'waiting']);
	});

	test('stopped: one send a minute goes as a probe, the others fail; refused, the next probe is a minute later; accepted, the run goes on at the pace', async () => {
		await refuseAtTimes(MINUTE - 1, MINUTE);
		// what was on the wire before the stop is refused too: still refusing, no probe due earlier
		await answerOldest(7, 429);
		expect(pace.inFlight).toBe(0);
		await at(2 * MINUTE - 1);
		const tooEarly = ask('early');
		await settle();
		expect(stoppedUnsent(tooEarly, 2 * MINUTE - 1)).toBe(true);
		await at(2 * MINUTE);
		const [probe, other] = askMany('p', 2);
		await settle();
		expect([probe.state, other.state]).toEqual(['went', 'waiting']);
		await answer(probe, 429);
		expect(stoppedUnsent(other, 2 * MINUTE)).toBe(true);
		await at(3 * MINUTE - 1);
		const early = ask('early2');
		await settle();
		expect(early.state).toBe('cancelled');
		await at(3 * MINUTE);
		const [second, after] = askMany('q', 2);
		await settle();
		expect([second.state, after.state]).toEqual(['went', 'waiting']);
		await answer(second, 200);
		expect(pace.refusingEverything).toBe(false);
		expect(after.state).toBe('went');
	});

	test("the probe's answer says nothing (503): still stopped, the next probe a minute later", async () => {
		await refuseAtTimes(MINUTE - 1, MINUTE);
		await answerOldest(7, 429);
		await at(2 * MINUTE);
		const [probe, other] = askMany('p', 2);
		await settle();
		await answer(probe, 503);
		expect(pace.refusingEverything).toBe(true);
		expect(other.state).toBe('cancelled');
		await at(3 * MINUTE - 1);
		const early = ask('early');
		await settle();
		expect(early.state).toBe('cancelled');
	});

	test('the stopping refusal\'s Retry-After (1 s) is named in what the unsent sends carry', async () => {
		await refuseAtTimes(MINUTE - 1, MINUTE, { 'retry-after': '1' });
		expect(asks.slice(10).every((entry) => stoppedUnsent(entry, MINUTE, 1000))).toBe(true);
	});

	test('a streak that starts 5 s in: the unsent sends carry the 60 s since its first refusal, not the time since the limiter started', async () => {
		await at(5_000);
		await refuseAtTimes(5_000 + MINUTE - 1, 5_000 + MINUTE);
		expect(pace.refusingEverything).toBe(true);
		expect(asks.slice(10).every((entry) => stoppedUnsent(entry, MINUTE))).toBe(true);
	});

	test('sends that left before the stop, answered 30 s after it (503, then 429): the probe still goes a minute after the stop', async () => {
		await refuseAtTimes(MINUTE - 1, MINUTE);
		await at(MINUTE + 30_000);
		await answer(asks[3], 503);
		await answerOldest(6, 429);
		expect(pace.inFlight).toBe(0);
		await at(2 * MINUTE);
		const [probe, other] = askMany('p', 2);
		await settle();
		expect([probe.state, other.state]).toEqual(['went', 'waiting']);
	});

	test('an accepted answer ends the streak: refused at 0, accepted at 59 s, refused at 61 s: nothing stopped', async () => {
		askMany('s', 12);
		await settle();
		await answer(asks[0], 429);
		await at(59_000);
		await answer(asks[1], 200);
		await at(61_000);
		await answer(asks[2], 429);
		expect(pace.refusingEverything).toBe(false);
		await at(61_000 + MINUTE - 1);
		await answer(asks[3], 429);
		expect(pace.refusingEverything).toBe(false);
		await at(61_000 + MINUTE);
		await answer(asks[4], 429);
		expect(pace.refusingEverything).toBe(true);
	});

	test('a refusal after more than 2 minutes without any answer (the node had stopped asking) starts a new streak', async () => {
		askMany('s', 4);
		await settle();
		await answer(asks[0], 429);
		await at(2 * MINUTE + 1);
		await answer(asks[1], 429);
		expect(pace.refusingEverything).toBe(false);
		await at(3 * MINUTE + 1);
		await answer(asks[2], 429);
		expect(pace.refusingEverything).toBe(true);
	});

	test('exactly 2 minutes without an answer is no quiet spell: the streak from the first refusal stops the sending', async () => {
		askMany('s', 4);
		await settle();
		await answer(asks[0], 429);
		await at(2 * MINUTE);
		await answer(asks[1], 429);
		expect(pace.refusingEverything).toBe(true);
	});

	test('refusals beyond the ceiling (Retry-After: 86400) for a minute are the spent quota\'s, with the time the API named, not a refusal of everything', async () => {
		jest.setSystemTime(new Date('2026-11-26T14:00:00Z'));
		await refuseAtTimes(MINUTE - 1, MINUTE, { 'retry-after': '86400' });
		expect(pace.refusingEverything).toBe(false);
	});

	test('stopped, then idle for 10 minutes: the limiter may be dropped (no time was named; a new one asks afresh)', async () => {
		await refuseAtTimes(MINUTE - 1, MINUTE);
		await answerOldest(7, 429);
		await at(MINUTE + IDLE_PACE_MS - 1);
		expect(pace.idleFor(IDLE_PACE_MS, performance.now())).toBe(false);
		await at(MINUTE + IDLE_PACE_MS);
		expect(pace.idleFor(IDLE_PACE_MS, performance.now())).toBe(true);
	});

	test('a Retry-After of 0 is taken at its word once: the first refusal event holds nothing; the second in a row, nothing accepted, holds the backoff (2 s)', async () => {
		askMany('s', 30);
		await settle();
		await answer(asks[0], 429, { 'retry-after': '0' });
		expect(pace.holding).toBe(false);
		await answerOldest(5, 503);
		expect(went()).toBe(11);
		await at(1000);
		await answer(onTheWire().at(-1) as Ask, 429, { 'retry-after': '0' });
		expect(pace.holding).toBe(true);
		await at(2999);
		expect(pace.holding).toBe(true);
		await at(3000);
		expect(pace.holding).toBe(false);
	});
});

describe('who goes first', () => {
	test('an interactive call, then retries, then first sends, each first come first served', async () => {
		askMany('x', 10);
		await settle();
		ask('first1');
		ask('retry1', { isRetry: true });
		ask('first2');
		ask('interactive1', { interactive: true });
		ask('retry2', { isRetry: true });
		ask('interactive2', { interactive: true, isRetry: true });
		await settle();
		expect(pace.waiting).toBe(6);
		// slots freed one at a time, the cap unchanged
		for (let i = 0; i < 6; i++) await answerOldest(1, 503);
		expect(wentOrder.slice(10)).toEqual(['interactive1', 'interactive2', 'retry1', 'retry2', 'first1', 'first2']);
	});
});

describe('a deadline (the Timeout of an interactive call)', () => {
	test('a send still waiting at its deadline leaves the queue, never sent, and frees no slot it never had', async () => {
		askMany('x', 10);
		await settle();
		const late = ask('late', { interactive: true, deadline: 500 });
		const next = ask('next');
		await at(499);
		expect(late.state).toBe('waiting');
		await at(500);
		expect(late.state).toBe('timed out');
		expect(pace.waiting).toBe(1);
		await answerOldest(1, 503);
		expect(next.state).toBe('went');
		expect(wentOrder).not.toContain('late');
	});

	test('a send waiting only for a free slot sets no timer: an answer lets it go', async () => {
		askMany('x', 11);
		await settle();
		expect(pace.waiting).toBe(1);
		expect(jest.getTimerCount()).toBe(0);
	});

	test('two sends with deadlines let through before them: one wake-up at a time, none left behind', async () => {
		askMany('x', 10);
		await settle();
		const later = ask('later', { deadline: 900 });
		const sooner = ask('sooner', { deadline: 400 });
		await settle();
		expect(jest.getTimerCount()).toBe(1);
		await answerOldest(2, 503);
		expect([later.state, sooner.state]).toEqual(['went', 'went']);
		expect(jest.getTimerCount()).toBe(0);
	});

	test('a send that times out leaves no listener on its signal', async () => {
		askMany('x', 10);
		await settle();
		const controller = new AbortController();
		const late = ask('late', { deadline: 500 }, controller.signal);
		await settle();
		expect(getEventListeners(controller.signal, 'abort')).toHaveLength(1);
		await at(500);
		expect(late.state).toBe('timed out');
		expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
	});

	test('a send whose slot frees before its deadline goes', async () => {
		askMany('x', 10);
		await settle();
		const inTime = ask('inTime', { deadline: 500 });
		await at(300);
		await answerOldest(1, 503);
		expect(inTime.state).toBe('went');
		expect(jest.getTimerCount()).toBe(0);
	});

	test('a deadline already spent: undefined at once, nothing queued', async () => {
		await at(100);
		const spent = ask('spent', { deadline: 100 });
		await settle();
		expect(spent.state).toBe('timed out');
		expect(pace.waiting).toBe(0);
		expect(pace.inFlight).toBe(0);
	});

	test('the earlier of two deadlines is kept while the later waits', async () => {
		askMany('x', 10);
		await settle();
		const later = ask('later', { deadline: 900 });
		const sooner = ask('sooner', { deadline: 400 });
		await at(400);
		expect(sooner.state).toBe('timed out');
		expect(later.state).toBe('waiting');
		await at(900);
		expect(later.state).toBe('timed out');
		expect(jest.getTimerCount()).toBe(0);
	});

	test('a hold does not keep a send past its deadline', async () => {
		askMany('r', 1);
		await settle();
		await answerOldest(1, 429, { 'retry-after': '30' });
		askMany('s', 1);
		const timed = ask('timed', { interactive: true, deadline: 700 });
		await at(700);
		expect(timed.state).toBe('timed out');
		// the other waits for the probe at 1 s
		await at(1000);
		expect(wentOrder).toEqual(['r1', 's1']);
	});
});

describe('a cancel', () => {
	test('a signal already fired: the turn is refused with its reason, nothing queued', async () => {
		const controller = new AbortController();
		controller.abort(new Error('cancelled by the test'));
		await expect(pace.turn(controller.signal)).rejects.toThrow('cancelled by the test');
		expect(pace.waiting).toBe(0);
		expect(pace.inFlight).toBe(0);
	});

	test('takes out only the sends of its signal; one listener per signal, removed when its last send leaves', async () => {
		askMany('x', 10);
		await settle();
		const mine = new AbortController();
		const theirs = new AbortController();
		const a = ask('a', {}, mine.signal);
		const b = ask('b', {}, theirs.signal);
		const c = ask('c', {}, mine.signal);
		const d = ask('d', {}, theirs.signal);
		await settle();
		expect(getEventListeners(mine.signal, 'abort')).toHaveLength(1);
		expect(getEventListeners(theirs.signal, 'abort')).toHaveLength(1);
		mine.abort(new Error('cancelled by the test'));
		await settle();
		expect([a.state, c.state]).toEqual(['cancelled', 'cancelled']);
		expect((a.error as Error).message).toBe('cancelled by the test');
		expect(pace.waiting).toBe(2);
		await answerOldest(1, 503);
		expect(b.state).toBe('went');
		// d still waits on `theirs`: its listener stays
		expect(getEventListeners(theirs.signal, 'abort')).toHaveLength(1);
		await answerOldest(1, 503);
		expect(d.state).toBe('went');
		expect(getEventListeners(theirs.signal, 'abort')).toHaveLength(0);
	});

	test('a signal whose earlier sends all went still cancels the sends it makes later (the pages of an item)', async () => {
		askMany('x', 9);
		const controller = new AbortController();
		const early = ask('early', {}, controller.signal);
		await settle();
		expect(early.state).toBe('went');
		const later = ask('later', {}, controller.signal);
		await settle();
		expect(later.state).toBe('waiting');
		controller.abort(new Error('cancelled by the test'));
		await settle();
		expect(later.state).toBe('cancelled');
		expect(pace.waiting).toBe(0);
	});

	test('a send let through is no longer cancelled by its signal', async () => {
		const controller = new AbortController();
		const a = ask('a', {}, controller.signal);
		await settle();
		expect(a.state).toBe('went');
		expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
		controller.abort(new Error('cancelled by the test'));
		await answer(a, 200);
		expect(pace.accepted).toBe(1);
	});

	test('a cancel during a hold leaves the other sends waiting for the probe', async () => {
		askMany('r', 1);
		await settle();
		await answerOldest(1, 429, { 'retry-after': '30' });
		const controller = new AbortController();
		const gone = ask('gone', {}, controller.signal);
		const stays = ask('stays');
		await at(500);
		controller.abort(new Error('cancelled by the test'));
		await settle();
		expect(gone.state).toBe('cancelled');
		expect(jest.getTimerCount()).toBe(1);
		await at(1000);
		expect(stays.state).toBe('went');
	});
});

describe('idle limiters', () => {
	test('idle means nothing on the wire, nothing waiting, and unused for the whole time', async () => {
		const [first] = askMany('s', 11);
		await settle();
		await at(1000);
		expect(pace.idleFor(500, 1000)).toBe(false);
		await answerOldest(10, 200);
		// one still on the wire
		expect(pace.idleFor(0, 10_000)).toBe(false);
		await answer(onTheWire()[0], 200);
		expect(first.state).toBe('answered');
		// last used at 1000
		expect(pace.idleFor(500, 1499)).toBe(false);
		expect(pace.idleFor(500, 1500)).toBe(true);
	});

	test('a send waiting in the queue keeps it in use', async () => {
		askMany('r', 1);
		await settle();
		await answerOldest(1, 429, { 'retry-after': '30' });
		askMany('s', 1);
		await at(500);
		expect(pace.inFlight).toBe(0);
		expect(pace.idleFor(0, 500)).toBe(false);
	});

	test('one limiter per API and token; swept at most once a minute', async () => {
		forgetPaces();
		const a = paceOf('http://api.test/v2', 'token-a');
		expect(paceOf('http://api.test/v2', 'token-a')).toBe(a);
		expect(paceOf('http://api.test/v2', 'token-b')).not.toBe(a);
		expect(paceOf('http://other.test/v2', 'token-a')).not.toBe(a);
		expect(pacesKept()).toBe(3);
		// a sweep 30 s before a's 10 minutes: nothing idle long enough
		jest.advanceTimersByTime(IDLE_PACE_MS - 30_000);
		paceOf('http://api.test/v2', 'token-c');
		expect(pacesKept()).toBe(4);
		// 10 minutes: idle enough, but the last sweep was 30 s ago
		jest.advanceTimersByTime(30_000);
		paceOf('http://api.test/v2', 'token-c');
		expect(pacesKept()).toBe(4);
		// a minute after the last sweep: the three idle for 10.5 minutes are dropped
		jest.advanceTimersByTime(30_000);
		const c = paceOf('http://api.test/v2', 'token-c');
		expect(pacesKept()).toBe(1);
		expect(paceOf('http://api.test/v2', 'token-c')).toBe(c);
		const fresh = paceOf('http://api.test/v2', 'token-a');
		expect(fresh).not.toBe(a);
		expect(fresh.accepted).toBe(0);
	});

	test('the credential object a token comes from (hashed once per run): the same limiter as without it; another token on it, another limiter', () => {
		forgetPaces();
		const credentials = { apiToken: 'token-a' };
		const a = paceOf('http://api.test/v2', 'token-a', credentials);
		expect(paceOf('http://api.test/v2', 'token-a')).toBe(a);
		expect(paceOf('http://api.test/v2', 'token-a', credentials)).toBe(a);
		// The object now carries another token (n8n may add to a credential): never the old digest.
		credentials.apiToken = 'token-b';
		const b = paceOf('http://api.test/v2', 'token-b', credentials);
		expect(b).not.toBe(a);
		expect(paceOf('http://api.test/v2', 'token-b')).toBe(b);
		expect(paceOf('http://other.test/v2', 'token-b', credentials)).not.toBe(b);
	});

	test('forgetPaces forgets them all, and the next call sweeps at once', async () => {
		jest.advanceTimersByTime(IDLE_PACE_MS + 60_000);
		paceOf('http://api.test/v2', 'token-a');
		jest.advanceTimersByTime(IDLE_PACE_MS);
		forgetPaces();
		expect(pacesKept()).toBe(0);
		const a = paceOf('http://api.test/v2', 'token-a');
		paceOf('http://api.test/v2', 'token-b');
		expect(pacesKept()).toBe(2);
		expect(paceOf('http://api.test/v2', 'token-a')).toBe(a);
	});
});
