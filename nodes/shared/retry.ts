import { monotonicNow, waitFor } from './clock';

/**
 * THE retry policy of every API call of this package (shared/transport.ts `sendRequest`: the
 * action node's operations, the trigger and the list searches). Written once, here.
 *
 * - 429 Too Many Requests, for EVERY method: the API refused the request without processing it, so
 *   sending it again cannot do anything twice. The wait is the answer's `Retry-After` (seconds or an
 *   HTTP date) when it has one, else the backoff below. A `Retry-After` longer than
 *   `maxRetryAfterMs` (60 s) is not waited for: the call fails at once and says how long the API
 *   asked to wait and from when (a clock time, UTC) to try again; it holds no other request, unless
 *   the API accepts nothing else: then its quota is spent and the queued requests fail unsent (pace.ts).
 *   A 429 is the API's pace, not a failure of the request: it does not count against `maxAttempts`;
 *   the request waits its turn again (pace.ts spaces it). What ends a request the API keeps
 *   refusing: `maxRefusals` (20) 429s for it while the API accepted other requests, or an API that
 *   accepted nothing for `maxRetryAfterMs` (pace.ts `refusingEverything`: then it is not sent
 *   again, and every queued request fails unsent), so a bulk run at a per-minute limit finishes and
 *   one against an API that refuses everything ends within about that minute.
 * - A connection that never carried the request (refused, host or network unreachable, a
 *   temporary DNS failure, a connect timeout), for EVERY method: nothing reached the API, so
 *   sending it again cannot do anything twice. Retried like a failed read.
 * - 5xx answers, timeouts and resets once the request may have been written: retried for requests
 *   that only ask (GET, and a POST that only asks a question: answers.ts QUESTIONS; the caller says
 *   so with `repeatable`). A write that failed this way may have been carried out (a tag created, a
 *   webhook registered) before the failure, so it is NEVER sent twice; its error says so.
 * - Everything else fails at once: 4xx other than 429, `success: false`, an answer that is not
 *   JSON, an unknown host, certificate errors (nothing was sent, and another try would fail the
 *   same way), a cancelled execution.
 * - At most `maxAttempts` (3) sends per request, the first included, counting every send but those
 *   refused with a 429. Backoff before retry n:
 *   `baseDelayMs` × 2^(n-1) (1 s, 2 s, …) ±25 % jitter, never more than `maxDelayMs` (8 s).
 * - A 429 while the API accepted other requests of this process (since this one was first sent) is
 *   `paced`: the limiter spaces its retry (no backoff); otherwise the Retry-After holds it, or the
 *   backoff (by the number of 429s) when there is none, or when a Retry-After of 0 comes a second time.
 * - Every Retry-After the API can send is read or ignored, never a crash: a date beyond what a
 *   calendar can name is still a wait longer than the node waits, named in seconds.
 * - Waits run on a monotonic clock and end the moment the execution is cancelled, on n8n 1.x too
 *   (clock.ts).
 *
 * Each page of a list is retried on its own with the same query (offset or cursor), so a retried
 * page is neither lost nor repeated.
 *
 * Shared backoff: every send first waits until `gate.notBefore` (again if it moved during the
 * wait), and a 429 pushes that time forward. The action node gives each input item one gate, shared
 * by all the item's requests: the pages of tag contacts fetched concurrently all wait when one of
 * them gets a 429 (requests already on the wire cannot be called back; their retries wait too).
 *
 * Tests keep these defaults and shorten only the backoff by substituting this module's
 * `DEFAULT_RETRY_POLICY` (jest.mock); nothing in the node's parameters can change the policy.
 */

export interface RetryPolicy {
	/** sends per request, the first included */
	maxAttempts: number;
	/** backoff before the first retry; doubled for each further retry */
	baseDelayMs: number;
	/** longest backoff */
	maxDelayMs: number;
	/** longest Retry-After the node waits for; a longer one fails the call at once */
	maxRetryAfterMs: number;
	/** 429 answers per request while the API accepts other requests (its pace, not a refusal of everything) */
	maxRefusals: number;
}

