/**
 * Issue 29, "Never stuck": the rows that cannot run against the sandbox over HTTP, on the limiter
 * (pace.ts), the retries (retry.ts) and their clock (clock.ts) directly:
 * - 125 000 waiting sends (n8n's routing engine prepares that many items for minutes): the sends
 *   are given a stand-in request (`answerWith`), named so, instead of HTTP;
 * - the wall clock stepping back an hour, and idle minutes: jest's fake timers, which fake
 *   `Date` and `performance` apart (jest.setSystemTime moves only the wall clock, as NTP does);
 * - n8n 1.x's `sleep`, which takes no signal: 1.x is not installed in the jest job, so its two
 *   functions are copied below from n8n-workflow 1.123.81 (dist/cjs/utils.js), named so.
 */
import { getEventListeners } from 'node:events';

import type { IN8nHttpFullResponse } from 'n8n-workflow';

import { ApiPace, forgetPaces, IDLE_PACE_MS, paceOf, pacesKept } from '../../nodes/shared/pace';
import type { Attempt } from '../../nodes/shared/retry';
import { DEFAULT_RETRY_POLICY, newRetryGate, statusFailure, withRetry } from '../../nodes/shared/retry';

/** Stand-in for an HTTP request: the answer a test decides. */
const answerWith =
	(statusCode: number, headers: Record<string, string> = {}) =>
	async (): Promise<IN8nHttpFullResponse> => ({ statusCode, headers, body: {} });

/** Lets pending promise callbacks run (no timer is involved). */
const settle = async (): Promise<void> => {
	for (let i = 0; i < 5; i++) await Promise.resolve();
};

afterEach(() => {
	jest.useRealTimers();
	forgetPaces();
});

describe('a cancel with 125 000 sends waiting', () => {
	test('no error from the abort listener, every waiting send rejected with the cancel, none of them sent afterwards', async () => {
		const pace = new ApiPace();
		// 10 sends on the wire (the first cap), answered only when the test says.
		const onTheWire: Array<() => void> = [];
		const first = await Promise.all(Array.from({ length: 10 }, async () => (await pace.turn(undefined))!));
		const answered = first.map(
			async (turn) =>
				await turn.send(async () => {
					await new Promise<void>((resolve) => onTheWire.push(resolve));
					return { statusCode: 200, headers: {}, body: {} };
				}),
		);
		const controller = new AbortController();
		let went = 0;
		let cancelled = 0;
		const waiting = Array.from({ length: 125_000 }, async () => {
			try {
				await pace.turn(controller.signal);
				went++;
			} catch (error) {
				if ((error as Error).message === 'cancelled by the test') cancelled++;
			}
		});
		expect(pace.waiting).toBe(125_000);
		expect(() => controller.abort(new Error('cancelled by the test'))).not.toThrow();
		expect(pace.waiting).toBe(0);
		await Promise.all(waiting);
		expect({ went, cancelled }).toEqual({ went: 0, cancelled: 125_000 });
		// The slots free: nothing of the cancelled run goes out.
		for (const answer of onTheWire.splice(0)) answer();
		await Promise.all(answered);
		await settle();
		expect(went).toBe(0);
		expect(pace.inFlight).toBe(0);
		expect(getEventListeners(controller.signal, 'abort')).toEqual([]);
	});
});

describe('the wall clock steps back an hour', () => {
	test('during a 2 s Retry-After hold: the waiting send goes within 2 s (as the hold\'s probe after 1 s), not after an hour', async () => {
		jest.useFakeTimers();
		const pace = new ApiPace();
		const refused = answerWith(429, { 'retry-after': '2' });
		await (await pace.turn(undefined))!.send(refused);
		let went = false;
		const next = pace.turn(undefined).then(() => {
			went = true;
		});
		await settle();
		expect(went).toBe(false);
		jest.setSystemTime(Date.now() - 3_600_000);
		await jest.advanceTimersByTimeAsync(2000);
		expect(went).toBe(true);
		await next;
	});

	test('during a 2 s Retry-After wait of a retry: sent again after 2 s', async () => {
		jest.useFakeTimers();
		const sends: number[] = [];
		const answers: Array<Attempt<string>> = [
			{ ok: false, error: new Error('429'), failure: statusFailure(429, '2') },
			{ ok: true, value: 'done' },
		];
		const result = withRetry(
			async (attempt) => {
				sends.push(attempt);
				return answers.shift()!;
			},
			{ method: 'POST', policy: DEFAULT_RETRY_POLICY, gate: newRetryGate() },
		);
		await jest.advanceTimersByTimeAsync(1000);
		expect(sends).toEqual([1]);
		jest.setSystemTime(Date.now() - 3_600_000);
		await jest.advanceTimersByTimeAsync(1000);
		expect(sends).toEqual([1, 2]);
		await expect(result).resolves.toBe('done');
	});
});

