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

import type { ErrorHints } from './errors';
import { networkError, notSentAgainError } from './errors';
import { afterLoopFreeMs, monotonicNow } from './clock';
import { paceOf, QuotaSpent } from './pace';
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
import type { WriteOutcome, WriteScope } from './writes';
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
 * How long after the Timeout n8n's client gives up by itself: a request whose answer never comes
 * (a hung API) is closed by then, after answeredWithin has reported the timeout.
 */
export const TIMEOUT_BACKSTOP_MS = 60_000;

/**
 * The request's answer, or a timeout error (ETIMEDOUT, as the client's own) once `ms` passed while
 * n8n's loop was free to read the answer (clock.ts, afterLoopFreeMs). The client's own timeout fires
 * when due even if the answer is there, unread: while another execution's node prepares 10 000
 * items (n8n's loop held for tens of seconds), a write the API carried out would be reported as
 * perhaps done, a read sent again (faults.test.ts, 'busy past the timeout').
 */
async function answeredWithin<T>(ms: number, request: Promise<T>): Promise<T> {
	let timer: { stop: () => void } | undefined;
	const timedOut = new Promise<never>((_resolve, reject) => {
		timer = afterLoopFreeMs(ms, () => reject(Object.assign(new Error(`timeout of ${ms}ms exceeded`), { code: 'ETIMEDOUT' })));
	});
	// The request goes on after a timeout until its answer or the backstop: nothing may reject unheard.
	request.catch(() => undefined);
	try {
		return await Promise.race([request, timedOut]);
	} finally {
		timer?.stop();
	}
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
	const message = `The API asked to wait ${wait} (until ${until}) and accepted nothing since: not sent`;
	const error = new NodeApiError(
		context.getNode(),
		{ success: false, message: 'quota spent', request: `${method} ${path}` },
		{
			message,
			description: `${method} ${path} was not sent, so nothing was done on the platform: the API answered this credential's requests with HTTP 429 and Retry-After: ${wait}, longer than the node waits (${seconds(DEFAULT_RETRY_POLICY.maxRetryAfterMs)}), and accepted none since (its quota looks spent). Try again after ${until}. Until then the node sends at most one request a minute with this credential, to notice when the API accepts again.`,
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
	// The API's limiter (pace.ts): the API is the base URL and the token (`redact` holds it).
	const pace = paceOf(String(options.baseURL ?? ''), call.redact.join(' '), call.credentials);
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
		// A spent quota refuses the send before it leaves (pace.ts); a cancel passes through.
		const turn = await pace
			.turn(call.signal, { isRetry: sends > 1, interactive, deadline })
			.catch(async (error: unknown) => (error instanceof QuotaSpent ? error : await Promise.reject(error)));
		if (turn instanceof QuotaSpent) return { ok: false, error: quotaSpentError(context, method, path, call, turn), failure: { kind: 'final' } };
		if (!turn) return { ok: false, error: queueTimeoutError(context, method, path, call), failure: { kind: 'final' } };
		const timeoutMs = deadline === undefined ? call.timeoutMs : Math.max(1, Math.ceil(deadline - monotonicNow()));
		// n8n's own timeout (the client's) only as a backstop: it fires when it is due even if the
		// answer has arrived and waits to be read behind a busy loop. answeredWithin decides.
		sent.timeout = timeoutMs + TIMEOUT_BACKSTOP_MS;
		try {
			response = await turn.send(
				async () =>
					await answeredWithin(
						timeoutMs,
						context.helpers.httpRequestWithAuthentication.call(context, CREDENTIAL_NAME, sent, credentialsOption(call)) as Promise<IN8nHttpFullResponse>,
					),
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
		await withRetry(attempt, { method, policy: DEFAULT_RETRY_POLICY, gate: call.gate, signal: call.signal, pace });
	const scope = method === 'GET' ? undefined : writeScopeOf(context, call.itemIndex);
	if (scope === undefined) return await send();
	// A write: never twice in one execution (writes.ts), whatever n8n's Retry On Fail asks.
	const { outcome, remembered } = await writeOnce(scope, { method, baseURL: options.baseURL, url: path, qs: options.qs, body: options.body }, async () => {
		try {
			return { kind: 'accepted', result: { ok: true, value: await send() } };
		} catch (error) {
			if (written === 'accepted') return { kind: 'accepted', result: { ok: false, error: error as Error } };
			return { kind: written === 'unknown' ? 'unknown' : 'notDone', error: error as Error };
		}
	});
	if ('forgotten' in outcome) {
		// Done (or maybe done) on an earlier try whose answer the memory no longer holds.
		if (outcome.kind === 'accepted') return doneEarlier(node(), method, path, call.itemIndex);
		throw notSentAgainError(node(), undefined, method, path, call.itemIndex);
	}
	if (outcome.kind === 'accepted') {
		if (outcome.result.ok) return outcome.result.value;
		throw outcome.result.error;
	}
	if (outcome.kind === 'unknown' && remembered) throw notSentAgainError(node(), outcome.error, method, path, call.itemIndex);
	throw outcome.error;
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

/** The secrets never quoted in an error: the credential's API token. */
export function secretsOf(credentials: ICredentialDataDecryptedObject): string[] {
	return typeof credentials.apiToken === 'string' ? [credentials.apiToken] : [];
}

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
