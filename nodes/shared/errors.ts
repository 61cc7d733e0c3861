import type { INode, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { DEFAULT_RETRY_POLICY, describeNetworkError } from './retry';

/** What we know about a failed API call; never holds request headers (the token lives there). */
export interface ApiFailure {
	statusCode: number;
	body: unknown;
	method: string;
	path: string;
	/** Content-Type of the answer, named when the body is not JSON */
	contentType?: string;
	/** values (the API token) replaced by [redacted] wherever the API's text is quoted */
	redact?: string[];
}

/** Shortest secret that is redacted (a shorter one would garble ordinary text). */
const MIN_REDACTED_LENGTH = 6;

/** `text` with every occurrence of each secret replaced by [redacted]. */
export function redactText(text: string, secrets: Array<string | undefined> = []): string {
	let result = text;
	for (const secret of secrets) {
		if (typeof secret !== 'string' || secret.length < MIN_REDACTED_LENGTH) continue;
		if (result.includes(secret)) result = result.split(secret).join('[redacted]');
	}
	return result;
}

const HEADLINES: Record<number, { headline: string; hint: string }> = {
	400: {
		headline: 'The API rejected the request as invalid',
		hint: 'Check the fields named in the message above against their rules in the node.',
	},
	401: {
		headline: 'The API token was rejected',
		hint: 'Open the Conversation Inbox credential and paste the company API token again.',
	},
	403: {
		headline: 'The API token may not do this',
		hint: 'Check that the token belongs to the company that owns the resource.',
	},
	404: {
		headline: 'The API could not find what the request names',
		hint: 'Check the ID or name: it may have been deleted or belong to another company. If every request fails like this, check that the Base URL ends in /v2.',
	},
	409: {
		headline: 'The request conflicts with existing data',
		hint: 'A tag with this name already exists (names are case-sensitive). Use another name or look the tag up instead.',
	},
	429: {
		headline: 'The API is receiving too many requests',
		hint: `The node already waited and retried as the API asked (${DEFAULT_RETRY_POLICY.maxAttempts} attempts at most, waits of up to ${DEFAULT_RETRY_POLICY.maxRetryAfterMs / 1000} s). Lower the number of items per run, space the requests (the action node's Settings → Request Options → Batching), or add a Wait node between batches.`,
	},
};

function headlineFor(statusCode: number): { headline: string; hint: string } {
	if (HEADLINES[statusCode]) return HEADLINES[statusCode];
	if (statusCode >= 500) {
		return {
			headline: 'The API failed to process the request',
			hint: 'This is a problem on the API side. Try again later; if it persists, contact the platform support with the time of the failure.',
		};
	}
	if (statusCode >= 200 && statusCode < 300) {
		return {
			headline: 'The API answered that the request did not succeed',
			hint: 'The API returned "success: false". Check the input values; the message above is the API\'s own.',
		};
	}
	return { headline: 'The API returned an unexpected status', hint: 'Check the Base URL and try again.' };
}

/** The API's own `message`, if the body carries one. */
export function apiMessage(body: unknown): string | undefined {
	if (body && typeof body === 'object' && typeof (body as JsonObject).message === 'string') {
		return (body as JsonObject).message as string;
	}
	return undefined;
}

/** True when the body is a parsed JSON object or array (not text, not nothing). */
function isJsonBody(body: unknown): boolean {
	return body !== null && typeof body === 'object' && !(body instanceof Uint8Array);
}

/** One error for every failed call: status, the API's message verbatim, a headline and a hint. */
export function apiError(node: INode, failure: ApiFailure, itemIndex?: number): NodeApiError {
	const notJson = !isJsonBody(failure.body) && failure.body !== undefined && failure.body !== '';
	let { headline, hint } = headlineFor(failure.statusCode);
	if (notJson && failure.statusCode < 300) {
		headline = 'The API answered with something other than JSON';
		hint = 'Check that the Base URL in the credential points at the API (ending in /v2), not at a web page, a proxy or a login page.';
	}
	const raw = apiMessage(failure.body);
	const message = raw === undefined ? undefined : redactText(raw, failure.redact);
	const quoted = message === undefined ? 'The API sent no message.' : `API message: "${message}".`;
	const shape = notJson
		? ` The answer was not JSON${failure.contentType ? ` (${failure.contentType.split(';')[0].trim()})` : ''}.`
		: '';
	const response: JsonObject = {
		success: false,
		message: message ?? null,
		httpCode: failure.statusCode,
		request: `${failure.method} ${failure.path}`,
	};
	// The API's message goes into the message too: under Continue On Fail, n8n keeps only the
	// message in the error item's JSON and drops the description.
	const error = new NodeApiError(node, response, {
		message: `${headline} (HTTP ${failure.statusCode})${message === undefined ? '' : `: ${message}`}`,
		description: `${quoted}${shape} ${failure.method} ${failure.path} answered HTTP ${failure.statusCode}. ${hint}`,
		httpCode: String(failure.statusCode),
		itemIndex,
	});
	return error;
}

/** True when the API reports success; `success: false` is a failure even under HTTP 200. */
export function isSuccessBody(body: unknown): body is JsonObject & { success: true } {
	return !!body && typeof body === 'object' && (body as JsonObject).success === true;
}

export interface NetworkErrorOptions {
	/** the timeout in force, named when the call timed out */
	timeoutMs?: number;
	/** where the user can change the timeout, e.g. "Settings → Request Options → Timeout" */
	timeoutSetting?: string;
}

/**
 * A call that got no HTTP answer (refused, reset, timed out). Built from the error's code only:
 * the original error holds the request, and the request holds the token.
 */
export function networkError(
	node: INode,
	cause: unknown,
	method: string,
	path: string,
	itemIndex?: number,
	options: NetworkErrorOptions = {},
): NodeApiError {
	const problem = describeNetworkError(cause);
	if (problem.timedOut) {
		const limit = options.timeoutMs === undefined ? '' : ` within ${options.timeoutMs} ms`;
		const setting = options.timeoutSetting
			? ` If the API is only slow, raise ${options.timeoutSetting}.`
			: '';
		// No error code in the message: n8n would replace such a message with its generic wording.
		return new NodeApiError(
			node,
			{ success: false, message: 'timeout', request: `${method} ${path}` },
			{
				message: `The API did not answer${limit} (timeout)`,
				description: `${method} ${path} got no answer${limit}. The API may be overloaded or unreachable; try again later.${setting}`,
				httpCode: null as unknown as string,
				itemIndex,
			},
		);
	}
	const reason = problem.code ?? 'no response';
	return new NodeApiError(
		node,
		{ success: false, message: reason, request: `${method} ${path}` },
		{
			message: `Could not reach the API (${reason})`,
			description: `${method} ${path} got no HTTP answer (${reason}). Check the Base URL in the credential and that the API is reachable from n8n.`,
			httpCode: null as unknown as string,
			itemIndex,
		},
	);
}
