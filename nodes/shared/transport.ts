import type {
	DeclarativeRestApiSettings,
	IAdditionalCredentialOptions,
	ICredentialDataDecryptedObject,
	IDataObject,
	IExecuteFunctions,
	IExecuteSingleFunctions,
	IHookFunctions,
	IHttpRequestMethods,
	IHttpRequestOptions,
	ILoadOptionsFunctions,
	IN8nHttpFullResponse,
	INode,
	IWebhookFunctions,
} from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { QUESTIONS } from './answers';
import type { ErrorHints } from './errors';
import { networkError, notSentAgainError, secretForms } from './errors';
import { afterLoopFreeMs, monotonicNow } from './clock';
import { paceOf, QuotaSpent, RefusingEverything } from './pace';
import { doneEarlier, readAnswer, writeOutcomeOf } from './reading';
import type { Attempt, RetryGate } from './retry';
import {
	clockTime,
	DEFAULT_RETRY_POLICY,
	describeNetworkError,
	networkFailure,
	seconds,
	withRetry,
} from './retry';
import type { Earlier, WriteOutcome, WriteScope } from './writes';
import { writeOnce } from './writes';

/**
 * THE request path of the package: every call to the API (the action node's operations and their
 * pages, the pickers, the trigger's registrations) goes through `sendRequest`, which sends with the
 * credential, retries as the one policy says (retry.ts), and reads the answer by its shape
 * (reading.ts). It returns the success body or throws the NodeApiError the user sees.
 */

export const CREDENTIAL_NAME = 'conversationInboxApi';

/**
 * Timeout of one request when the user sets none (n8n's own fallback is 5 minutes). The action
 * node's users can change it under Settings → Request Options → Timeout.
 */
export const DEFAULT_TIMEOUT_MS = 30_000;

/**
 * How long after the Timeout n8n's client gives up by itself: the backstop, should a client not
 * close a request when exchange (below) aborts it at its Timeout; exchange waits for the close.
 */
export const TIMEOUT_BACKSTOP_MS = 60_000;

/** The reason a request is closed with when its Timeout has passed. */
const TIMED_OUT = Object.assign(new Error('The request timed out and was closed'), { code: 'ETIMEDOUT' });

/**
 * One HTTP exchange within its Timeout: `start` sends the request with `signal`, which closes it.
 * Returns the answer; or, once `ms` passed while n8n's loop was free to read the answer (clock.ts,
 * afterLoopFreeMs: the client's own timeout fires when due even if the answer is there, unread,
 * while another execution's node prepares 10 000 items), closes the request and, ONCE IT IS
 * CLOSED, throws a timeout error (ETIMEDOUT, as the client's own). It never returns while the
 * request is open, so the caller's slot at the API's limiter (pace.ts) lasts exactly as long as the
 * request: the API never sees more requests open than the cap, whatever the Timeout. The
 * execution's cancel closes it too (as n8n's own client does). An answer that came as the Timeout
 * passed is read, not thrown away.
 */
async function exchange<T>(ms: number, cancel: AbortSignal | undefined, start: (signal: AbortSignal) => Promise<T>): Promise<T> {
	const closer = new AbortController();
	const onCancel = (): void => closer.abort(cancel?.reason);
	if (cancel?.aborted) onCancel();
	else cancel?.addEventListener('abort', onCancel, { once: true });
	let timer: { stop: () => void } | undefined;
	try {
		const request = start(closer.signal).then(
			(value) => ({ ok: true as const, value }),
			(error: unknown) => ({ ok: false as const, error }),
		);
		const late = new Promise<undefined>((resolve) => {
			timer = afterLoopFreeMs(ms, () => resolve(undefined));
		});
		let outcome = await Promise.race([request, late]);
		if (outcome === undefined) {
			closer.abort(TIMED_OUT);
			outcome = await request;
			if (!outcome.ok) throw Object.assign(new Error(`timeout of ${ms}ms exceeded`), { code: 'ETIMEDOUT' });
		}
		if (outcome.ok) return outcome.value;
		throw outcome.error;
	} finally {
		timer?.stop();
		cancel?.removeEventListener('abort', onCancel);
	}
}

