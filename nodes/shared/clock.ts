import * as workflow from 'n8n-workflow';

/**
 * Time for the pace and the retries (pace.ts, retry.ts): holds, deadlines and spacing are measured
 * on a clock that never steps back. The wall clock does (NTP, a resumed VM, a changed time zone
 * setting): a hold of 2 s measured on it lasted an hour when it stepped back an hour.
 * `performance` is a global of Node ≥ 16, not one of the globals n8n's community-node lint restricts.
 */
export function monotonicNow(): number {
	return performance.now();
}

type Sleeper = (ms: number, signal?: AbortSignal) => Promise<void>;

/**
 * n8n-workflow 2.x's `sleep` takes a signal and clears its timer when it fires; 1.x's ignores it,
 * and 1.x offers `sleepWithAbort` instead (2.x does not export it).
 */
const stoppableSleep: Sleeper =
	(workflow as unknown as { sleepWithAbort?: Sleeper }).sleepWithAbort ?? (workflow.sleep as Sleeper);

export const cancelledError = (signal: AbortSignal): Error =>
	signal.reason instanceof Error ? signal.reason : new Error('The execution was cancelled');

/**
 * Waits `ms`, or rejects with the cancel's reason the moment `signal` fires (on n8n 1.x too). The
 * timer runs on a private signal, so 1.x's `sleepWithAbort`, which leaves its listener behind, leaves
 * it on nothing that lives on; the one listener on the caller's signal is removed when the wait ends.
 */
export async function waitFor(ms: number, signal?: AbortSignal): Promise<void> {
	if (signal?.aborted) throw cancelledError(signal);
	const stop = new AbortController();
	if (!signal) {
		await stoppableSleep(ms, stop.signal);
		return;
	}
	let onAbort: () => void = () => undefined;
	const cancelled = new Promise<never>((_resolve, reject) => {
		onAbort = () => {
			reject(cancelledError(signal));
			stop.abort();
		};
	});
	signal.addEventListener('abort', onAbort, { once: true });
	try {
		await Promise.race([stoppableSleep(ms, stop.signal), cancelled]);
	} finally {
		signal.removeEventListener('abort', onAbort);
	}
}

/**
 * The reason a wake-up is called off with. `abort()` without one builds a DOMException, stack
 * included, on every call: every request's timeout timer is stopped, and that was more self time
 * than any function of ours in the stall profile (issue 37). The sleep's rejection is dropped
 * unread, so one shared reason serves.
 */
const CALLED_OFF = new Error('called off');

/** A wake-up the caller can call off: `stop()` clears its timer (n8n 1.x and 2.x alike). */
export function wakeAfter(ms: number, wake: () => void): { stop: () => void } {
	const stop = new AbortController();
	stoppableSleep(ms, stop.signal).then(wake, () => undefined);
	return { stop: () => stop.abort(CALLED_OFF) };
}

/**
 * How late a timer may fire and still count as on time: later than this, n8n's loop was busy (a
 * node of another execution preparing thousands of items holds it for seconds at a time).
 */
export const LOOP_BUSY_MS = 100;

/**
 * Calls `fire` once `ms` have passed AND the loop was free at the end: a timer that fires later than
 * LOOP_BUSY_MS looks again LOOP_BUSY_MS later instead. An answer that arrived while the loop was
 * busy is read in that gap (Node runs due timers before it reads sockets), so a request is not
 * declared timed out for the time n8n itself did not look. `stop()` calls it off.
 */
export function afterLoopFreeMs(ms: number, fire: () => void): { stop: () => void } {
	let wake: { stop: () => void } | undefined;
	const arm = (wait: number): void => {
		const due = monotonicNow() + wait;
		wake = wakeAfter(wait, () => {
			if (monotonicNow() - due > LOOP_BUSY_MS) arm(LOOP_BUSY_MS);
			else fire();
		});
	};
	arm(ms);
	return { stop: () => wake?.stop() };
}

/** The longest wait a Node timer holds (about 24.8 days); a longer one would fire at once. */
const LONGEST_TIMER_MS = 2 ** 31 - 1;

/**
 * A wake-up that does not keep the process alive, for housekeeping due long after the work that
 * asked for it (the memory of writes releases a node run an hour after its last activity,
 * writes.ts): n8n-workflow's `sleep` is a plain timer, which would hold a worker that is shutting
 * down, or a test process, for that hour. `AbortSignal.timeout`'s timer is unref'd (Node's
 * documentation of AbortSignal.timeout). `stop()` makes it a no-op (the timer itself cannot be
 * cleared; it ends when due, or with the signal once nothing listens to it). A wait longer than a
 * timer can hold wakes early: the caller looks again then.
 */
export function wakeAfterUnref(ms: number, wake: () => void): { stop: () => void } {
	let live = true;
	const signal = AbortSignal.timeout(Math.min(LONGEST_TIMER_MS, Math.max(0, Math.ceil(ms))));
	signal.addEventListener('abort', () => {
		if (live) wake();
	}, { once: true });
	return {
		stop: () => {
			live = false;
		},
	};
}