export const DEFAULT_RETRY_POLICY: Readonly<RetryPolicy> = Object.freeze({
	maxAttempts: 3,
	baseDelayMs: 1000,
	maxDelayMs: 8000,
	maxRetryAfterMs: 60_000,
	maxRefusals: 20,
});

/** "Do not send before" time (monotonic ms, clock.ts), shared by every request given the same gate. */
export interface RetryGate {
	notBefore: number;
}

export function newRetryGate(): RetryGate {
	return { notBefore: 0 };
}

/** Why a send failed, as far as retrying is concerned. */
export type Failure =
	/** 429: not processed; `paced`: the API accepted other requests meanwhile */
	| { kind: 'rateLimited'; retryAfter?: unknown; paced?: boolean }
	/**
	 * 5xx, or no answer (timeout, reset, refused …): the request may have been processed, unless
	 * `nothingSent` (the connection failed before the request was written)
	 */
	| { kind: 'transient'; reason: string; nothingSent?: boolean }
	/** anything else: retrying would give the same answer */
	| { kind: 'final' };

/** Outcome of one send: a value, or the error to surface and what kind of failure it was. */
export type Attempt<T> = { ok: true; value: T } | { ok: false; error: Error; failure: Failure };

/** Time and randomness, injectable for unit tests. */
export interface Clock {
	/** monotonic ms: waits and the gate */
	now(): number;
	/** the wall clock (epoch ms): an HTTP-date Retry-After, the time named to try again; default Date.now */
	wallNow?(): number;
	sleep(ms: number, signal?: AbortSignal): Promise<void>;
	random(): number;
}

const realClock: Clock = {
	now: monotonicNow,
	wallNow: () => Date.now(),
	sleep: waitFor,
	random: () => Math.random(),
};

export interface RetryOptions {
	/** HTTP method of the request, named in the error of a write not retried */
	method: string;
	/**
	 * sending it again cannot do anything twice (it only asks): retried after an ambiguous failure
	 * too. Default: the method is GET, HEAD or OPTIONS.
	 */
	repeatable?: boolean;
	policy?: Readonly<RetryPolicy>;
	/** shared "not before" time; a fresh one when not given */
	gate?: RetryGate;
	/** the execution's cancel signal: waits end, nothing more is sent */
	signal?: AbortSignal;
	/**
	 * the API's limiter (pace.ts): how many answers it accepted, to tell its pace from a refusal, and
	 * whether it found that the API refuses everything (then a 429 is not retried)
	 */
	pace?: { readonly accepted: number; readonly refusingEverything?: boolean };
	clock?: Clock;
}

/** Methods that can be sent again after an ambiguous failure without doing anything twice. */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Network error codes worth another try (the connection, not the request, failed). */
const TRANSIENT_CODES = new Set([
	'ECONNRESET',
	'ECONNREFUSED',
	'ECONNABORTED',
	'EPIPE',
	'ETIMEDOUT',
	'ESOCKETTIMEDOUT',
	'EAI_AGAIN',
	'EHOSTUNREACH',
	'ENETUNREACH',
	'ENETDOWN',
	'UND_ERR_SOCKET',
	'UND_ERR_CONNECT_TIMEOUT',
	'UND_ERR_HEADERS_TIMEOUT',
	'UND_ERR_BODY_TIMEOUT',
]);

/**
 * Codes that only a connection failing before the request was written gives: name resolution,
 * connect and the TLS handshake. Others (EHOSTUNREACH, ETIMEDOUT …) count when Node's error names
 * the step, by its `syscall` (connect, getaddrinfo) or its message ("connect EHOSTUNREACH …").
 */