/**
 * The context as n8n's HTTP helper sees it for one request: n8n-core's `httpRequestWithAuthentication`
 * hands the request `this.getExecutionCancelSignal()` as its abort signal, replacing the request's
 * own (n8n 1.x and 2.x, packages/core request-helper-functions.ts), so the signal that closes this
 * one request (exchange) is given the same way. Everything else is the context itself.
 */
function closingWith<C extends object>(context: C, signal: AbortSignal): C {
	return Object.create(context, { getExecutionCancelSignal: { value: () => signal } }) as C;
}

type Context =
	| IExecuteFunctions
	| IExecuteSingleFunctions
	| IHookFunctions
	| ILoadOptionsFunctions
	| IWebhookFunctions;

/**
 * The node as the context holds it, to READ its ID, name and parameters: n8n-core's `getNode()`
 * returns a deep copy of the node on every call, which cost more per item than the rest of the
 * node's own checks (issue 37). An error gets `getNode()`'s copy, as before. Contexts without their
 * own `node` (none of n8n-core's) give `getNode()`'s.
 */
export function nodeOf(context: { getNode(): INode }): Readonly<INode> {
	const { node } = context as { node?: unknown };
	if (node !== null && typeof node === 'object' && typeof (node as INode).name === 'string') return node as INode;
	return context.getNode();
}

/** The credential's Base URL without trailing slashes; it must end in the API version `/v2`. */
export function normalizeBaseUrl(node: INode | (() => INode), baseUrl: unknown, itemIndex?: number): string {
	const trimmed = String(baseUrl ?? '').trim().replace(/\/+$/, '');
	if (!/^https?:\/\/[^/]+.*\/v2$/.test(trimmed)) {
		throw new NodeOperationError(typeof node === 'function' ? node() : node, 'The credential\'s Base URL must be an http(s) address ending in /v2', {
			itemIndex,
			description: `Got "${trimmed || '(empty)'}". Example: https://api.example.com/v2. Edit the Conversation Inbox credential.`,
		});
	}
	return trimmed;
}

/** The execution's cancel signal, where the context has one. */
export function cancelSignalOf(context: object): AbortSignal | undefined {
	const fn = (context as { getExecutionCancelSignal?: () => AbortSignal | undefined })
		.getExecutionCancelSignal;
	return typeof fn === 'function' ? fn.call(context) : undefined;
}

/** The value of a response header (names compared case-insensitively). */
function headerValue(headers: unknown, name: string): string | undefined {
	if (!headers || typeof headers !== 'object') return undefined;
	const wanted = name.toLowerCase();
	for (const [key, value] of Object.entries(headers as Record<string, unknown>)) {
		if (key.toLowerCase() !== wanted) continue;
		if (typeof value === 'string') return value;
		if (typeof value === 'number') return String(value);
		if (Array.isArray(value) && typeof value[0] === 'string') return value[0];
	}
	return undefined;
}

/** A request as n8n's routing engine builds it (the action node) or as programmatic code does. */
export type RequestOptions = DeclarativeRestApiSettings.HttpRequestOptions;

