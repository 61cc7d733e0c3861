/**
 * The queue of the API's limiter (nodes/shared/waitLine.ts) on its own: three lanes, first come
 * first served in each (interactive calls, then retries, then first sends); a cancel or a timeout
 * only marks a send settled; the send whose deadline comes first at hand; the arrays rebuilt once
 * most of their entries are dead, with the order kept. The sends are plain records, named so.
 */
import type { Lane, QueuedSend } from '../../nodes/shared/waitLine';
import { WaitLine } from '../../nodes/shared/waitLine';

interface Send extends QueuedSend {
	name: string;
}

const send = (name: string, lane: Lane = 'first', deadline = Infinity): Send => ({ name, lane, deadline, settled: false });

/** Takes every send left, in the order the line gives them. */
function drain(line: WaitLine<Send>): string[] {
	const names: string[] = [];
	for (let next = line.take(); next !== undefined; next = line.take()) names.push(next.name);
	return names;
}

describe('the order of the line', () => {
	test('interactive calls, then retries, then first sends; first come first served in each', () => {
		const line = new WaitLine<Send>();
		line.add(send('first1'));
		line.add(send('retry1', 'retry'));
		line.add(send('interactive1', 'interactive'));
		line.add(send('first2'));
		line.add(send('retry2', 'retry'));
		line.add(send('interactive2', 'interactive'));
		expect(line.size).toBe(6);
		expect(drain(line)).toEqual(['interactive1', 'interactive2', 'retry1', 'retry2', 'first1', 'first2']);
		expect(line.size).toBe(0);
		expect(line.take()).toBeUndefined();
	});

	test('a send taken is settled; a removed one is skipped and counted once', () => {
		const line = new WaitLine<Send>();
		const [a, b, c] = [send('a'), send('b'), send('c')];
		line.add(a);
		line.add(b);
		line.add(c);
		line.remove(b);
		line.remove(b);
		expect(b.settled).toBe(true);
		expect(line.size).toBe(2);
		expect(line.take()).toBe(a);
		expect(a.settled).toBe(true);
		// removing a send already taken changes nothing
		line.remove(a);
		expect(line.size).toBe(1);
		expect(drain(line)).toEqual(['c']);
	});
});

describe('deadlines', () => {
	test('the earliest deadline of the sends still waiting; Infinity when none has one', () => {
		const line = new WaitLine<Send>();
		expect(line.nextDeadline()).toBe(Infinity);
		line.add(send('none'));
		expect(line.nextDeadline()).toBe(Infinity);
		const soon = send('soon', 'first', 300);
		for (const [name, deadline] of [
			['d700', 700],
			['d500', 500],
			['d900', 900],
			['d400', 400],
		] as const)
			line.add(send(name, 'first', deadline));
		line.add(soon);
		line.add(send('d600', 'interactive', 600));
		expect(line.nextDeadline()).toBe(300);
		line.remove(soon);
		expect(line.nextDeadline()).toBe(400);
	});

	test('expired(now) takes out the sends whose deadline is at or before now, earliest first, and only those', () => {
		const line = new WaitLine<Send>();
		for (const deadline of [800, 300, 500, 100, 700, 200, 600, 400]) line.add(send(`d${deadline}`, 'first', deadline));
		line.add(send('none'));
		expect(line.expired(50)).toEqual([]);
		expect(line.expired(400).map((entry) => entry.name)).toEqual(['d100', 'd200', 'd300', 'd400']);
		expect(line.size).toBe(5);
		expect(line.nextDeadline()).toBe(500);
		expect(line.expired(Number.MAX_SAFE_INTEGER).map((entry) => entry.name)).toEqual(['d500', 'd600', 'd700', 'd800']);
		expect(drain(line)).toEqual(['none']);
	});

	test('a send taken before its deadline is not expired later', () => {
		const line = new WaitLine<Send>();
		line.add(send('a', 'first', 100));
		line.add(send('b', 'first', 200));
		expect(line.take()!.name).toBe('a');
		expect(line.expired(1000).map((entry) => entry.name)).toEqual(['b']);
		expect(line.size).toBe(0);
	});
});

describe('many sends cancelled or timed out', () => {
	test('100 000 sends, all but every 1 000th removed: the rest come out in order, with their deadlines in order', () => {
		const line = new WaitLine<Send>();
		const all: Send[] = [];
		for (let i = 0; i < 100_000; i++) {
			// deadlines in no order (a permutation of 0 … 99 999), lanes in turn
			const entry = send(`s${i}`, (['first', 'retry', 'interactive'] as const)[i % 3], (i * 7919) % 100_000);
			all.push(entry);
			line.add(entry);
		}
		const kept = all.filter((_, i) => i % 1000 === 0);
		for (const entry of all) if (!kept.includes(entry)) line.remove(entry);
		expect(line.size).toBe(100);
		expect(line.nextDeadline()).toBe(Math.min(...kept.map((entry) => entry.deadline)));
		const byDeadline = [...kept].sort((x, y) => x.deadline - y.deadline);
		expect(line.expired(byDeadline[49].deadline)).toEqual(byDeadline.slice(0, 50));
		const rest = byDeadline.slice(50);
		const order = (['interactive', 'retry', 'first'] as const).flatMap((lane) =>
			kept.filter((entry) => rest.includes(entry) && entry.lane === lane).map((entry) => entry.name),
		);
		expect(drain(line)).toEqual(order);
	});

	test('the deadlines rebuilt right after the earliest was removed: the next earliest is at hand, then the rest in order', () => {
		const line = new WaitLine<Send>();
		// 200 sends, each added with an earlier deadline than the one before (200 ms … 1 ms)
		const all = Array.from({ length: 200 }, (_, i) => send(`d${200 - i}`, 'first', 200 - i));
		for (const entry of all) line.add(entry);
		const byDeadline = [...all].reverse();
		// the earliest cancelled before anyone asked for it, then the 150 latest (the line is rebuilt)
		line.remove(byDeadline[0]);
		for (const entry of byDeadline.slice(50)) line.remove(entry);
		expect(line.size).toBe(49);
		expect(line.nextDeadline()).toBe(2);
		expect(line.expired(49).map((entry) => entry.deadline)).toEqual(byDeadline.slice(1, 49).map((entry) => entry.deadline));
		expect(drain(line)).toEqual(['d50']);
	});

	test('sends added after most were removed still come out after those before them', () => {
		const line = new WaitLine<Send>();
		const early = Array.from({ length: 500 }, (_, i) => send(`early${i}`));
		for (const entry of early) line.add(entry);
		for (const entry of early.slice(1)) line.remove(entry);
		line.add(send('late1'));
		line.add(send('late2', 'first', 10));
		expect(line.size).toBe(3);
		expect(drain(line)).toEqual(['early0', 'late1', 'late2']);
	});
});