const NOTHING_SENT_CODES = new Set([
	'ECONNREFUSED',
	'ENOTFOUND',
	'EAI_AGAIN',
	'EAI_FAIL',
	'EAI_NONAME',
	'UND_ERR_CONNECT_TIMEOUT',
	'CERT_HAS_EXPIRED',
	'CERT_NOT_YET_VALID',
	'CERT_UNTRUSTED',
	'DEPTH_ZERO_SELF_SIGNED_CERT',
	'SELF_SIGNED_CERT_IN_CHAIN',
	'UNABLE_TO_GET_ISSUER_CERT',
	'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
	'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
	'ERR_TLS_CERT_ALTNAME_INVALID',
	'ERR_SSL_WRONG_VERSION_NUMBER',
]);

const NOTHING_SENT_SYSCALLS = new Set(['connect', 'getaddrinfo']);

/** Node's message of such an error: "<syscall> <CODE> <address>". */
export const NOTHING_SENT_MESSAGE = /^(?:connect|getaddrinfo) [A-Z][A-Z0-9_]+ (\S+)/;

/** An error code (ECONNREFUSED, UND_ERR_SOCKET, CERT_HAS_EXPIRED), not an HTTP status. */
const ERROR_CODE = /^[A-Z][A-Z0-9_]{2,}$/;

const TIMEOUT_CODES = new Set([
	'ETIMEDOUT',
	'ESOCKETTIMEDOUT',
	'UND_ERR_CONNECT_TIMEOUT',
	'UND_ERR_HEADERS_TIMEOUT',
	'UND_ERR_BODY_TIMEOUT',
]);

/** What a failed call without an HTTP answer was; read from the error's code, never its request. */
export interface NetworkProblem {
	/** e.g. ECONNREFUSED; undefined when the error carries none */
	code?: string;
	timedOut: boolean;
	/** the execution was cancelled */
	cancelled: boolean;
	/** the connection failed before the request was written: the API received nothing */
	nothingSent: boolean;
}

/** The code of an HTTP client error (n8n wraps axios' error: the code sits on its cause). */
export function describeNetworkError(error: unknown): NetworkProblem {
	// n8n 2.x: n8n's error → axios' error → Node's system error (which names its syscall). n8n 1.x
	// drops the cause: its NodeApiError keeps the code as `httpCode` and Node's message, e.g.
	// "connect ECONNREFUSED 127.0.0.1:1", in `messages`.
	const candidates = causesOf(error);
	let code: string | undefined;
	let message = '';
	let beforeWrite = false;
	for (const candidate of candidates) {
		const { code: value, httpCode, syscall, message: text, messages } = candidate as Record<string, unknown>;
		for (const named of [value, httpCode]) {
			if (code === undefined && typeof named === 'string' && ERROR_CODE.test(named)) code = named;
		}
		for (const line of [text, ...(Array.isArray(messages) ? messages : [])]) {
			if (typeof line !== 'string') continue;
			message += ` ${line}`;
			if (NOTHING_SENT_MESSAGE.test(line)) beforeWrite = true;
		}
		if (typeof syscall === 'string' && NOTHING_SENT_SYSCALLS.has(syscall)) beforeWrite = true;
	}
	const timedOut =
		(code !== undefined && TIMEOUT_CODES.has(code)) ||
		(code === 'ECONNABORTED' && /timeout/i.test(message));
	const cancelled =
		code === 'ERR_CANCELED' || (error as { name?: unknown })?.name === 'AbortError';
	const nothingSent = !cancelled && (beforeWrite || (code !== undefined && NOTHING_SENT_CODES.has(code)));
	return { code, timedOut, cancelled, nothingSent };
}

/** The error and its causes, outermost first (at most a few levels: n8n, axios, Node). */
export function causesOf(error: unknown): object[] {
	const chain: object[] = [];
	for (let current = error; current && typeof current === 'object' && chain.length < 4; ) {
		if (chain.includes(current)) break;
		chain.push(current);
		current = (current as { cause?: unknown }).cause;
	}
	return chain;
}

/** The retry class of an HTTP answer that is an error. */
export function statusFailure(statusCode: number, retryAfter?: unknown): Failure {
	if (statusCode === 429) return { kind: 'rateLimited', retryAfter };
	if (statusCode >= 500 && statusCode <= 599) return { kind: 'transient', reason: `HTTP ${statusCode}` };
	return { kind: 'final' };
}

