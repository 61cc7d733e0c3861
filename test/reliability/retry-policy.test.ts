/**
 * The retry policy (nodes/shared/retry.ts) on its own: its pure functions and `withRetry` with a
 * fake clock (a stand-in `Clock` whose `sleep` only records and advances a counter) and stand-in
 * sends (functions returning the `Attempt` a test decides), no HTTP. The module's header comment is
 * the documented policy; the literals asserted here are its literals (3 attempts, 1 s doubling up
 * to 8 s ±25 %, 60 s Retry-After ceiling, 20 refusals). Runs in milliseconds, so StrykerJS can use
 * it (docs/development.md, "Mutation testing"); faults.test.ts proves the same policy over HTTP.
 */
import type { Failure, RetryPolicy } from '../../nodes/shared/retry';
import * as retry from '../../nodes/shared/retry';
import { DEFAULT_TIMEOUT_MS } from '../../nodes/shared/transport';

describe('the policy as shipped (pure functions, fake clock)', () => {
	// this file does not substitute the policy (fast-retry.ts): the module's default is the shipped one
	const real: RetryPolicy = retry.DEFAULT_RETRY_POLICY;
	const fixedClock = { now: () => 1_000_000, random: () => 0.5 };

	test('real defaults: 3 attempts, backoff 1 s doubling up to 8 s, Retry-After honoured up to 60 s, 30 s timeout', () => {
		expect(real).toEqual({ maxAttempts: 3, baseDelayMs: 1000, maxDelayMs: 8000, maxRetryAfterMs: 60_000, maxRefusals: 20 });
		expect(Object.isFrozen(real)).toBe(true);
		expect([1, 2, 3, 4, 5].map((n) => retry.backoffDelay(n, real, 0.5))).toEqual([1000, 2000, 4000, 8000, 8000]);
		// ±25 % jitter, still capped
		expect(retry.backoffDelay(1, real, 0)).toBe(750);
		expect(retry.backoffDelay(1, real, 1)).toBe(1250);
		expect(retry.backoffDelay(4, real, 1)).toBe(8000);
		expect(DEFAULT_TIMEOUT_MS).toBe(30_000);
	});

	test('Retry-After: delta-seconds, HTTP date, past date, garbage', () => {
		const now = Date.parse('2026-01-01T00:00:00Z');
		expect(retry.parseRetryAfter('2', now)).toBe(2000);
		expect(retry.parseRetryAfter(' 0 ', now)).toBe(0);
		expect(retry.parseRetryAfter(['5', '9'], now)).toBe(5000);
		expect(retry.parseRetryAfter('Thu, 01 Jan 2026 00:00:30 GMT', now)).toBe(30_000);
		expect(retry.parseRetryAfter('Wed, 31 Dec 2025 23:59:00 GMT', now)).toBe(0);
		expect(retry.parseRetryAfter('soon', now)).toBeUndefined();
		expect(retry.parseRetryAfter('-3', now)).toBeUndefined();
		expect(retry.parseRetryAfter('1.5', now)).toBeUndefined();
		expect(retry.parseRetryAfter(undefined, now)).toBeUndefined();
	});

	/** The retry class of a call without an answer, from an error shaped as Node's (the cause n8n wraps). */
	const noAnswer = (cause: Record<string, string>): Failure =>
		retry.networkFailure(retry.describeNetworkError(new Error('n8n', { cause: Object.assign(new Error(cause.message ?? 'x'), cause) })));
	const failures: Array<[string, Failure]> = [
		['429', retry.statusFailure(429, '0')],
		['500', retry.statusFailure(500)],
		['502', retry.statusFailure(502)],
		['503', retry.statusFailure(503)],
		['timeout', noAnswer({ code: 'ECONNABORTED', message: 'timeout of 2000ms exceeded' })],
		['read timeout', noAnswer({ code: 'ETIMEDOUT', syscall: 'read' })],
		['reset', noAnswer({ code: 'ECONNRESET', syscall: 'read' })],
		['refused', noAnswer({ code: 'ECONNREFUSED', syscall: 'connect' })],
		['connect timeout', noAnswer({ code: 'ETIMEDOUT', syscall: 'connect' })],
		['DNS, temporary', noAnswer({ code: 'EAI_AGAIN', syscall: 'getaddrinfo' })],
		['host unreachable, connecting', noAnswer({ code: 'EHOSTUNREACH', syscall: 'connect' })],
		['host unreachable, reading', noAnswer({ code: 'EHOSTUNREACH', syscall: 'read' })],
		['400', retry.statusFailure(400)],
		['404', retry.statusFailure(404)],
		['409', retry.statusFailure(409)],
		['unknown host', noAnswer({ code: 'ENOTFOUND', syscall: 'getaddrinfo' })],
		['certificate', noAnswer({ code: 'DEPTH_ZERO_SELF_SIGNED_CERT' })],
		['cancelled', noAnswer({ code: 'ERR_CANCELED' })],
	];
	const expected: Record<string, { GET: boolean; POST: boolean }> = {
		'429': { GET: true, POST: true },
		'500': { GET: true, POST: false },
		'502': { GET: true, POST: false },
		'503': { GET: true, POST: false },
		timeout: { GET: true, POST: false },
		'read timeout': { GET: true, POST: false },
		reset: { GET: true, POST: false },
		// nothing reached the API: a POST is sent again like a read
		refused: { GET: true, POST: true },
		'connect timeout': { GET: true, POST: true },
		'DNS, temporary': { GET: true, POST: true },
		'host unreachable, connecting': { GET: true, POST: true },
		'host unreachable, reading': { GET: true, POST: false },
		'400': { GET: false, POST: false },
		'404': { GET: false, POST: false },
		'409': { GET: false, POST: false },
		'unknown host': { GET: false, POST: false },
		certificate: { GET: false, POST: false },
		cancelled: { GET: false, POST: false },
	};

	test.each(failures)('%s: retried for GET / POST exactly as the policy says; never past the last attempt', (name, failure) => {
		for (const method of ['GET', 'POST'] as const) {
			expect({ name, method, retry: retry.decide(failure, method, 1, real, fixedClock).retry }).toEqual({
				name,
				method,
				retry: expected[name][method],
			});
			expect(retry.decide(failure, method, real.maxAttempts, real, fixedClock).retry).toBe(false);
		}
	});

	test('a Retry-After over the cap fails at once and says how long the API asked to wait', () => {
		const decision = retry.decide(retry.statusFailure(429, '120'), 'GET', 1, real, fixedClock);
		expect(decision).toEqual({ retry: false, note: expect.stringContaining('asked to wait 120 s') });
		expect(retry.decide(retry.statusFailure(429, '60'), 'GET', 1, real, fixedClock)).toEqual({
			retry: true,
			delayMs: 60_000,
			rateLimited: true,
		});
	});

	test('withRetry: a 429 moves the shared gate; a second request given the same gate waits for it too', async () => {
		let now = 0;
		const slept: number[] = [];
		const clock = {
			now: () => now,
			random: () => 0.5,
			sleep: async (ms: number) => {
				slept.push(ms);
				now += ms;
			},
		};
		const gate = retry.newRetryGate();
		const answers: Array<retry.Attempt<string>> = [
			{ ok: false, error: new Error('429'), failure: retry.statusFailure(429, '5') },
			{ ok: true, value: 'first' },
		];
		const first = await retry.withRetry(async () => answers.shift()!, { method: 'POST', policy: real, gate, clock });
		expect(first).toBe('first');
		expect(slept).toEqual([5000]);
		expect(gate.notBefore).toBe(5000);

		// A concurrent request that shares the gate (e.g. a parallel page fetch) waits until notBefore.
		gate.notBefore = now + 3000;
		const second = await retry.withRetry(async () => ({ ok: true as const, value: 'second' }), { method: 'GET', policy: real, gate, clock });
		expect(second).toBe('second');
		expect(slept).toEqual([5000, 3000]);
	});

	test('withRetry: GET 503 three times → backoff 1 s, 2 s, then the last error, annotated', async () => {
		const slept: number[] = [];
		const clock = { now: () => 0, random: () => 0.5, sleep: async (ms: number) => void slept.push(ms) };
		let sends = 0;
		const error = new Error('503') as Error & { description?: string };
		error.description = 'The API failed.';
		await expect(
			retry.withRetry(async () => {
				sends++;
				return { ok: false, error, failure: retry.statusFailure(503) };
			}, { method: 'GET', policy: real, clock }),
		).rejects.toBe(error);
		expect(sends).toBe(3);
		expect(slept).toEqual([1000, 2000]);
		expect(error.description).toBe('The API failed. Gave up after 3 attempts.');
	});
});
