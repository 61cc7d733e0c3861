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

	test.each(failures)('%s: retried for GET / POST exactly as the policy says; never past the last attempt (a 429 is no attempt)', (name, failure) => {
		for (const method of ['GET', 'POST'] as const) {
			expect({ name, method, retry: retry.decide(failure, { method: method }, 1, real, fixedClock).retry }).toEqual({
				name,
				method,
				retry: expected[name][method],
			});
			expect(retry.decide(failure, { method: method }, real.maxAttempts, real, fixedClock).retry).toBe(failure.kind === 'rateLimited');
		}
	});

	test('a Retry-After over the cap fails at once and says how long the API asked to wait', () => {
		const decision = retry.decide(retry.statusFailure(429, '120'), { method: 'GET' }, 1, real, fixedClock);
		expect(decision).toEqual({ retry: false, note: expect.stringContaining('asked to wait 120 s') });
		expect(retry.decide(retry.statusFailure(429, '60'), { method: 'GET' }, 1, real, fixedClock)).toEqual({
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

/**
 * A fake clock, named so: `now` is a counter that only `sleep` moves (by the time asked), the wall
 * clock is `wallStart` plus that counter, and every sleep is recorded with the signal it was given.
 */
function fakeClock(options: { random?: number; wallStart?: number; onSleep?: (ms: number) => void } = {}) {
	const clock = {
		t: 0,
		slept: [] as number[],
		now: () => clock.t,
		wallNow: () => (options.wallStart ?? 0) + clock.t,
		random: () => options.random ?? 0.5,
		sleep: async (ms: number) => {
			clock.slept.push(ms);
			clock.t += ms;
			options.onSleep?.(ms);
		},
	};
	return clock;
}

/** A failed send as `withRetry` is given it: the error to surface and its retry class. */
const failed = (failure: Failure, description?: string | null): retry.Attempt<string> => ({
	ok: false,
	error: Object.assign(new Error('the request failed'), { description }),
	failure,
});

/**
 * Stand-in for the request (no HTTP): answers with `answer(n)` for send n and records every send.
 * `pace` plays the API's limiter: its `accepted` is what a test sets.
 */
function standIn(answer: (attempt: number) => retry.Attempt<string>) {
	const sent: number[] = [];
	const send = async (attempt: number): Promise<retry.Attempt<string>> => {
		sent.push(attempt);
		return answer(attempt);
	};
	return { send, sent };
}

/** What `withRetry` threw (it always throws the last attempt's error, annotated). */
async function thrown(promise: Promise<unknown>): Promise<Error & { description?: string | null }> {
	try {
		await promise;
	} catch (error) {
		return error as Error & { description?: string | null };
	}
	throw new Error('expected withRetry to throw');
}

const problem = (fields: Partial<retry.NetworkProblem>): retry.NetworkProblem => ({
	code: undefined,
	timedOut: false,
	cancelled: false,
	nothingSent: false,
	...fields,
});

/** Node's system error as `net`/`dns` build it: "<syscall> <CODE> <address>", with code and syscall. */
const nodeError = (syscall: string, code: string, address: string): Error =>
	Object.assign(new Error(`${syscall} ${code} ${address}`), { code, syscall, errno: -1 });
/** axios' error around it (AxiosError.from copies the code) and n8n 2.x's NodeApiError around that. */
const axiosError = (cause: unknown, code: string | undefined, message = ''): Error =>
	Object.assign(new Error(message, { cause }), { name: 'AxiosError', code, isAxiosError: true });
const n8n2Error = (cause: Error & { code?: string }): Error =>
	Object.assign(new Error('The service refused the connection - perhaps it is offline', { cause }), {
		name: 'NodeApiError',
		httpCode: cause.code ?? null,
	});
/** n8n 1.x's NodeApiError (as in unreachable.test.ts): the cause dropped, the code in httpCode, Node's message in messages. */
const n8n1Error = (code: string, nodeMessage: string): Error =>
	Object.assign(new Error('The service refused the connection - perhaps it is offline'), {
		cause: undefined,
		httpCode: code,
		messages: [nodeMessage, nodeMessage],
	});

const POST_NOTE = (reason: string): string =>
	`Not retried: the API may have carried out this POST before failing (${reason}), and sending it again could do it twice. Check the result on the platform before running it again.`;

describe('describeNetworkError: the error shapes n8n, axios, undici and Node produce', () => {
	test("n8n 2.x: n8n's error → axios' error → Node's (connect ECONNREFUSED 127.0.0.1:1): refused, nothing sent", () => {
		const node = nodeError('connect', 'ECONNREFUSED', '127.0.0.1:1');
		const axios = axiosError(node, 'ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:1');
		const outer = n8n2Error(axios);
		expect(retry.describeNetworkError(outer)).toEqual(problem({ code: 'ECONNREFUSED', nothingSent: true }));
		const chain = retry.causesOf(outer);
		expect(chain).toHaveLength(3);
		expect([chain[0] === outer, chain[1] === axios, chain[2] === node]).toEqual([true, true, true]);
	});

	test("n8n 1.x: the cause dropped; the code from httpCode, the step from Node's message in `messages`", () => {
		expect(retry.describeNetworkError(n8n1Error('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:1'))).toEqual(
			problem({ code: 'ECONNREFUSED', nothingSent: true }),
		);
		// EHOSTUNREACH is not "nothing sent" by its code: only the message says it failed connecting
		expect(retry.describeNetworkError(n8n1Error('EHOSTUNREACH', 'connect EHOSTUNREACH 10.0.0.1:443'))).toEqual(
			problem({ code: 'EHOSTUNREACH', nothingSent: true }),
		);
		expect(retry.describeNetworkError(n8n1Error('EHOSTUNREACH', 'read EHOSTUNREACH'))).toEqual(problem({ code: 'EHOSTUNREACH' }));
		expect(retry.describeNetworkError(n8n1Error('ECONNRESET', 'read ECONNRESET'))).toEqual(problem({ code: 'ECONNRESET' }));
		// axios' timeout, as 1.x keeps it: ECONNABORTED with "timeout of … exceeded" in the messages
		expect(retry.describeNetworkError(n8n1Error('ECONNABORTED', 'timeout of 2000ms exceeded'))).toEqual(
			problem({ code: 'ECONNABORTED', timedOut: true }),
		);
	});

	test("Node's message names the host the call was for (n8n 1.x keeps only the message)", () => {
		const match = retry.NOTHING_SENT_MESSAGE.exec('connect ECONNREFUSED 127.0.0.1:1');
		expect(match?.[1]).toBe('127.0.0.1:1');
		expect(retry.NOTHING_SENT_MESSAGE.exec('getaddrinfo ENOTFOUND api.example.invalid')?.[1]).toBe('api.example.invalid');
		expect(retry.NOTHING_SENT_MESSAGE.test('read ECONNRESET')).toBe(false);
	});

	test('Node ≥ 20 trying IPv6 and IPv4 (autoSelectFamily): an AggregateError with the code only, no message, no syscall', () => {
		const aggregate = Object.assign(new AggregateError([nodeError('connect', 'ECONNREFUSED', '::1:1'), nodeError('connect', 'ECONNREFUSED', '127.0.0.1:1')], ''), {
			code: 'ECONNREFUSED',
		});
		expect(retry.describeNetworkError(n8n2Error(axiosError(aggregate, 'ECONNREFUSED')))).toEqual(problem({ code: 'ECONNREFUSED', nothingSent: true }));
	});

	// The codes that only a connection failing before the request was written gives, each on its
	// own (no syscall, a message that does not name the step: undici's and TLS's errors look so).
	// Retried (for every method) as the header says: refused, a temporary DNS failure, a connect
	// timeout; an unknown host and certificate errors fail at once (another try fails the same way).
	test.each([
		['ECONNREFUSED', true],
		['EAI_AGAIN', true],
		['UND_ERR_CONNECT_TIMEOUT', true],
		['ENOTFOUND', false],
		['EAI_FAIL', false],
		['EAI_NONAME', false],
		['CERT_HAS_EXPIRED', false],
		['CERT_NOT_YET_VALID', false],
		['CERT_UNTRUSTED', false],
		['DEPTH_ZERO_SELF_SIGNED_CERT', false],
		['SELF_SIGNED_CERT_IN_CHAIN', false],
		['UNABLE_TO_GET_ISSUER_CERT', false],
		['UNABLE_TO_GET_ISSUER_CERT_LOCALLY', false],
		['UNABLE_TO_VERIFY_LEAF_SIGNATURE', false],
		['ERR_TLS_CERT_ALTNAME_INVALID', false],
		['ERR_SSL_WRONG_VERSION_NUMBER', false],
	])('%s alone: nothing was sent; a POST retried: %s', (code, retried) => {
		const described = retry.describeNetworkError(axiosError(Object.assign(new Error('the connection failed'), { code }), code));
		expect(described.nothingSent).toBe(true);
		const failure = retry.networkFailure(described);
		expect({ GET: retry.decide(failure, { method: 'GET' }, 1, retry.DEFAULT_RETRY_POLICY).retry, POST: retry.decide(failure, { method: 'POST' }, 1, retry.DEFAULT_RETRY_POLICY).retry }).toEqual({
			GET: retried,
			POST: retried,
		});
	});

	test("a connect timeout (Node's connect ETIMEDOUT, undici's UND_ERR_CONNECT_TIMEOUT) is a timeout at which nothing was sent", () => {
		expect(retry.describeNetworkError(n8n2Error(axiosError(nodeError('connect', 'ETIMEDOUT', '10.0.0.1:443'), 'ETIMEDOUT')))).toEqual(
			problem({ code: 'ETIMEDOUT', timedOut: true, nothingSent: true }),
		);
		const undici = Object.assign(new Error('Connect Timeout Error (attempted address: api.example.com:443, timeout: 10000ms)'), { code: 'UND_ERR_CONNECT_TIMEOUT' });
		expect(retry.describeNetworkError(new TypeError('fetch failed', { cause: undici }))).toEqual(
			problem({ code: 'UND_ERR_CONNECT_TIMEOUT', timedOut: true, nothingSent: true }),
		);
	});

	test('the step named by the syscall alone (connect, getaddrinfo) also means nothing was sent', () => {
		const wrapped = (syscall: string, code: string) => Object.assign(new Error('the connection failed'), { code, syscall });
		expect(retry.describeNetworkError(wrapped('getaddrinfo', 'EAI_MEMORY')).nothingSent).toBe(true);
		expect(retry.describeNetworkError(wrapped('connect', 'ENETUNREACH')).nothingSent).toBe(true);
		expect(retry.describeNetworkError(wrapped('read', 'ENETUNREACH')).nothingSent).toBe(false);
		expect(retry.describeNetworkError(wrapped('write', 'EPIPE')).nothingSent).toBe(false);
	});

	// Timeouts are retried for GET only (the request may have been written), named "timeout".
	test.each([
		['ETIMEDOUT (read)', true, nodeError('read', 'ETIMEDOUT', '')],
		['ESOCKETTIMEDOUT', true, Object.assign(new Error('ESOCKETTIMEDOUT'), { code: 'ESOCKETTIMEDOUT' })],
		['UND_ERR_HEADERS_TIMEOUT', true, Object.assign(new Error('Headers Timeout Error'), { code: 'UND_ERR_HEADERS_TIMEOUT' })],
		['UND_ERR_BODY_TIMEOUT', true, Object.assign(new Error('Body Timeout Error'), { code: 'UND_ERR_BODY_TIMEOUT' })],
		["axios' timeout (ECONNABORTED, 'timeout of 2000ms exceeded')", true, axiosError(undefined, 'ECONNABORTED', 'timeout of 2000ms exceeded')],
		["axios' aborted request (ECONNABORTED, 'Request aborted')", false, axiosError(undefined, 'ECONNABORTED', 'Request aborted')],
		['a reset (ECONNRESET, socket hang up)', false, axiosError(nodeError('read', 'ECONNRESET', ''), 'ECONNRESET', 'socket hang up')],
	] as Array<[string, boolean, Error]>)('%s: timed out: %s', (_name, timedOut, error) => {
		const described = retry.describeNetworkError(error);
		expect(described.timedOut).toBe(timedOut);
		const failure = retry.networkFailure(described);
		expect(failure).toEqual({ kind: 'transient', reason: timedOut ? 'timeout' : described.code, nothingSent: false });
		expect(retry.decide(failure, { method: 'GET' }, 1, retry.DEFAULT_RETRY_POLICY).retry).toBe(true);
		expect(retry.decide(failure, { method: 'POST' }, 1, retry.DEFAULT_RETRY_POLICY)).toEqual({ retry: false, note: POST_NOTE(timedOut ? 'timeout' : String(described.code)) });
	});

	test.each(['ECONNRESET', 'ECONNABORTED', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'ENETDOWN', 'UND_ERR_SOCKET'])(
		'%s after the request may have been written: retried for GET only, the code named in the POST note',
		(code) => {
			const failure = retry.networkFailure(retry.describeNetworkError(axiosError(Object.assign(new Error('other side closed'), { code, syscall: 'read' }), code)));
			expect(failure).toEqual({ kind: 'transient', reason: code, nothingSent: false });
			expect(retry.decide(failure, { method: 'GET' }, 1, retry.DEFAULT_RETRY_POLICY).retry).toBe(true);
			expect(retry.decide(failure, { method: 'POST' }, 1, retry.DEFAULT_RETRY_POLICY)).toEqual({ retry: false, note: POST_NOTE(code) });
		},
	);

	test('an error without a code fails at once, whatever its message says', () => {
		const described = retry.describeNetworkError(new Error('Request timeout while reading the answer'));
		expect(described).toEqual(problem({}));
		expect(retry.networkFailure(described)).toEqual({ kind: 'final' });
		// an HTTP status kept as httpCode is not an error code
		expect(retry.describeNetworkError(Object.assign(new Error('x'), { httpCode: '503' })).code).toBeUndefined();
	});

	test('whatever was thrown (undefined, a text) is read without failing: no code, nothing known', () => {
		expect(retry.describeNetworkError(undefined)).toEqual(problem({}));
		expect(retry.describeNetworkError('socket closed')).toEqual(problem({}));
	});

	test("a cancelled execution (axios' CanceledError, an AbortError) fails at once and is never 'nothing sent'", () => {
		const canceled = Object.assign(new Error('canceled'), { name: 'CanceledError', code: 'ERR_CANCELED' });
		expect(retry.describeNetworkError(canceled)).toEqual(problem({ code: 'ERR_CANCELED', cancelled: true }));
		// a DOMException's numeric legacy code (20) is no error code
		const abort = new DOMException('This operation was aborted', 'AbortError');
		expect(retry.describeNetworkError(abort)).toEqual(problem({ cancelled: true }));
		// cancelled while connecting: still a cancel, not a refused connection to retry
		const whileConnecting = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { name: 'AbortError', code: 'ECONNREFUSED', syscall: 'connect' });
		expect(retry.describeNetworkError(whileConnecting)).toEqual(problem({ code: 'ECONNREFUSED', cancelled: true }));
		expect(retry.networkFailure(retry.describeNetworkError(whileConnecting))).toEqual({ kind: 'final' });
		expect(retry.networkFailure(problem({ code: 'ECONNRESET', cancelled: true }))).toEqual({ kind: 'final' });
	});
});

describe('causesOf: the error and its causes, outermost first', () => {
	test('a cause that is itself (or loops back) is listed once', () => {
		const self = new Error('self');
		(self as { cause?: unknown }).cause = self;
		expect(retry.causesOf(self)).toHaveLength(1);
		const a = new Error('a');
		const b = new Error('b', { cause: a });
		(a as { cause?: unknown }).cause = b;
		const chain = retry.causesOf(a);
		expect([chain.length, chain[0] === a, chain[1] === b]).toEqual([2, true, true]);
	});

	test('a cause that is not an error object (a text) is not a level', () => {
		const error = new Error('write failed', { cause: 'disk full' });
		const chain = retry.causesOf(error);
		expect([chain.length, chain[0] === error]).toEqual([1, true]);
	});

	test('an endless chain (each cause made on reading it) ends, n8n, axios and Node kept', () => {
		const endless = (depth: number): object => ({
			depth,
			get cause() {
				return endless(depth + 1);
			},
		});
		const chain = retry.causesOf(endless(0)) as Array<{ depth: number }>;
		expect(chain.slice(0, 3).map((level) => level.depth)).toEqual([0, 1, 2]);
		expect(chain.length).toBeLessThan(10);
	});
});

describe('statusFailure: the retry class of an HTTP answer that is an error', () => {
	test('429 → rate limited (its Retry-After kept); 5xx, 500 to 599 → transient "HTTP <status>"; others final', () => {
		expect(retry.statusFailure(429, '3')).toEqual({ kind: 'rateLimited', retryAfter: '3' });
		expect(retry.statusFailure(500)).toEqual({ kind: 'transient', reason: 'HTTP 500' });
		expect(retry.statusFailure(599)).toEqual({ kind: 'transient', reason: 'HTTP 599' });
		expect(retry.statusFailure(499)).toEqual({ kind: 'final' });
		expect(retry.statusFailure(600)).toEqual({ kind: 'final' });
		expect(retry.decide(retry.statusFailure(503), { method: 'POST' }, 1, retry.DEFAULT_RETRY_POLICY)).toEqual({ retry: false, note: POST_NOTE('HTTP 503') });
	});
});

describe('parseRetryAfter: seconds, HTTP dates, junk, negative, huge', () => {
	const now = Date.parse('2026-01-01T00:00:00.500Z');
	test('delta-seconds as text (trimmed) or as a number', () => {
		expect(retry.parseRetryAfter(' 120 ', now)).toBe(120_000);
		expect(retry.parseRetryAfter(3, now)).toBe(3000);
		expect(retry.parseRetryAfter(0, now)).toBe(0);
		expect(retry.parseRetryAfter([7], now)).toBe(7000);
		// huge: read as asked; decide() then refuses it (over 60 s)
		expect(retry.parseRetryAfter('99999999999', now)).toBe(99_999_999_999_000);
	});

	test('an HTTP date: the time from now to it, 0 when past', () => {
		expect(retry.parseRetryAfter('Thu, 01 Jan 2026 00:01:31 GMT', now)).toBe(90_500);
		expect(retry.parseRetryAfter('Thu, 01 Jan 2026 00:00:00 GMT', now)).toBe(0);
	});

	test('unusable: negative, not finite, fractions, words, an ISO date without names, other types', () => {
		for (const value of [-1, Number.NaN, Number.POSITIVE_INFINITY, '-3', '1.5', 'soon', '', '   ', '12abc', '2026-01-01', null, {}, true, []]) {
			expect({ value, parsed: retry.parseRetryAfter(value, now) }).toEqual({ value, parsed: undefined });
		}
	});
});

describe('backoffDelay: 1 s × 2^(n-1), ±25 % jitter, at most 8 s', () => {
	test('the jitter spans 75 % to 125 % of each step, whole milliseconds, capped at 8 s', () => {
		const policy = retry.DEFAULT_RETRY_POLICY;
		expect([0, 0.25, 0.5, 0.75, 1].map((r) => retry.backoffDelay(2, policy, r))).toEqual([1500, 1750, 2000, 2250, 2500]);
		expect(retry.backoffDelay(3, policy, 0)).toBe(3000);
		expect(retry.backoffDelay(3, policy, 1)).toBe(5000);
		expect(retry.backoffDelay(4, policy, 0)).toBe(6000);
		expect(retry.backoffDelay(1, policy, 0.123)).toBe(812); // 811.5 ms rounded
		expect(retry.backoffDelay(10, policy, 0)).toBe(8000);
	});
});

describe('decide: each branch, and the notes the user reads', () => {
	const policy = retry.DEFAULT_RETRY_POLICY;
	const wallStart = Date.parse('2026-01-01T00:00:00Z');
	const clock = { now: () => 0, wallNow: () => wallStart, random: () => 0.5 };

	test('a Retry-After over 60 s: the note says how long, the 60 s ceiling and when to try again (UTC)', () => {
		expect(retry.decide(retry.statusFailure(429, '120'), { method: 'POST' }, 1, policy, clock)).toEqual({
			retry: false,
			note: 'The API asked to wait 120 s before trying again, longer than the node waits (60 s), so it was not retried. Try again after 2026-01-01 00:02:00 UTC.',
		});
		const halfPast = { ...clock, wallNow: () => wallStart + 500 };
		expect(retry.decide(retry.statusFailure(429, 'Thu, 01 Jan 2026 00:01:31 GMT'), { method: 'GET' }, 1, policy, halfPast)).toEqual({
			retry: false,
			note: 'The API asked to wait 90.5 s before trying again, longer than the node waits (60 s), so it was not retried. Try again after 2026-01-01 00:01:31 UTC.',
		});
	});

	test('429 without Retry-After: the backoff by the number of 429s, past the 3 attempts too (a 429 is no failed attempt); at the API\'s pace: at once', () => {
		expect(retry.decide(retry.statusFailure(429), { method: 'POST' }, 2, policy, clock)).toEqual({ retry: true, delayMs: 2000, rateLimited: true });
		expect(retry.decide(retry.statusFailure(429), { method: 'POST' }, 3, policy, clock)).toEqual({ retry: true, delayMs: 4000, rateLimited: true });
		expect(retry.decide(retry.statusFailure(429), { method: 'POST' }, 12, policy, clock)).toEqual({ retry: true, delayMs: 8000, rateLimited: true });
		const paced: Failure = { kind: 'rateLimited', paced: true };
		expect(retry.decide(paced, { method: 'POST' }, 1, policy, clock)).toEqual({ retry: true, delayMs: 0, rateLimited: true });
		expect(retry.decide(paced, { method: 'POST' }, 3, policy, clock)).toEqual({ retry: true, delayMs: 0, rateLimited: true });
		expect(retry.decide({ kind: 'rateLimited', paced: true, retryAfter: '2' }, { method: 'POST' }, 5, policy, clock)).toEqual({ retry: true, delayMs: 2000, rateLimited: true });
	});

	test('a Retry-After beyond every date JavaScript can name (9999999999999 s): not retried, the wait named in seconds, no time to try again (no crash)', () => {
		expect(retry.decide(retry.statusFailure(429, '9999999999999'), { method: 'POST' }, 1, policy, clock)).toEqual({
			retry: false,
			note: 'The API asked to wait 9999999999999 s before trying again, longer than the node waits (60 s), so it was not retried.',
		});
		expect(retry.clockTime(8.64e15 + 1)).toBeUndefined();
		expect(retry.clockTime(0)).toBe('1970-01-01 00:00:00 UTC');
	});

	test('a POST that only asks (repeatable): an ambiguous failure is retried like a read', () => {
		const failure = retry.statusFailure(502);
		expect(retry.decide(failure, { method: 'POST', repeatable: true }, 1, policy, clock)).toEqual({ retry: true, delayMs: 1000, rateLimited: false });
		expect(retry.decide(failure, { method: 'POST', repeatable: true }, 3, policy, clock)).toEqual({ retry: false, note: 'Gave up after 3 attempts.' });
		expect(retry.decide(failure, { method: 'GET', repeatable: false }, 1, policy, clock)).toEqual({ retry: false, note: POST_NOTE('HTTP 502').replace('POST', 'GET') });
	});

	test('an ambiguous failure: GET, HEAD and OPTIONS (any case) retried with the backoff; other methods get the note, named in capitals', () => {
		const failure = retry.statusFailure(502);
		for (const method of ['GET', 'get', 'HEAD', 'OPTIONS']) {
			expect({ method, decision: retry.decide(failure, { method: method }, 1, policy, clock) }).toEqual({ method, decision: { retry: true, delayMs: 1000, rateLimited: false } });
		}
		for (const method of ['POST', 'post', 'PUT', 'PATCH', 'DELETE']) {
			expect({ method, decision: retry.decide(failure, { method: method }, 1, policy, clock) }).toEqual({
				method,
				decision: { retry: false, note: POST_NOTE('HTTP 502').replace('POST', method.toUpperCase()) },
			});
		}
		expect(retry.decide(failure, { method: 'GET' }, 3, policy, clock)).toEqual({ retry: false, note: 'Gave up after 3 attempts.' });
	});

	test('nothing sent: a POST is retried like a read; final failures are not retried, without a note', () => {
		const refused: Failure = { kind: 'transient', reason: 'ECONNREFUSED', nothingSent: true };
		expect(retry.decide(refused, { method: 'POST' }, 2, policy, clock)).toEqual({ retry: true, delayMs: 2000, rateLimited: false });
		expect(retry.decide({ kind: 'final' }, { method: 'GET' }, 1, policy, clock)).toEqual({ retry: false });
	});
});

describe('withRetry: the sends of one request (stand-in sends, fake clock)', () => {
	const policy = retry.DEFAULT_RETRY_POLICY;

	test('without a policy: the shipped one (3 sends, 1 s then 2 s); each send is told its number', async () => {
		const clock = fakeClock();
		const { send, sent } = standIn(() => failed(retry.statusFailure(503)));
		const error = await thrown(retry.withRetry(send, { method: 'GET', clock }));
		expect(sent).toEqual([1, 2, 3]);
		expect(clock.slept).toEqual([1000, 2000]);
		expect(error.description).toBe('Gave up after 3 attempts.');
	});

	test("a policy given is the one used (the other test files' shortened backoff, fast-retry.ts)", async () => {
		const clock = fakeClock();
		const { send, sent } = standIn((n) => (n < 3 ? failed(retry.statusFailure(500)) : { ok: true, value: 'third' }));
		await expect(retry.withRetry(send, { method: 'GET', clock, policy: { ...policy, baseDelayMs: 20, maxDelayMs: 80 } })).resolves.toBe('third');
		expect(sent).toEqual([1, 2, 3]);
		expect(clock.slept).toEqual([20, 40]);
	});

	test("an error's description keeps what it said, plus why it was not (or no longer) retried", async () => {
		// final at once: nothing added
		const first = await thrown(retry.withRetry(standIn(() => failed({ kind: 'final' }, 'The API said no.')).send, { method: 'GET', clock: fakeClock() }));
		expect(first.description).toBe('The API said no.');
		const bare = await thrown(retry.withRetry(standIn(() => failed({ kind: 'final' })).send, { method: 'GET', clock: fakeClock() }));
		expect(bare.description).toBeUndefined();
		// final after a retry: how often it was sent (NodeApiError's description may be null)
		const { send } = standIn((n) => failed(n === 1 ? retry.statusFailure(503) : retry.statusFailure(404), null));
		expect((await thrown(retry.withRetry(send, { method: 'GET', clock: fakeClock() }))).description).toBe('Sent 2 times.');
		// a POST's ambiguous failure: the note, appended
		const post = await thrown(retry.withRetry(standIn(() => failed(retry.statusFailure(500), 'The API failed.')).send, { method: 'POST', clock: fakeClock() }));
		expect(post.description).toBe(`The API failed. ${POST_NOTE('HTTP 500')}`);
	});

	test('a 429 not at the pace (the limiter accepted nothing else meanwhile) is no failed attempt: sent again, with the backoff, until the limiter finds that the API refuses everything', async () => {
		const clock = fakeClock();
		const pace = { accepted: 7, refusingEverything: false };
		const { send, sent } = standIn((n) => {
			if (n === 12) pace.refusingEverything = true;
			return failed(retry.statusFailure(429));
		});
		const error = await thrown(retry.withRetry(send, { method: 'POST', clock, pace }));
		expect(sent).toHaveLength(12);
		expect(clock.slept).toEqual([1000, 2000, 4000, 8000, 8000, 8000, 8000, 8000, 8000, 8000, 8000]);
		expect(error.description).toBe("The API has accepted none of this credential's requests for 60 s or more (the longest the node waits), so it was not sent again. Run it again later.");
	});

	test('without a limiter every 429 counts as a refusal: 20, then the error', async () => {
		const { send, sent } = standIn(() => failed(retry.statusFailure(429, '0')));
		const error = await thrown(retry.withRetry(send, { method: 'POST', clock: fakeClock() }));
		expect(sent).toHaveLength(20);
		expect(error.description).toBe('Refused by the API 20 times (HTTP 429) while it accepted other requests, the most the node retries one request.');
	});

	test("429s at the API's pace do not count against the 3 attempts; other failures still do", async () => {
		const clock = fakeClock();
		const pace = { accepted: 0 };
		// send 1: 429 before anything else was accepted (the backoff); then the API accepts other
		// requests: five 429s at its pace (sent again at once), then three 503s: given up.
		const answers = [429, 429, 429, 429, 429, 429, 503, 503, 503];
		const { send, sent } = standIn((n) => {
			if (n === 2) pace.accepted = 4;
			return failed(retry.statusFailure(answers[n - 1]));
		});
		const error = await thrown(retry.withRetry(send, { method: 'GET', clock, pace }));
		expect(sent).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
		expect(error.description).toBe('Gave up after 3 attempts.');
		// the paced 429s without Retry-After were sent again at once (the limiter spaces them)
		expect(clock.slept).toEqual([1000, 1000, 2000]);
	});

	test('at most 20 refusals (HTTP 429) per request at the pace', async () => {
		const clock = fakeClock();
		const pace = { accepted: 0 };
		const { send, sent } = standIn(() => {
			pace.accepted++;
			return failed(retry.statusFailure(429));
		});
		const error = await thrown(retry.withRetry(send, { method: 'POST', clock, pace }));
		expect(sent).toHaveLength(20);
		expect(error.description).toBe('Refused by the API 20 times (HTTP 429) while it accepted other requests, the most the node retries one request.');
	});

	test('only 429s count as refusals: a 503 after 18 paced 429s still gets its 3 attempts', async () => {
		const clock = fakeClock();
		const pace = { accepted: 0 };
		const { send, sent } = standIn((n) => {
			pace.accepted++;
			return failed(retry.statusFailure(n <= 18 ? 429 : 503));
		});
		const error = await thrown(retry.withRetry(send, { method: 'GET', clock, pace }));
		expect(sent).toHaveLength(21);
		expect(error.description).toBe('Gave up after 3 attempts.');
	});

	test('a 429 pushes the shared gate forward by its Retry-After, never back', async () => {
		const clock = fakeClock();
		const gate = retry.newRetryGate();
		const { send, sent } = standIn((n) => {
			if (n > 1) return { ok: true, value: 'ok' };
			// while this send was on the wire, another request given the gate got a 429 asking for 10 s
			gate.notBefore = clock.now() + 10_000;
			return failed(retry.statusFailure(429, '2'));
		});
		await expect(retry.withRetry(send, { method: 'GET', clock, gate })).resolves.toBe('ok');
		expect(sent).toEqual([1, 2]);
		expect(gate.notBefore).toBe(10_000);
		expect(clock.slept).toEqual([10_000]);
	});

	test('a send waits again when the gate moved during its wait (a concurrent 429)', async () => {
		const gate = retry.newRetryGate();
		gate.notBefore = 5000;
		let moved = false;
		const clock = fakeClock({
			onSleep: () => {
				if (!moved) gate.notBefore = 8000;
				moved = true;
			},
		});
		const { send, sent } = standIn(() => ({ ok: true, value: 'ok' }));
		await expect(retry.withRetry(send, { method: 'GET', clock, gate })).resolves.toBe('ok');
		expect(clock.slept).toEqual([5000, 3000]);
		expect(sent).toEqual([1]);
	});

	test('a Retry-After over 60 s fails at once and holds no other request (the gate stays)', async () => {
		const clock = fakeClock({ wallStart: Date.parse('2026-01-01T00:00:00Z') });
		const gate = retry.newRetryGate();
		const { send, sent } = standIn(() => failed(retry.statusFailure(429, '61')));
		const error = await thrown(retry.withRetry(send, { method: 'GET', clock, gate }));
		expect(sent).toEqual([1]);
		expect(gate.notBefore).toBe(0);
		expect(error.description).toBe(
			'The API asked to wait 61 s before trying again, longer than the node waits (60 s), so it was not retried. Try again after 2026-01-01 00:01:01 UTC.',
		);
	});

	test('cancelled after a failure: nothing more is sent, no wait', async () => {
		const cancel = new AbortController();
		const clock = fakeClock();
		const { send, sent } = standIn(() => {
			cancel.abort();
			return failed(retry.statusFailure(503), 'The API failed.');
		});
		const error = await thrown(retry.withRetry(send, { method: 'GET', clock, signal: cancel.signal }));
		expect(sent).toEqual([1]);
		expect(clock.slept).toEqual([]);
		expect(error.description).toBe('The API failed.');
	});
});

describe('withRetry on the real clock (clock.ts), under jest fake timers', () => {
	afterEach(() => {
		jest.useRealTimers();
		jest.restoreAllMocks();
	});

	test('the first retry of a GET after a 503 comes 1 s later (jitter at its middle), not before', async () => {
		jest.useFakeTimers();
		jest.spyOn(Math, 'random').mockReturnValue(0.5);
		const { send, sent } = standIn((n) => (n === 1 ? failed(retry.statusFailure(503)) : { ok: true, value: 'ok' }));
		const result = retry.withRetry(send, { method: 'GET' });
		await jest.advanceTimersByTimeAsync(999);
		expect(sent).toEqual([1]);
		await jest.advanceTimersByTimeAsync(1);
		await expect(result).resolves.toBe('ok');
		expect(sent).toEqual([1, 2]);
	});

	test('a cancel during the backoff ends the wait at once with the cancel; nothing more is sent', async () => {
		jest.useFakeTimers();
		jest.spyOn(Math, 'random').mockReturnValue(0.5);
		const cancel = new AbortController();
		const { send, sent } = standIn(() => failed(retry.statusFailure(503)));
		const result = retry.withRetry(send, { method: 'GET', signal: cancel.signal });
		const outcome = result.then(
			() => 'resolved',
			(error: Error) => error.message,
		);
		await jest.advanceTimersByTimeAsync(500);
		cancel.abort(new Error('The execution was cancelled'));
		await jest.advanceTimersByTimeAsync(0);
		expect(await outcome).toBe('The execution was cancelled');
		await jest.advanceTimersByTimeAsync(10_000);
		expect(sent).toEqual([1]);
	});
});