/** The retry class of a call that got no HTTP answer. */
export function networkFailure(problem: NetworkProblem): Failure {
	if (problem.cancelled) return { kind: 'final' };
	const { nothingSent } = problem;
	if (problem.timedOut) return { kind: 'transient', reason: 'timeout', nothingSent };
	if (problem.code !== undefined && TRANSIENT_CODES.has(problem.code)) {
		return { kind: 'transient', reason: problem.code, nothingSent };
	}
	return { kind: 'final' };
}

/** Retry-After as milliseconds from `now`: delta-seconds or an HTTP date; undefined if unusable. */
export function parseRetryAfter(value: unknown, now: number): number | undefined {
	const raw = Array.isArray(value) ? value[0] : value;
	if (typeof raw === 'number' && Number.isFinite(raw) && raw >= 0) return raw * 1000;
	if (typeof raw !== 'string') return undefined;
	const text = raw.trim();
	if (/^\d+$/.test(text)) return Number(text) * 1000;
	// An HTTP date has a weekday or month name; a bare number of another form is not one.
	if (!/[a-z]/i.test(text)) return undefined;
	const at = Date.parse(text);
	if (!Number.isFinite(at)) return undefined;
	return Math.max(0, at - now);
}

/** Backoff before retry number `retry` (1 = the first retry). */
export function backoffDelay(retry: number, policy: Readonly<RetryPolicy>, random: number): number {
	const exponential = policy.baseDelayMs * 2 ** Math.max(0, retry - 1);
	const jittered = exponential * (0.75 + 0.5 * random);
	return Math.round(Math.min(policy.maxDelayMs, jittered));
}

export type Decision =
	| { retry: true; delayMs: number; rateLimited: boolean }
	| { retry: false; note?: string };

/** A wait as the user reads it: "86400 s", "1.5 s". */
export const seconds = (ms: number): string => {
	const s = ms / 1000;
	return Number.isInteger(s) ? `${s} s` : `${s.toFixed(1)} s`;
};

/**
 * A moment as a clock time in UTC, e.g. "2026-11-26 17:16:28 UTC"; undefined for a moment no date
 * can name (a Retry-After of 9999999999999 s is 317 million years ahead, beyond JavaScript's dates).
 */
export const clockTime = (epochMs: number): string | undefined => {
	const date = new Date(epochMs);
	return Number.isNaN(date.getTime()) ? undefined : `${date.toISOString().slice(0, 19).replace('T', ' ')} UTC`;
};

/** What is being sent, as far as retrying it goes. */
export interface Sending {
	method: string;
	/** sending it again cannot do anything twice (RetryOptions.repeatable) */
	repeatable?: boolean;
}

/**
 * Whether to send again after `attempts` sends ended in `failure`, and after how long. `attempts`:
 * the sends that count against `maxAttempts` (a 429 does not); for a 429, the 429s so far.
 */