/** How one call is sent and reported, beside the HTTP request itself. */
export interface CallSettings {
	itemIndex?: number;
	/** the operation's error hints (errors.ts) */
	hints?: ErrorHints;
	/** shared by the concurrent pages of one item: one 429 holds them all back */
	gate?: RetryGate;
	/** ends the waits before a send (the execution's, or a concurrent walk's) */
	signal?: AbortSignal;
	timeoutMs: number;
	/** where the user changes the timeout, named when a call timed out */
	timeoutSetting?: string;
	/** secrets never quoted in an error (the API token) */
	redact: string[];
	/**
	 * the credential as already read (the action node reads it once per run, helpers/run.ts);
	 * without it n8n reads it from its database for every request
	 */
	credentials?: ICredentialDataDecryptedObject;
	/**
	 * someone waits for it in the editor: it goes before every queued send (pace.ts). Default: the
	 * calls of a manual execution's first item (its only one when one item is run by hand; n8n's
	 * routing engine does not tell a single-item run from the first item of many).
	 */
	interactive?: boolean;
}

/** The credential for n8n's authentication, when the caller has read it (a copy: n8n may add to it). */
function credentialsOption(call: CallSettings): IAdditionalCredentialOptions | undefined {
	if (!call.credentials) return undefined;
	return { credentialsDecrypted: { id: '', name: CREDENTIAL_NAME, type: CREDENTIAL_NAME, data: { ...call.credentials } } };
}

/** Whether a call is one someone waits for in the editor (CallSettings.interactive). */
function isInteractive(context: Context, call: CallSettings): boolean {
	if (call.interactive !== undefined) return call.interactive;
	const getMode = (context as { getMode?: () => string }).getMode;
	return call.itemIndex === 0 && typeof getMode === 'function' && getMode.call(context) === 'manual';
}

/** A send whose Timeout was spent waiting for the API's turn: nothing was sent. */
function queueTimeoutError(context: Context, method: string, path: string, call: CallSettings): NodeApiError {
	const setting = call.timeoutSetting ? ` If a bulk run shares this credential, run this later or raise ${call.timeoutSetting}.` : '';
	const message = `The API's turn did not come within ${call.timeoutMs} ms (timeout): nothing was sent`;
	const error = new NodeApiError(
		context.getNode(),
		{ success: false, message: 'timeout', request: `${method} ${path}` },
		{
			message,
			description: `${method} ${path} waited for the API's turn (the API asked the node to hold its requests) until its timeout was spent, so it was never sent and nothing was done on the platform.${setting}`,
			httpCode: null as unknown as string,
			itemIndex: call.itemIndex,
		},
	);
	error.message = message;
	return error;
}

/**
 * A send refused before it left because the API's quota is spent (pace.ts): nothing was sent, so
 * nothing was done, and a later try (n8n's Retry On Fail included) may send it.
 */
function quotaSpentError(context: Context, method: string, path: string, call: CallSettings, spent: QuotaSpent): NodeApiError {
	const wait = seconds(spent.askedMs);
	const until = clockTime(spent.tryAfter);
	const message = `The API asked to wait ${wait}${until === undefined ? '' : ` (until ${until})`} and accepted nothing since: not sent`;
	const error = new NodeApiError(
		context.getNode(),
		{ success: false, message: 'quota spent', request: `${method} ${path}` },
		{
			message,
			description: `${method} ${path} was not sent, so nothing was done on the platform: the API answered this credential's requests with HTTP 429 and Retry-After: ${wait}, longer than the node waits (${seconds(DEFAULT_RETRY_POLICY.maxRetryAfterMs)}), and accepted none since (its quota looks spent).${until === undefined ? '' : ` Try again after ${until}.`} Until then the node sends at most one request a minute with this credential, to notice when the API accepts again.`,
			httpCode: null as unknown as string,
			itemIndex: call.itemIndex,
		},
	);
	error.message = message;
	return error;
}

/**
 * A send refused before it left because the API refused every request for the longest the node
 * waits and accepted none (pace.ts): nothing was sent (again), so nothing was done.
 */