describe('idle limiters are dropped', () => {
	test('1 000 credentials used once and idle for 10 minutes: dropped on the next call; one in use is kept', async () => {
		jest.useFakeTimers();
		forgetPaces();
		for (let i = 0; i < 1000; i++) paceOf('http://api.test/v2', `token-${i}`);
		const inUse = paceOf('http://api.test/v2', 'busy');
		await inUse.turn(undefined);
		expect(pacesKept()).toBe(1001);
		jest.advanceTimersByTime(IDLE_PACE_MS);
		paceOf('http://api.test/v2', 'token-new');
		expect(pacesKept()).toBe(2);
		expect(paceOf('http://api.test/v2', 'busy')).toBe(inUse);
	});

	test('a limiter used within the 10 minutes is kept', () => {
		jest.useFakeTimers();
		forgetPaces();
		const kept = paceOf('http://api.test/v2', 'token');
		jest.advanceTimersByTime(IDLE_PACE_MS - 60_000);
		paceOf('http://api.test/v2', 'token');
		jest.advanceTimersByTime(120_000);
		expect(paceOf('http://api.test/v2', 'other')).not.toBe(kept);
		expect(paceOf('http://api.test/v2', 'token')).toBe(kept);
	});
});

describe('n8n 1.x: a cancel ends a wait at once', () => {
	/** n8n-workflow 1.123.81's `sleep` and `sleepWithAbort` (dist/cjs/utils.js), copied: 1.x is not installed here. */
	const n8nWorkflow1 = {
		sleep: async (ms: number) =>
			await new Promise<void>((resolve) => {
				setTimeout(resolve, ms);
			}),
		sleepWithAbort: async (ms: number, abortSignal?: AbortSignal) =>
			await new Promise<void>((resolve, reject) => {
				if (abortSignal?.aborted) {
					reject(new Error('ManualExecutionCancelledError'));
					return;
				}
				const timeout = setTimeout(resolve, ms);
				const abortHandler = () => {
					clearTimeout(timeout);
					reject(new Error('ManualExecutionCancelledError'));
				};
				abortSignal?.addEventListener('abort', abortHandler, { once: true });
			}),
	};

	/** retry.ts as loaded in n8n 1.x (its n8n-workflow without a signal on `sleep`). */
	function retryOn1x(): typeof import('../../nodes/shared/retry') {
		let loaded: typeof import('../../nodes/shared/retry') | undefined;
		jest.isolateModules(() => {
			jest.doMock('n8n-workflow', () => ({ ...jest.requireActual('n8n-workflow'), ...n8nWorkflow1 }));
			loaded = jest.requireActual<typeof import('../../nodes/shared/retry')>('../../nodes/shared/retry');
		});
		return loaded!;
	}

	test('a cancel during a 30 s Retry-After: the wait ends with the cancel, no timer and no listener left', async () => {
		jest.useFakeTimers();
		const retry = retryOn1x();
		const controller = new AbortController();
		let sends = 0;
		const result = retry.withRetry(
			async () => {
				sends++;
				return { ok: false, error: new Error('429'), failure: retry.statusFailure(429, '30') };
			},
			{ method: 'GET', policy: retry.DEFAULT_RETRY_POLICY, signal: controller.signal },
		);
		await settle();
		expect(sends).toBe(1);
		controller.abort(new Error('cancelled by the test'));
		// No timer is advanced: only the cancel can end the wait.
		await expect(result).rejects.toThrow('cancelled by the test');
		expect(sends).toBe(1);
		expect(jest.getTimerCount()).toBe(0);
		expect(getEventListeners(controller.signal, 'abort')).toEqual([]);
	});

	test('a wait that runs out leaves no listener on the execution\'s signal', async () => {
		jest.useFakeTimers();
		const retry = retryOn1x();
		const controller = new AbortController();
		const answers: Array<Attempt<string>> = [
			{ ok: false, error: new Error('429'), failure: retry.statusFailure(429, '1') },
			{ ok: true, value: 'done' },
		];
		const result = retry.withRetry(async () => answers.shift()!, { method: 'GET', policy: retry.DEFAULT_RETRY_POLICY, signal: controller.signal });
		await jest.advanceTimersByTimeAsync(1000);
		await expect(result).resolves.toBe('done');
		expect(getEventListeners(controller.signal, 'abort')).toEqual([]);
		expect(jest.getTimerCount()).toBe(0);
	});
});

describe('no timer left behind', () => {
	test('a send waiting out a hold and then cancelled: the wake-up timer is cleared with it', async () => {
		jest.useFakeTimers();
		const pace = new ApiPace();
		await (await pace.turn(undefined))!.send(answerWith(429, { 'retry-after': '30' }));
		const controller = new AbortController();
		const waiting = pace.turn(controller.signal);
		expect(jest.getTimerCount()).toBe(1);
		controller.abort(new Error('cancelled by the test'));
		await expect(waiting).rejects.toThrow('cancelled by the test');
		expect(jest.getTimerCount()).toBe(0);
	});

	test('a retry wait asked for after the cancel ends at once, with no timer', async () => {
		jest.useFakeTimers();
		const { waitFor } = jest.requireActual<typeof import('../../nodes/shared/clock')>('../../nodes/shared/clock');
		const controller = new AbortController();
		controller.abort(new Error('cancelled by the test'));
		await expect(waitFor(30_000, controller.signal)).rejects.toThrow('cancelled by the test');
		expect(jest.getTimerCount()).toBe(0);
	});
});