export function decide(
	failure: Failure,
	sending: Sending,
	attempts: number,
	policy: Readonly<RetryPolicy>,
	clock: Pick<Clock, 'now' | 'wallNow' | 'random'> = realClock,
): Decision {
	if (failure.kind === 'final') return { retry: false };
	const method = sending.method.toUpperCase();
	const repeatable = sending.repeatable ?? SAFE_METHODS.has(method);
	if (failure.kind === 'transient' && failure.nothingSent !== true && !repeatable) {
		return {
			retry: false,
			note: `Not retried: the API may have carried out this ${method} before failing (${failure.reason}), and sending it again could do it twice. Check the result on the platform before running it again.`,
		};
	}
	if (failure.kind === 'rateLimited') {
		const wallNow = clock.wallNow?.() ?? Date.now();
		const asked = parseRetryAfter(failure.retryAfter, wallNow);
		if (asked !== undefined && asked > policy.maxRetryAfterMs) {
			const until = clockTime(wallNow + asked);
			return {
				retry: false,
				note: `The API asked to wait ${seconds(asked)} before trying again, longer than the node waits (${seconds(policy.maxRetryAfterMs)}), so it was not retried.${until === undefined ? '' : ` Try again after ${until}.`}`,
			};
		}
		// At the API's pace the limiter spaces the retry; a backoff would only add to it. A Retry-After
		// of 0 is taken at its word once; refused again, with nothing accepted, it is no wait.
		const wait = asked === 0 && attempts > 1 && failure.paced !== true ? undefined : asked;
		return { retry: true, delayMs: wait ?? (failure.paced ? 0 : backoffDelay(attempts, policy, clock.random())), rateLimited: true };
	}
	if (attempts >= policy.maxAttempts) return { retry: false, note: `Gave up after ${attempts} attempts.` };
	return { retry: true, delayMs: backoffDelay(attempts, policy, clock.random()), rateLimited: false };
}

/** Adds a sentence to the error's description (NodeApiError and NodeOperationError have one). */
function annotate(error: Error, note: string | undefined): Error {
	if (!note) return error;
	const holder = error as Error & { description?: string | null };
	holder.description = holder.description ? `${holder.description} ${note}` : note;
	return error;
}

/**
 * Runs `send` until it succeeds or the policy says stop; returns its value or throws the error of
 * the last attempt, annotated with why it was not (or no longer) retried.
 */
export async function withRetry<T>(
	send: (attempt: number) => Promise<Attempt<T>>,
	options: RetryOptions,
): Promise<T> {
	const policy = options.policy ?? DEFAULT_RETRY_POLICY;
	const clock = options.clock ?? realClock;
	const gate = options.gate ?? newRetryGate();
	const acceptedBefore = options.pace?.accepted ?? 0;
	const sending: Sending = { method: options.method, repeatable: options.repeatable };
	// Sends that count against maxAttempts (a 429 does not); 429s; 429s that count against maxRefusals.
	let counted = 0;
	let refusals = 0;
	let pacedRefusals = 0;
	for (let attempt = 1; ; attempt++) {
		// Wait for the gate; a 429 on a concurrent request may push it further meanwhile.
		for (let wait = gate.notBefore - clock.now(); wait > 0; wait = gate.notBefore - clock.now()) {
			await clock.sleep(wait, options.signal);
		}
		const outcome = await send(attempt);
		if (outcome.ok) return outcome.value;
		let failure = outcome.failure;
		if (failure.kind === 'rateLimited') {
			refusals++;
			if (options.pace && options.pace.accepted > acceptedBefore) failure = { ...failure, paced: true };
			// Without a limiter nothing tells an API that refuses everything: every 429 counts.
			if (failure.paced === true || !options.pace) pacedRefusals++;
		} else {
			counted++;
		}
		let decision: Decision = options.signal?.aborted
			? { retry: false }
			: decide(failure, sending, failure.kind === 'rateLimited' ? refusals : counted, policy, clock);
		if (decision.retry && failure.kind === 'rateLimited' && options.pace?.refusingEverything === true) {
			decision = { retry: false, note: `The API has accepted none of this credential's requests for ${seconds(policy.maxRetryAfterMs)} or more (the longest the node waits), so it was not sent again. Run it again later.` };
		} else if (decision.retry && pacedRefusals >= policy.maxRefusals) {
			decision = { retry: false, note: `Refused by the API ${pacedRefusals} times (HTTP 429) while it accepted other requests, the most the node retries one request.` };
		}
		if (!decision.retry) {
			throw annotate(outcome.error, decision.note ?? (attempt > 1 ? `Sent ${attempt} times.` : undefined));
		}
		if (decision.rateLimited) {
			gate.notBefore = Math.max(gate.notBefore, clock.now() + decision.delayMs);
		} else if (decision.delayMs > 0) {
			await clock.sleep(decision.delayMs, options.signal);
		}
	}
}