function refusingEverythingError(context: Context, method: string, path: string, call: CallSettings, refusing: RefusingEverything): NodeApiError {
	const ceiling = seconds(DEFAULT_RETRY_POLICY.maxRetryAfterMs);
	const answer = refusing.retryAfterMs === undefined ? 'HTTP 429 (Too Many Requests)' : `HTTP 429 with Retry-After: ${seconds(refusing.retryAfterMs)}`;
	const message = `The API refused every request for ${ceiling} (HTTP 429) and accepted none: not sent`;
	const error = new NodeApiError(
		context.getNode(),
		{ success: false, message: 'refusing everything', request: `${method} ${path}` },
		{
			message,
			description: `${method} ${path} was not sent, so nothing was done on the platform: the API answered every request of this credential with ${answer} for ${seconds(refusing.forMs)} and accepted none, longer than the node waits (${ceiling}). Another client may use up the same token's limit. Run this again later; until the API accepts a request, the node sends at most one a minute with this credential, to notice when it does.`,
			httpCode: null as unknown as string,
			itemIndex: call.itemIndex,
		},
	);
	error.message = message;
	return error;
}

/**
 * One call: `options` holds the method, the address (baseURL + url), the query and the body.
 * Returns the success body; throws the NodeApiError of the last attempt.
 */
