/**
 * A bounded pool of promises, written once for the node (no library): runs `task(0)` …
 * `task(count - 1)` with at most `concurrency` of them running at any moment, starting them in
 * index order, and resolves with their results in index order (not in completion order).
 *
 * On the first failure the pool stops: no further task is started, the AbortSignal handed to every
 * task fires (so a task waiting — for a shared Retry-After, a backoff — gives up instead of sending),
 * and the pool waits until the tasks already running have settled before it rejects with THAT first
 * error. Nothing is left running behind the caller's back, later errors are dropped (never
 * unhandled), and no partial result escapes. An abort of `outer` (the execution was cancelled)
 * reaches the tasks through the same signal. It is `fetchInOrder` for a list of known length.
 */
export type PoolTask<T> = (index: number, signal: AbortSignal) => Promise<T>;

export async function runPool<T>(
	count: number,
	concurrency: number,
	task: PoolTask<T>,
	outer?: AbortSignal,
): Promise<T[]> {
	const results = new Array<T>(Math.max(0, count));
	const keep = (index: number, value: T): boolean => {
		results[index] = value;
		return true;
	};
	await fetchInOrder(count, concurrency, task, keep, outer, true);
	return results;
}

/**
 * Pages fetched ahead, taken in order: `fetch(0)`, `fetch(1)`, … run at most `concurrency` at a
 * time; `take(index, value)` gets each result in index order and returns false where the list ends,
 * after which nothing new starts. At most `count` fetches.
 *
 * - A list of unknown length: no fetch starts more than `concurrency` past the first result not yet
 *   taken, so at most `concurrency - 1` fetches are wasted past its end; a failed fetch fails the
 *   whole only when its turn comes (one past the end that fails is ignored).
 * - A list of known length (`knownLength`: every one of the `count` fetches is needed): a slot is
 *   refilled as soon as it frees, so one slow page does not hold back the others, and the first
 *   failure fails the whole at once.
 *
 * On failure nothing new starts, the signal fires and the fetches still running are awaited before
 * it rejects with that error. Never leaves anything running behind the caller's back.
 */
export async function fetchInOrder<T>(
	count: number,
	concurrency: number,
	fetch: PoolTask<T>,
	take: (index: number, value: T) => boolean,
	outer?: AbortSignal,
	knownLength = false,
): Promise<void> {
	const controller = new AbortController();
	const { signal } = controller;
	const forward = (): void => controller.abort(outer?.reason);
	if (outer?.aborted) forward();
	else outer?.addEventListener('abort', forward, { once: true });

	const width = Math.max(1, Math.floor(concurrency) || 1);
	const reach = knownLength ? Infinity : width;
	const outcomes = new Map<number, { ok: true; value: T } | { ok: false; error: unknown }>();
	const running = new Set<Promise<void>>();
	let next = 0;
	let taken = 0;
	let failure: { error: unknown } | undefined;
	let settled: (() => void) | undefined;
	const launch = (): void => {
		while (!signal.aborted && !failure && next < count && running.size < width && next < taken + reach) {
			const index = next++;
			const promise: Promise<void> = fetch(index, signal).then(
				(value) => void outcomes.set(index, { ok: true, value }),
				(error: unknown) => {
					outcomes.set(index, { ok: false, error });
					if (knownLength) failure ??= { error };
				},
			);
			running.add(promise);
			void promise.finally(() => {
				running.delete(promise);
				settled?.();
			});
		}
	};
	try {
		launch();
		while (taken < next) {
			if (failure) throw failure.error;
			const outcome = outcomes.get(taken);
			if (outcome === undefined) {
				await new Promise<void>((resolve) => (settled = resolve));
				// A slot may have freed while the first page not taken still runs.
				if (!failure && !outcomes.has(taken)) launch();
				continue;
			}
			outcomes.delete(taken);
			if (!outcome.ok) throw outcome.error;
			if (!take(taken++, outcome.value)) break;
			launch();
		}
		if (signal.aborted) throw signal.reason ?? new Error('cancelled');
	} finally {
		outer?.removeEventListener('abort', forward);
		controller.abort();
		// Fetches never reject (each outcome is caught above); wait until nothing is left running.
		while (running.size > 0) await Promise.all([...running]);
	}
}
