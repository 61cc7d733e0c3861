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
		expect(heldWrites()).toEqual({ runs: 1, facts: 25, answers: 10 });
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
		expect(heldWrites()).toEqual({ runs: 2, facts: 22_000, answers: 1_000 });
	});

	test('idle runs are dropped with their answers: nothing is held after the bound', async () => {
		for (let item = 0; item < 3_000; item++) await writeOnce(scope(item, 'a'), sent, accepted, clock);
		now += IDLE;
		await writeOnce(scope(0, 'b'), sent, accepted, clock);
		expect(heldWrites()).toEqual({ runs: 1, facts: 1, answers: 1 });
	});

	test('a refused write is not remembered; a changed request is a new write', async () => {
		const refused = async () => ({ kind: 'notDone' as const, error: new Error('refused') });
		await writeOnce(scope(0), { ...sent, url: '/refused' }, refused, clock);
		expect((await writeOnce(scope(0), { ...sent, url: '/refused' }, accepted, clock)).remembered).toBe(false);
		await writeOnce(scope(1), sent, accepted, clock);
		expect((await writeOnce(scope(1), { ...sent, body: { name: 'y' } }, accepted, clock)).remembered).toBe(false);
		// Another run index of the same node (a loop) is not a retry: sent.
		expect((await writeOnce(scope(1, 'bound', 1), sent, accepted, clock)).remembered).toBe(false);
	});
});