export async function sendRequest(
	context: Context,
	options: RequestOptions,
	call: CallSettings,
): Promise<IDataObject> {
	const method = (options.method ?? 'GET').toUpperCase() as IHttpRequestMethods;
	const path = options.url ?? '';
	// n8n's getNode() deep-copies the node: only for an error (issue 37).
	const node = (): INode => context.getNode();
	// The API's limiter (pace.ts): the API is the base URL and the token (`redact` holds it first).
	const pace = paceOf(String(options.baseURL ?? ''), call.redact[0] ?? '', call.credentials);
	// What the request does, not its method, decides how it is retried and remembered: a GET and a
	// POST that only asks a question (answers.ts QUESTIONS) can be sent again; a write cannot.
	const onlyAsks = method === 'GET' || QUESTIONS.has(path);
	const cancel = cancelSignalOf(context);
	// How the last send of a write ended (writes.ts): a 2xx is done, whatever the reader made of it.
	let written: WriteOutcome['kind'] = 'notDone';
	const interactive = isInteractive(context, call);
	const attempt = async (sends: number): Promise<Attempt<IDataObject>> => {
		// Fresh options and headers for every attempt: authentication writes the token into the
		// headers, and a retry must send exactly the same query (offset, cursor) again.
		const sent = {
			...options,
			url: path,
			headers: { ...(options.headers ?? {}) },
			qs: options.qs === undefined ? undefined : { ...options.qs },
			json: true,
			returnFullResponse: true,
			ignoreHttpStatusErrors: true,
		} as IHttpRequestOptions;
		let response: IN8nHttpFullResponse;
		// The API's turn for this send (a cancellation ends the wait here, as it ends the retry
		// waits). For an interactive call time queued counts toward the Timeout (the request gets what
		// is left of it): someone waits for it. A bulk run's sends wait as long as the API's pace asks,
		// or a run at the API's limit could not finish (1 000 items at 10/s queue for 100 s).
		const deadline = interactive ? monotonicNow() + call.timeoutMs : undefined;
		// A spent quota, or an API refusing everything, refuses the send before it leaves (pace.ts);
		// a cancel passes through.
		const turn = await pace
			.turn(call.signal, { isRetry: sends > 1, interactive, deadline })
			.catch(async (error: unknown) => (error instanceof QuotaSpent || error instanceof RefusingEverything ? error : await Promise.reject(error)));
		if (turn instanceof QuotaSpent) return { ok: false, error: quotaSpentError(context, method, path, call, turn), failure: { kind: 'final' } };
		if (turn instanceof RefusingEverything) return { ok: false, error: refusingEverythingError(context, method, path, call, turn), failure: { kind: 'final' } };
		if (!turn) return { ok: false, error: queueTimeoutError(context, method, path, call), failure: { kind: 'final' } };
		const timeoutMs = deadline === undefined ? call.timeoutMs : Math.max(1, Math.ceil(deadline - monotonicNow()));
		// n8n's own timeout (the client's) only as a backstop: it fires when it is due even if the
		// answer has arrived and waits to be read behind a busy loop. exchange decides, and closes.
		sent.timeout = timeoutMs + TIMEOUT_BACKSTOP_MS;
		try {
			// The slot (turn.send) is held until exchange returns, which is once the request is closed.
			response = await turn.send(
				async () =>
					await exchange(timeoutMs, cancel, async (signal) => {
						sent.abortSignal = signal;
						return (await context.helpers.httpRequestWithAuthentication.call(closingWith(context, signal), CREDENTIAL_NAME, sent, credentialsOption(call))) as IN8nHttpFullResponse;
					}),
			);
		} catch (error) {
			written = describeNetworkError(error).nothingSent ? 'notDone' : 'unknown';
			// No HTTP answer. Built from the error code only: the original error holds the request,
			// and the request holds the token.
			return {
				ok: false,
				error: networkError(node(), error, method, path, call.itemIndex, {
					timeoutMs: call.timeoutMs,
					timeoutSetting: call.timeoutSetting,
				}),
				failure: networkFailure(describeNetworkError(error)),
			};
		}
		const { statusCode, body, headers } = response;
		const answer = { method, path, statusCode, body, contentType: headerValue(headers, 'content-type'), retryAfter: headerValue(headers, 'retry-after') };
		written = writeOutcomeOf(answer);
		return readAnswer(node, answer, call);
	};
	const send = async (): Promise<IDataObject> =>
		await withRetry(attempt, { method, repeatable: onlyAsks, policy: DEFAULT_RETRY_POLICY, gate: call.gate, signal: call.signal, pace });
	const scope = onlyAsks ? undefined : writeScopeOf(context, call.itemIndex);
	if (scope === undefined) {
		try {
			return await send();
		} catch (error) {
			// The trigger's registrations come here: one answered 5xx or timed out may have been made.
			// (`written` is set by the attempts, in the closure above.)
			throw possiblyDone(error, !onlyAsks && (written as WriteOutcome['kind']) === 'unknown');
		}
	}
	// A write: never twice in one execution (writes.ts), whatever n8n's Retry On Fail asks.
	const result = await writeOnce(scope, { method, baseURL: options.baseURL, url: path, qs: options.qs, body: options.body }, async () => {
		try {
			return { kind: 'accepted', result: { ok: true, value: await send() } };
		} catch (error) {
			if (written === 'accepted') return { kind: 'accepted', result: { ok: false, error: error as Error } };
			return { kind: written === 'unknown' ? 'unknown' : 'notDone', error: error as Error };
		}
	});
	if ('earlier' in result) return fromEarlierTry(result.earlier, () => node(), method, path, call.itemIndex);
	const { sent: outcome } = result;
	if (outcome.kind === 'unknown') throw possiblyDone(outcome.error);
	if (outcome.kind !== 'accepted') throw outcome.error;
	if (outcome.result.ok) return outcome.result.value;
	throw outcome.result.error;
}

/**
 * A write an earlier try of this execution sent (writes.ts): its result, unsent; or, when its
 * outcome is unknown, an error saying why it is not sent again.
 */
function fromEarlierTry(earlier: Earlier, node: () => INode, method: string, path: string, itemIndex?: number): IDataObject {
	if (earlier.kind === 'unknown') throw possiblyDone(notSentAgainError(node(), earlier.first, method, path, itemIndex));
	// Done on an earlier try whose answer the memory no longer holds.
	if (earlier.result === undefined) return doneEarlier(node(), method, path, itemIndex);
	if (earlier.result.ok) return earlier.result.value;
	throw earlier.result.error;
}

/** The errors of writes the API may have carried out (sent, then a 5xx, a timeout, a lost connection, a page not the API's). */
const mayBeDone = new WeakSet<object>();

