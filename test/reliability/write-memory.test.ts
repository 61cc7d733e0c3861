/* eslint-disable -- development tooling, not shipped: n8n's node rules (eslint.config.mjs, n8n-node lint) are for nodes/ and credentials/ */
/**
 * The memory of writes itself (writes.ts; DESIGN.md "Never twice", amended 2026-11-26), on a fake
 * monotonic clock: one memory per node run, kept until its idle bound after the run's LAST activity
 * (never while a write is on the wire), the fact of every write done kept whatever the size, only the
 * oldest answers forgotten past the answers bound. Through n8n's engine: never-twice.test.ts and
 * never-twice-at-size.test.ts; generated sequences: test/properties/write-memory.model.test.ts.
 */
import type { WriteOutcome } from '../../nodes/shared/writes';
import { forgetAllWrites, heldWrites, limits, SHIPPED_LIMITS, writeOnce } from '../../nodes/shared/writes';

describe('the memory of writes: per node run, idle-bounded, the fact kept (writes.ts)', () => {
	const IDLE = SHIPPED_LIMITS.runIdleMs;
	const scope = (item: number, execution = 'bound', run = 0) => ({ execution, node: 'n', run, item });
	const sent = { method: 'POST', url: '/tag/create', body: { name: 'x' } };
	const accepted = async () => ({ kind: 'accepted' as const, result: { ok: true as const, value: { n: 1 } } });
	let now = 0;
	const clock = () => now;

	beforeEach(() => {
		forgetAllWrites();
		now = 1_000_000_000;
	});
	afterEach(() => {
		Object.assign(limits, SHIPPED_LIMITS);
		forgetAllWrites();
	});

	test('the shipped bounds are the documented ones: 20 000 answers, one hour after the run\'s last activity', () => {
		expect(SHIPPED_LIMITS).toEqual({ maxAnswers: 20_000, runIdleMs: 3_600_000 });
	});

	test('a run longer than the idle bound keeps its first write: the bound counts from the run\'s last activity', async () => {
		let sends = 0;
		const send = async () => {
			sends++;
			return await accepted();
		};
		await writeOnce(scope(0), sent, send, clock);
		// 3 hours of writes of other items, one every half bound.
		for (let item = 1; item <= 6; item++) {
			now += IDLE / 2;
			await writeOnce(scope(item), sent, send, clock);
		}
		now += IDLE - 1;
		expect((await writeOnce(scope(0), sent, send, clock)).remembered).toBe(true);
		expect(sends).toBe(7);
		// Idle for the whole bound since that last activity: the run can no longer be retried.
		now += IDLE;
		expect((await writeOnce(scope(0), sent, send, clock)).remembered).toBe(false);
		expect(sends).toBe(8);
	});

	test('a run with a write on the wire is never dropped, however long the write takes', async () => {
		let release: (outcome: WriteOutcome) => void = () => undefined;
		const held = writeOnce(scope(0), sent, async () => await new Promise<WriteOutcome>((resolve) => (release = resolve)), clock);
		await writeOnce(scope(1), sent, accepted, clock);
		now += 5 * IDLE;
		// Another run's write makes the memory look for idle runs: this one has a write on the wire.
		await writeOnce(scope(0, 'other'), sent, accepted, clock);
		release({ kind: 'accepted', result: { ok: true, value: { n: 2 } } });
		await held;
		expect((await writeOnce(scope(1), sent, accepted, clock)).remembered).toBe(true);
		expect((await writeOnce(scope(0), sent, accepted, clock)).outcome).toEqual({ kind: 'accepted', result: { ok: true, value: { n: 2 } } });
	});

	test('past the answers bound the oldest answers are forgotten, never the facts: no write is sent again', async () => {
		limits.maxAnswers = 10;
		let sends = 0;
		const send = async () => {
			sends++;
			return await accepted();
		};
		for (let item = 0; item < 25; item++) await writeOnce(scope(item), sent, send, clock);
		expect(heldWrites()).toMatchObject({ runs: 1, facts: 25, answers: 10 });
		const retried = [];
		for (let item = 0; item < 25; item++) retried.push(await writeOnce(scope(item), sent, send, clock));
		expect(sends).toBe(25);
		expect(retried.every((write) => write.remembered)).toBe(true);
		// The 15 oldest only as facts, the 10 newest with their answers.
		expect(retried.slice(0, 15).map((write) => write.outcome)).toEqual(Array(15).fill({ kind: 'accepted', forgotten: true }));
		expect(retried.slice(15).map((write) => write.outcome)).toEqual(Array(10).fill({ kind: 'accepted', result: { ok: true, value: { n: 1 } } }));
	});

	test('one execution never evicts another\'s: 12 000 + 10 000 writes, both fully remembered', async () => {
		limits.maxAnswers = 1_000;
		let sends = 0;
		const send = async () => {
			sends++;
			return await accepted();
		};
		for (let item = 0; item < 12_000; item++) {
			await writeOnce(scope(item, 'big'), sent, send, clock);
			if (item < 10_000) await writeOnce(scope(item, 'small'), sent, send, clock);
		}
		expect(sends).toBe(22_000);
		for (let item = 0; item < 10_000; item++) await writeOnce(scope(item, 'small'), sent, send, clock);
		for (let item = 0; item < 12_000; item++) await writeOnce(scope(item, 'big'), sent, send, clock);
		expect(sends).toBe(22_000);
		expect(heldWrites()).toMatchObject({ runs: 2, facts: 22_000, answers: 1_000 });
	});

	test('idle runs are dropped with their answers: nothing is held after the bound', async () => {
		for (let item = 0; item < 3_000; item++) await writeOnce(scope(item, 'a'), sent, accepted, clock);
		now += IDLE;
		await writeOnce(scope(0, 'b'), sent, accepted, clock);
		expect(heldWrites()).toMatchObject({ runs: 1, facts: 1, answers: 1 });
	});

	test('a refused write is not remembered; a changed request is a new write', async () => {
		const refused = async () => ({ kind: 'notDone' as const, error: new Error('refused') });
		await writeOnce(scope(0), { ...sent, url: '/refused' }, refused, clock);
		expect(heldWrites()).toMatchObject({ facts: 0, answers: 0 });
		expect((await writeOnce(scope(0), { ...sent, url: '/refused' }, accepted, clock)).remembered).toBe(false);
		await writeOnce(scope(1), sent, accepted, clock);
		expect((await writeOnce(scope(1), { ...sent, body: { name: 'y' } }, accepted, clock)).remembered).toBe(false);
		// Another run index of the same node (a loop) is not a retry: sent.
		expect((await writeOnce(scope(1, 'bound', 1), sent, accepted, clock)).remembered).toBe(false);
	});

	test('a retry that asks while the first try\'s write is on the wire waits for it: accepted, it is not sent again', async () => {
		let release: (outcome: WriteOutcome) => void = () => undefined;
		let sends = 0;
		const first = writeOnce(scope(0), sent, async () => {
			sends++;
			return await new Promise<WriteOutcome>((resolve) => (release = resolve));
		}, clock);
		const retried = writeOnce(scope(0), sent, async () => {
			sends++;
			return await accepted();
		}, clock);
		// The first try's send starts after the memory's own await: let it reach the wire.
		await new Promise((resolve) => setImmediate(resolve));
		release({ kind: 'accepted', result: { ok: true, value: { n: 7 } } });
		await first;
		expect(await retried).toEqual({ outcome: { kind: 'accepted', result: { ok: true, value: { n: 7 } } }, remembered: true });
		expect(sends).toBe(1);
	});

	test('a retry that waited for a write the API refused sends it itself', async () => {
		let release: (outcome: WriteOutcome) => void = () => undefined;
		const first = writeOnce(scope(0), sent, async () => await new Promise<WriteOutcome>((resolve) => (release = resolve)), clock);
		const retried = writeOnce(scope(0), sent, accepted, clock);
		await new Promise((resolve) => setImmediate(resolve));
		release({ kind: 'notDone', error: new Error('refused') });
		await first;
		expect((await retried).remembered).toBe(false);
		expect((await writeOnce(scope(0), sent, accepted, clock)).remembered).toBe(true);
	});

	test('a write whose own path failed (send threw, no answer) is not remembered: the retry sends it', async () => {
		await expect(writeOnce(scope(0), sent, async () => Promise.reject(new Error('bug')), clock)).rejects.toThrow('bug');
		expect(heldWrites()).toMatchObject({ facts: 0 });
		let sends = 0;
		await writeOnce(scope(0), sent, async () => {
			sends++;
			return await accepted();
		}, clock);
		expect(sends).toBe(1);
	});

	test('an unknown outcome is remembered as unknown, and past the answers bound as the bare fact "unknown"', async () => {
		limits.maxAnswers = 1;
		const unknown = async () => ({ kind: 'unknown' as const, error: new Error('502') });
		await writeOnce(scope(0), sent, unknown, clock);
		expect((await writeOnce(scope(0), sent, accepted, clock)).outcome).toEqual({ kind: 'unknown', error: new Error('502') });
		await writeOnce(scope(1), sent, accepted, clock);
		expect(await writeOnce(scope(0), sent, accepted, clock)).toEqual({ outcome: { kind: 'unknown', forgotten: true }, remembered: true });
	});

	test('the request identifies the write: method, address, query and body (key order aside, undefined fields aside)', async () => {
		const base = { method: 'POST', baseURL: 'http://a/v2', url: '/tag/create', qs: { a: '1' }, body: { name: 'x', list: [1, 2], nested: { b: 2, a: 1 } } };
		await writeOnce(scope(0), base, accepted, clock);
		const same = [
			{ ...base, body: { nested: { a: 1, b: 2 }, list: [1, 2], name: 'x', gone: undefined } },
		];
		for (const request of same) expect((await writeOnce(scope(0), request, accepted, clock)).remembered).toBe(true);
		const other = [
			{ ...base, method: 'PUT' },
			{ ...base, baseURL: 'http://b/v2' },
			{ ...base, baseURL: undefined },
			{ ...base, url: '/tag/other' },
			{ ...base, qs: { a: '2' } },
			{ ...base, qs: undefined },
			{ ...base, body: { ...base.body, list: [2, 1] } },
			{ ...base, body: { ...base.body, nested: { a: 1, b: '2' } } },
			{ ...base, body: undefined },
			{ ...base, body: null },
		];
		for (const request of other) {
			forgetAllWrites();
			await writeOnce(scope(0), base, accepted, clock);
			expect({ request, remembered: (await writeOnce(scope(0), request, accepted, clock)).remembered }).toEqual({ request, remembered: false });
		}
	});

	test('the answers held stay at the bound however many writes come, and drop with idle runs', async () => {
		limits.maxAnswers = 10;
		for (let item = 0; item < 5_000; item++) await writeOnce(scope(item), sent, accepted, clock);
		expect(heldWrites()).toMatchObject({ runs: 1, facts: 5_000, answers: 10 });
		limits.maxAnswers = 100_000;
		for (let run = 0; run < 30; run++) {
			for (let item = 0; item < 200; item++) await writeOnce(scope(item, `idle-${run}`), sent, accepted, clock);
			now += IDLE;
		}
		await writeOnce(scope(0, 'last'), sent, accepted, clock);
		expect(heldWrites()).toEqual({ runs: 1, facts: 1, answers: 1 });
	});

	test('a retry that waited for a write whose own path failed sends it itself', async () => {
		let fail: (error: Error) => void = () => undefined;
		const first = writeOnce(scope(0), sent, async () => await new Promise<WriteOutcome>((_, reject) => (fail = reject)), clock);
		let sends = 0;
		const retried = writeOnce(scope(0), sent, async () => {
			sends++;
			return await accepted();
		}, clock);
		await new Promise((resolve) => setImmediate(resolve));
		fail(new Error('bug'));
		await expect(first).rejects.toThrow('bug');
		expect((await retried).remembered).toBe(false);
		expect(sends).toBe(1);
	});

	test('what identifies a request, further: a list is not an object with the same keys, list entries are apart, key order of many keys', async () => {
		const keys = ['e', 'd', 'c', 'b', 'a'];
		const pairs: Array<[unknown, unknown, boolean]> = [
			[{ list: [1, 2] }, { list: { 0: 1, 1: 2 } }, false],
			[{ list: [12, 3] }, { list: [1, 23] }, false],
			[{ list: [undefined] }, { list: [] }, false],
			[Object.fromEntries(keys.map((key, index) => [key, index])), Object.fromEntries([...keys].reverse().map((key) => [key, keys.indexOf(key)])), true],
			[Object.fromEntries(['c', 'a', 'd', 'b', 'e'].map((key) => [key, key])), Object.fromEntries(['b', 'e', 'a', 'c', 'd'].map((key) => [key, key])), true],
		];
		for (const [first, second, same] of pairs) {
			forgetAllWrites();
			await writeOnce(scope(0), { ...sent, body: first }, accepted, clock);
			const { remembered } = await writeOnce(scope(0), { ...sent, body: second }, accepted, clock);
			expect({ first, second, remembered }).toEqual({ first, second, remembered: same });
		}
	});

	test('after idle runs are dropped with their answers, a live run\'s oldest answers are still the first forgotten, and the count stays exact', async () => {
		for (let item = 0; item < 10; item++) await writeOnce(scope(item, 'live'), sent, accepted, clock);
		limits.maxAnswers = 2_000;
		// Evictions first (the queue's head moves past them), then idle runs to drop.
		for (let item = 0; item < 2_100; item++) await writeOnce(scope(item, 'early'), sent, accepted, clock);
		for (let run = 0; run < 10; run++) for (let item = 0; item < 200; item++) await writeOnce(scope(item, `idle-${run}`), sent, accepted, clock);
		now += IDLE / 2;
		for (let item = 10; item < 12; item++) await writeOnce(scope(item, 'live'), sent, accepted, clock);
		now += IDLE / 2;
		// 'early' and the idle runs are dropped now ('live' was active half a bound ago).
		await writeOnce(scope(12, 'live'), sent, accepted, clock);
		expect(heldWrites()).toMatchObject({ runs: 1, facts: 13 });
		const held = heldWrites().answers;
		// live's answers of items 10-12 (0-9 were forgotten when 'early' came).
		expect(held).toBe(3);
		limits.maxAnswers = 2;
		await writeOnce(scope(13, 'live'), sent, accepted, clock);
		expect(heldWrites()).toMatchObject({ runs: 1, facts: 14, answers: 2 });
		// The newest 2 answered (12, 13), the older only as facts.
		expect((await writeOnce(scope(11, 'live'), sent, accepted, clock)).outcome).toEqual({ kind: 'accepted', forgotten: true });
		expect((await writeOnce(scope(12, 'live'), sent, accepted, clock)).outcome).toEqual({ kind: 'accepted', result: { ok: true, value: { n: 1 } } });
		expect((await writeOnce(scope(13, 'live'), sent, accepted, clock)).outcome).toEqual({ kind: 'accepted', result: { ok: true, value: { n: 1 } } });
	});

	test('a run active again moves behind the idle ones: the idle run created after it is still dropped', async () => {
		await writeOnce(scope(0, 'first'), sent, accepted, clock);
		await writeOnce(scope(0, 'second'), sent, accepted, clock);
		now += IDLE - 1;
		await writeOnce(scope(1, 'first'), sent, accepted, clock);
		now += 1;
		await writeOnce(scope(2, 'first'), sent, accepted, clock);
		expect(heldWrites()).toMatchObject({ runs: 1, facts: 3 });
	});

	test('a dropped run\'s answers leave with it: the live run\'s oldest answer is the one forgotten', async () => {
		limits.maxAnswers = 4;
		for (let item = 0; item < 2; item++) await writeOnce(scope(item, 'dropped'), sent, accepted, clock);
		now += IDLE;
		for (let item = 0; item < 5; item++) await writeOnce(scope(item, 'live'), sent, accepted, clock);
		expect(heldWrites()).toMatchObject({ runs: 1, facts: 5, answers: 4 });
		expect((await writeOnce(scope(0, 'live'), sent, accepted, clock)).outcome).toEqual({ kind: 'accepted', forgotten: true });
		expect((await writeOnce(scope(1, 'live'), sent, accepted, clock)).outcome).toEqual({ kind: 'accepted', result: { ok: true, value: { n: 1 } } });
	});
});
