/* eslint-disable -- development tooling, not shipped: n8n's node rules (eslint.config.mjs, n8n-node lint) are for nodes/ and credentials/ */
/**
 * The bounded pools of nodes/shared/pool.ts on their own: `runPool` (the template picker's checks)
 * and `fetchInOrder` (the pages of a list fetched ahead): order, bound, stop, failure, cancellation. Whether a rejection escapes unhandled cannot
 * be seen inside jest (it keeps them from process listeners), so that check runs the pool in a child
 * Node process that fails on any unhandled rejection.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';

import { fetchInOrder, runPool } from '../../nodes/shared/pool';

const pause = async (ms: number): Promise<void> => await new Promise((resolve) => setTimeout(resolve, ms));

describe('runPool', () => {
	test('results in index order whatever order the tasks finish in; never more than `concurrency` at once', async () => {
		let running = 0;
		let most = 0;
		const started: number[] = [];
		const results = await runPool(12, 3, async (index) => {
			started.push(index);
			running++;
			most = Math.max(most, running);
			await pause(((index * 7) % 5) * 3);
			running--;
			return index * 10;
		});
		expect(results).toEqual(Array.from({ length: 12 }, (_, i) => i * 10));
		expect(most).toBe(3);
		expect(started).toEqual(Array.from({ length: 12 }, (_, i) => i));
	});

	test('concurrency 1 runs one task after the other; 0 tasks resolve to []; a concurrency above the count is capped', async () => {
		const log: string[] = [];
		await runPool(3, 1, async (index) => {
			log.push(`start ${index}`);
			await pause(2);
			log.push(`end ${index}`);
		});
		expect(log).toEqual(['start 0', 'end 0', 'start 1', 'end 1', 'start 2', 'end 2']);
		expect(await runPool(0, 4, async () => 1)).toEqual([]);
		let calls = 0;
		expect(await runPool(2, 10, async (i) => (calls++, i))).toEqual([0, 1]);
		expect(calls).toBe(2);
	});

	test('first failure: rejects with THAT error after the running tasks settled; nothing new starts; waiting tasks see the abort', async () => {
		const started: number[] = [];
		const settled: number[] = [];
		let abortedSeenBy: number | undefined;
		const first = new Error('page 1 failed');
		const outcome = runPool(10, 3, async (index, signal) => {
			started.push(index);
			try {
				if (index === 1) {
					await pause(5);
					throw first;
				}
				if (index === 2) {
					// A task waiting (like a shared Retry-After) gives up when the pool aborts.
					await new Promise<void>((_resolve, reject) => {
						signal.addEventListener('abort', () => {
							abortedSeenBy = index;
							reject(new Error('aborted wait'));
						});
					});
				}
				await pause(30);
				if (index === 0) throw new Error('a later failure, dropped');
				return index;
			} finally {
				settled.push(index);
			}
		});
		await expect(outcome).rejects.toBe(first);
		expect(started).toEqual([0, 1, 2]);
		expect(abortedSeenBy).toBe(2);
		// Task 0 was running when task 1 failed: the pool waited for it.
		expect(settled.sort()).toEqual([0, 1, 2]);
	});

	test('the outer signal (execution cancelled) stops the pool and reaches the tasks', async () => {
		const outer = new AbortController();
		const started: number[] = [];
		// Tasks 0-2 finish at once; task 3 cancels the execution and then waits: nothing after it
		// starts. Sequenced by the tasks themselves, not by timers.
		const outcome = runPool(
			10,
			2,
			async (index, signal) => {
				started.push(index);
				if (index < 3) return index;
				if (index === 3) outer.abort(new Error('execution cancelled'));
				await new Promise<void>((_resolve, reject) => {
					if (signal.aborted) reject(new Error('cancelled'));
					signal.addEventListener('abort', () => reject(new Error('cancelled')));
				});
				return index;
			},
			outer.signal,
		);
		await expect(outcome).rejects.toThrow('cancelled');
		expect(started.length).toBeLessThan(10);
		expect(started).toEqual([0, 1, 2, 3]);

		const already = new AbortController();
		already.abort(new Error('cancelled before'));
		let ran = 0;
		await expect(runPool(3, 2, async () => ++ran, already.signal)).rejects.toThrow('cancelled before');
		expect(ran).toBe(0);
	});

	test('no unhandled rejection when several tasks (or pages) fail, at once or later (checked in a child Node process)', () => {
		const poolModule = path.resolve(__dirname, '../../nodes/shared/pool.ts');
		const script = `
			process.on('unhandledRejection', (reason) => { console.error('UNHANDLED', reason); process.exit(3); });
			const { fetchInOrder, runPool } = require(${JSON.stringify(poolModule)});
			const wait = (ms) => new Promise((r) => setTimeout(r, ms));
			(async () => {
				const failures = [];
				for (const width of [1, 2, 4, 8]) {
					try {
						await runPool(20, width, async (i, signal) => {
							await wait(i);
							if (i % 2 === 1) throw new Error('task ' + i);
							await new Promise((resolve, reject) => {
								const t = setTimeout(resolve, 5);
								signal.addEventListener('abort', () => { clearTimeout(t); reject(new Error('aborted ' + i)); });
							});
							return i;
						});
					} catch (error) { failures.push(error.message); }
				}
				for (const width of [1, 3]) {
					try {
						await fetchInOrder(20, width, async (i, signal) => {
							await wait(i % 3);
							if (i >= 2) throw new Error('page ' + i);
							return i;
						}, () => true);
					} catch (error) { failures.push(error.message); }
				}
				await wait(50);
				console.log(JSON.stringify(failures));
			})();
		`;
		const child = spawnSync(process.execPath, ['-r', 'ts-node/register/transpile-only', '-e', script], {
			cwd: path.resolve(__dirname, '../..'),
			encoding: 'utf8',
			timeout: 60_000,
		});
		expect(child.stderr).not.toContain('UNHANDLED');
		expect(child.status).toBe(0);
		expect(JSON.parse(child.stdout.trim())).toEqual(['task 1', 'task 1', 'task 1', 'task 1', 'page 2', 'page 2']);
	});
});

/** A fetch the test answers itself: sequenced by the test, never by timers. */
interface Pending {
	index: number;
	resolve: (value: number) => void;
	reject: (error: Error) => void;
	signal: AbortSignal;
}