/** `error`, marked as of a write that may have been done when `maybe` (the caller throws it on). */
function possiblyDone(error: unknown, maybe = true): unknown {
	if (maybe && error !== null && typeof error === 'object') mayBeDone.add(error);
	return error;
}

/**
 * True when `error`, thrown by sendRequest or inboxApiRequest for a write, leaves it unknown
 * whether the API carried the write out (it was sent, then answered 5xx, timed out, lost its
 * connection or was answered by a page that is not the API's): the trigger counts such a
 * registration as possibly made. False for refusals (4xx, 429, `success: false`), for what never
 * left, and for requests that only ask.
 */
export function mayHaveBeenDone(error: unknown): boolean {
	return error !== null && typeof error === 'object' && mayBeDone.has(error);
}

/**
 * Where a write of the action node happens: the execution, node, run and item, which n8n's Retry On
 * Fail keeps on every try. Undefined outside an item of an execution (pickers, the trigger).
 */
function writeScopeOf(context: Context, itemIndex: number | undefined): WriteScope | undefined {
	if (itemIndex === undefined) return undefined;
	const runIndex = runIndexOf(context);
	const getExecutionId = (context as { getExecutionId?: () => string | undefined }).getExecutionId;
	const execution = typeof getExecutionId === 'function' ? getExecutionId.call(context) : undefined;
	if (typeof execution !== 'string' || execution === '' || runIndex === undefined) return undefined;
	return { execution, node: nodeKeyOf(nodeOf(context)), run: runIndex, item: itemIndex };
}

/** The node's run index, where the context has one (n8n-core's contexts hold it; its interfaces do not show it). */
export function runIndexOf(context: object): number | undefined {
	const { runIndex } = context as { runIndex?: unknown };
	return typeof runIndex === 'number' ? runIndex : undefined;
}

/** The node within its workflow: its ID, or its name where it has none. */
export function nodeKeyOf(node: Readonly<INode>): string {
	return node.id || node.name;
}

/**
 * The secrets never quoted in an error or an output item: the credential's API token, trimmed
 * first (what is sent, and what the limiter is keyed by), then every other form an API can echo it
 * in (errors.ts secretForms). Worked out once per credential object (a run's, shared by its items).
 */
export function secretsOf(credentials: ICredentialDataDecryptedObject): string[] {
	const token = credentials.apiToken;
	if (typeof token !== 'string') return [];
	const known = secretsByCredential.get(credentials);
	if (known !== undefined && known.token === token) return known.secrets;
	const secrets = secretForms(token);
	secretsByCredential.set(credentials, { token, secrets });
	return secrets;
}

const secretsByCredential = new WeakMap<object, { token: string; secrets: string[] }>();

export interface ApiRequest {
	method: IHttpRequestMethods;
	path: string;
	body?: IDataObject;
	qs?: IDataObject;
	itemIndex?: number;
	/** a picker's call: someone waits for it in the editor (CallSettings.interactive) */
	interactive?: boolean;
}

/**
 * A call from programmatic code (the trigger's lifecycle, the pickers): the address from the
 * credential, the default timeout, the execution's cancel signal.
 */
export async function inboxApiRequest(this: Context, request: ApiRequest): Promise<IDataObject> {
	const credentials = await this.getCredentials(CREDENTIAL_NAME);
	const options: IHttpRequestOptions = {
		method: request.method,
		baseURL: normalizeBaseUrl(this.getNode(), credentials.baseUrl),
		url: request.path,
	};
	if (request.body !== undefined) options.body = request.body;
	if (request.qs !== undefined) options.qs = request.qs;
	return await sendRequest(this, options, {
		itemIndex: request.itemIndex,
		signal: cancelSignalOf(this),
		timeoutMs: DEFAULT_TIMEOUT_MS,
		redact: secretsOf(credentials),
		credentials,
		interactive: request.interactive ?? false,
	});
}