/** Runs fetchInOrder with fetches the test settles; `started` lists them in start order. */
function controlled(
	count: number,
	concurrency: number,
	take: (index: number, value: number) => boolean,
	outer?: AbortSignal,
	knownLength = false,
) {
	const started: Pending[] = [];
	let waiters: Array<() => void> = [];
	const done = fetchInOrder(
		count,
		concurrency,
		async (index, signal) =>
			await new Promise<number>((resolve, reject) => {
				started.push({ index, resolve, reject, signal });
				waiters.forEach((wake) => wake());
				waiters = [];
			}),
		take,
		outer,
		knownLength,
	);
	/** resolves once `n` fetches have started */
	const startedCount = async (n: number): Promise<void> => {
		while (started.length < n) await new Promise<void>((resolve) => waiters.push(resolve));
	};
	return { started, done, startedCount };
}

const flush = async (): Promise<void> => {
	for (let i = 0; i < 10; i++) await Promise.resolve();
};

describe('fetchInOrder', () => {
	test('takes results in index order whatever order they arrive in; at most `concurrency` running and ahead of the first not taken', async () => {
		const taken: number[] = [];
		const run = controlled(6, 3, (index, value) => (taken.push(value), true));
		await run.startedCount(3);
		expect(run.started.map((p) => p.index)).toEqual([0, 1, 2]);
		run.started[2].resolve(20);
		run.started[1].resolve(10);
		await flush();
		// Index 0 is not answered yet: nothing taken, nothing new started (the window is anchored at it).
		expect(taken).toEqual([]);
		expect(run.started).toHaveLength(3);
		run.started[0].resolve(0);
		await run.startedCount(6);
		expect(taken).toEqual([0, 10, 20]);
		run.started.slice(3).reverse().forEach((p) => p.resolve(p.index * 10));
		await run.done;
		expect(taken).toEqual([0, 10, 20, 30, 40, 50]);
	});

	test('take() false ends it: nothing new starts, the fetches past the end are awaited, at most concurrency - 1 wasted', async () => {
		const taken: number[] = [];
		const run = controlled(100, 4, (index) => (taken.push(index), index < 5));
		await run.startedCount(4);
		for (let next = 0; next <= 5; next++) {
			await run.startedCount(next + 4);
			run.started[next].resolve(next);
		}
		let settled = false;
		void run.done.then(() => (settled = true));
		await flush();
		// Index 5 ended the list; 6, 7 and 8 were already running: aborted, and awaited.
		expect(taken).toEqual([0, 1, 2, 3, 4, 5]);
		expect(run.started.map((p) => p.index)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8]);
		expect(run.started.slice(6).every((p) => p.signal.aborted)).toBe(true);
		expect(settled).toBe(false);
		run.started[6].resolve(6);
		run.started[7].reject(new Error('a page past the end failed'));
		run.started[8].resolve(8);
		await run.done;
		expect(taken).toEqual([0, 1, 2, 3, 4, 5]);
	});

	test('a failure at its turn rejects with it after the running fetches settled; nothing new starts', async () => {
		const taken: number[] = [];
		const run = controlled(10, 3, (index) => (taken.push(index), true));
		await run.startedCount(3);
		const failure = new Error('page 1 failed');
		run.started[1].reject(failure);
		run.started[0].resolve(0);
		let outcome: unknown;
		void run.done.catch((error: unknown) => (outcome = error));
		await run.startedCount(4);
		await flush();
		expect(taken).toEqual([0]);
		// Index 3 started when 0 was taken; 2 and 3 run on, aborted, and are awaited.
		expect(outcome).toBeUndefined();
		expect(run.started.slice(2).every((p) => p.signal.aborted)).toBe(true);
		run.started[2].resolve(2);
		run.started[3].reject(new Error('aborted'));
		await expect(run.done).rejects.toBe(failure);
		expect(run.started).toHaveLength(4);
	});

	test('the outer signal (execution cancelled) reaches the fetches and ends it', async () => {
		const outer = new AbortController();
		const run = controlled(10, 2, () => true, outer.signal);
		await run.startedCount(2);
		outer.abort(new Error('execution cancelled'));
		expect(run.started.every((p) => p.signal.aborted)).toBe(true);
		run.started.forEach((p) => p.reject(new Error('cancelled')));
		await expect(run.done).rejects.toThrow('cancelled');
		expect(run.started).toHaveLength(2);
	});

	test('a list of known length: a freed slot is refilled while the first page still runs; the first failure fails it at once', async () => {
		const taken: number[] = [];
		const run = controlled(6, 2, (index) => (taken.push(index), true), undefined, true);
		await run.startedCount(2);
		run.started[1].resolve(1);
		// Page 0 still runs, yet page 2 starts in the slot page 1 freed.
		await run.startedCount(3);
		expect(run.started.map((p) => p.index)).toEqual([0, 1, 2]);
		expect(taken).toEqual([]);
		const failure = new Error('page 2 failed');
		run.started[2].reject(failure);
		await flush();
		// Page 0 has not answered: the failure of page 2 ends it anyway, and nothing new starts.
		expect(run.started.map((p) => p.index)).toEqual([0, 1, 2]);
		expect(run.started[0].signal.aborted).toBe(true);
		run.started[0].resolve(0);
		await expect(run.done).rejects.toBe(failure);
		expect(taken).toEqual([]);
	});
});
