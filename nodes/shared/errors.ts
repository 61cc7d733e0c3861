import type { INode, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { QUESTIONS } from './answers';
import { causesOf, DEFAULT_RETRY_POLICY, describeNetworkError, NOTHING_SENT_MESSAGE } from './retry';

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
	/** what the failing operation adds to the standard hints */
	hints?: ErrorHints;
}

/**
 * Hints of one operation: they replace the standard hint of a status where that one would not
 * apply (a 404 on a tag name is not about the Base URL), say what to check when the API gives no
 * reason, and name the assumptions a request error may come from.
 */
export interface ErrorHints {
	/** replaces the standard hint of these statuses */
	byStatus?: Partial<Record<number, string>>;
	/** when the API gave no reason (its default text, or no message at all) */
	noReason?: string;
	/** added to request errors (4xx other than 401/403/404/409/429, `success: false`) */
	assumptions?: string;
	/** the names the operation sends that the spec does not show: pointed out when the API's message names one */
	assumedNames?: string[];
	/** the name each sent field travels under → the field's name in the panel (its display name) */
	fieldLabels?: Readonly<Record<string, string>>;
}

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The API's message in the panel's words (DESIGN.md, "The editor"): a field it names by the name
 * the field travels under is named as the panel shows it. A list entry `tagNames[0]` becomes "Tag
 * Names, value 1"; a name that is one word in camelCase (`chatInternalId`, `tagName`) is never
 * English, so it is replaced wherever it stands; a plain word (`name`, `url`) only where it names a
 * field, at the start of a sentence before ":", "must" or "is". Several names of one field in a
 * list ("chatInternalId, chatId, phoneNumber and integrationId", all three being the Chat field)
 * are named once ("Chat and Integration"). Everything else stays as the API wrote it.
 */
export function inPanelWords(text: string, labels: Readonly<Record<string, string>> = {}): string {
	let result = text;
	for (const [key, label] of Object.entries(labels)) {
		const name = escapeRegExp(key);
		result = result.replace(new RegExp(`(^|[^A-Za-z0-9_.])${name}\\[(\\d+)\\]`, 'g'), (_all, before: string, index: string) => `${before}${label}, value ${Number(index) + 1}`);
		result = /[a-z][A-Z]/.test(key)
			? result.replace(new RegExp(`(^|[^A-Za-z0-9_.])${name}(?![A-Za-z0-9_\\[])`, 'g'), (_all, before: string) => `${before}${label}`)
			: result.replace(new RegExp(`(^|; )${name}(?=:| must | is )`, 'g'), (_all, before: string) => `${before}${label}`);
	}
	return namedOnce(result, [...new Set(Object.values(labels))]);
}

/** "Chat, Chat, Chat and Integration" → "Chat and Integration": each label once in a list of labels. */
function namedOnce(text: string, labels: string[]): string {
	if (labels.length === 0) return text;
	const label = labels.map(escapeRegExp).sort((a, b) => b.length - a.length).join('|');
	const list = new RegExp(`(?<![A-Za-z])(?:${label})(?:(?:, | and | or |, and |, or )(?:${label}))+(?![A-Za-z])`, 'g');
	return text.replace(list, (found) => {
		const items = found.split(/, and |, or |, | and | or /);
		const unique = [...new Set(items)];
		if (unique.length === items.length) return found;
		const joiner = / or /.test(found) && !/ and /.test(found) ? ' or ' : ' and ';
		return unique.length === 1 ? unique[0] : `${unique.slice(0, -1).join(', ')}${joiner}${unique[unique.length - 1]}`;
	});
}

/** The API's default error text (spec: Errors), and what it says. */
const DEFAULT_API_ERROR_TEXT = 'Erro ao enviar mensagem';
const DEFAULT_TEXT_MEANING =
	'That is the API\'s default error text, Portuguese for "error sending message": the API\'s generic error, it did not say what was wrong.';

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

/**
 * The forms in which an API can echo a secret (the API token), each redacted: trimmed (HTTP drops
 * the spaces a pasted token may carry, and the credential sends it trimmed; the token as stored
 * holds the trimmed one, so it is redacted with it), URL-encoded (upper- and lower-case hex), and in base64 and base64url at each of the three places
 * a base64 text can hold it (alone, or inside `Basic user:token`, `Bearer token` …: the characters
 * that encode only the secret's own bytes). The trimmed secret first, then the others longest first;
 * only forms of MIN_REDACTED_LENGTH or more.
 */
export function secretForms(secret: string): string[] {
	const trimmed = secret.trim();
	const encoded = encodeURIComponent(trimmed);
	const forms = new Set([trimmed, encoded, encoded.replace(/%[0-9A-F]{2}/g, (hex) => hex.toLowerCase())]);
	const bytes = Buffer.from(trimmed, 'utf8');
	for (let offset = 0; offset < 3; offset++) {
		const base64 = Buffer.concat([Buffer.alloc(offset), bytes]).toString('base64');
		// A base64 character holds 6 bits: those from the first whole one after the offset's bytes to
		// the last whole one before what follows the secret.
		const inner = base64.slice(Math.ceil((offset * 8) / 6), Math.floor(((offset + bytes.length) * 8) / 6));
		forms.add(inner);
		forms.add(inner.replace(/\+/g, '-').replace(/\//g, '_'));
	}
	forms.delete(trimmed);
	return [trimmed, ...[...forms].sort((a, b) => b.length - a.length)].filter((form) => form.length >= MIN_REDACTED_LENGTH);
}

/**
 * A deep copy of `value` in which every string (and key) has each secret replaced by [redacted]
 * (redactText), so a secret can never reach an output item, whatever the API or the platform
 * echoes. Iterative, so a deeply nested payload cannot overflow the stack.
 */
export function redactSecrets<T>(value: T, secrets: Array<string | undefined>): T {
	if (typeof value === 'string') return redactText(value, secrets) as T;
	if (!value || typeof value !== 'object') return value;
	const root: unknown = Array.isArray(value) ? [] : {};
	const stack: Array<{ from: object; to: Record<string, unknown> | unknown[] }> = [
		{ from: value as object, to: root as Record<string, unknown> },
	];
	while (stack.length > 0) {
		const { from, to } = stack.pop()!;
		for (const [key, entry] of Object.entries(from)) {
			let copy: unknown = entry;
			if (typeof entry === 'string') {
				copy = redactText(entry, secrets);
			} else if (entry && typeof entry === 'object') {
				copy = Array.isArray(entry) ? [] : {};
				stack.push({ from: entry as object, to: copy as Record<string, unknown> });
			}
			if (Array.isArray(to)) to[Number(key)] = copy;
			else to[redactText(key, secrets)] = copy;
		}
	}
	return root as T;
}

/**
 * `body` without the secrets: as it is when none appears in any of its strings or keys (one walk,
 * nothing copied or serialised), else redactSecrets' copy. For the API's success answers, which
 * become output items: every answer and every list page passes here, so the check costs no copy
 * (issue 37: a JSON text of each page and two searches through it were a sixth of a chats walk).
 */
export function withoutSecrets<T>(body: T, secrets: Array<string | undefined>): T {
	const present = secrets.filter((secret): secret is string => typeof secret === 'string' && secret.length >= MIN_REDACTED_LENGTH);
	if (present.length === 0 || !body || typeof body !== 'object' || ArrayBuffer.isView(body)) return body;
	return holdsSecret(body, present) ? redactSecrets(body, present) : body;
}

/**
 * Whether a string or key anywhere in `value` holds one of `secrets` (what redactSecrets would
 * change). Iterative, so a deeply nested payload cannot overflow the stack; bytes hold no strings.
 */
function holdsSecret(value: object, secrets: string[]): boolean {
	const shortest = Math.min(...secrets.map((secret) => secret.length));
	// One secret (the API token) is the case of every answer: one search per string, no callback.
	const [only] = secrets;
	const holds =
		secrets.length === 1
			? (text: string): boolean => text.length >= shortest && text.includes(only)
			: (text: string): boolean => text.length >= shortest && secrets.some((secret) => text.includes(secret));
	const stack: unknown[] = [value];
	// A string is checked; an object or list is walked later; anything else holds no text.
	const holdsAt = (entry: unknown): boolean => {
		if (typeof entry === 'string') return holds(entry);
		if (entry !== null && typeof entry === 'object' && !ArrayBuffer.isView(entry)) stack.push(entry);
		return false;
	};
	for (let current = stack.pop(); current !== undefined; current = stack.pop()) {
		if (Array.isArray(current)) {
			for (let i = 0; i < current.length; i++) if (holdsAt(current[i])) return true;
			continue;
		}
		const entries = current as Record<string, unknown>;
		for (const key of Object.keys(entries)) if (holds(key) || holdsAt(entries[key])) return true;
	}
	return false;
}

const HEADLINES: Record<number, { headline: string; hint: string }> = {
	400: {
		headline: 'The API rejected the request as invalid',
		hint: 'Check the fields the API\'s message names against their rules in the node.',
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
		hint: 'Check the IDs and names you gave: one of them does not exist (any more).',
	},
	409: {
		headline: 'The request conflicts with existing data',
		hint: 'Something with these values already exists on the platform.',
	},
	429: {
		headline: 'The API is receiving too many requests',
		hint: `The node already paced its requests to the API's rate and retried as the API asked (${DEFAULT_RETRY_POLICY.maxAttempts} attempts while the API accepts nothing, ${DEFAULT_RETRY_POLICY.maxRefusals} refusals of one request at most, waits of up to ${DEFAULT_RETRY_POLICY.maxRetryAfterMs / 1000} s). When other n8n instances or tools use the same API token, space this node's requests (Settings → Request Options → Batching) or run it when they are idle.`,
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

/**
 * The texts of one part of an error body: a text, a list (of texts or of objects), or an object
 * with `message` (an `errors[]` entry may name its field: `field: text`).
 */
function textsOf(value: unknown): string[] {
	if (typeof value === 'string') return value.trim() === '' ? [] : [value.trim()];
	if (Array.isArray(value)) return value.flatMap(textsOf);
	if (!value || typeof value !== 'object') return [];
	const entry = value as JsonObject;
	const texts = textsOf(entry.message);
	const field = [entry.field, entry.path, entry.property].find((name) => typeof name === 'string' && name !== '');
	if (typeof field !== 'string') return texts;
	return texts.map((text) => (text.startsWith(field) ? text : `${field}: ${text}`));
}

/** Characters of a text answer quoted as the API's message. */
export const TEXT_MESSAGE_LENGTH = 300;

/** True when a text answer is a web page (by its Content-Type, or by its start when that is absent). */
export function isWebPage(body: unknown, contentType?: string): boolean {
	if (typeof body !== 'string') return false;
	if (contentType !== undefined && /html/i.test(contentType)) return true;
	return /^\s*(<!doctype html|<html[\s>])/i.test(body);
}

/** The `<title>` of a web page (whitespace collapsed, at most 100 characters); undefined without one. */
export function pageTitle(page: string): string | undefined {
	const match = /<title[^>]*>([^<]*)<\/title>/i.exec(page);
	const title = match?.[1].replace(/\s+/g, ' ').trim();
	return title ? title.slice(0, 100) : undefined;
}

/**
 * The API's explanation, whatever its shape (DESIGN.md, "Reading the API's answers"): `message` as
 * text or list, `error` as text or `{message}`, `errors[]` of texts or `{message}`; every distinct
 * text, in that order, joined with "; "; else `application/problem+json`'s `title` and `detail`. A
 * text body is the message itself (its first TEXT_MESSAGE_LENGTH characters); a web page is not
 * the API's (apiError names its title). Undefined when the body carries none.
 */
export function apiMessage(body: unknown, contentType?: string): string | undefined {
	if (typeof body === 'string') {
		if (isWebPage(body, contentType)) return undefined;
		const text = body.replace(/\s+/g, ' ').trim();
		if (text === '') return undefined;
		return text.length > TEXT_MESSAGE_LENGTH ? `${text.slice(0, TEXT_MESSAGE_LENGTH)}…` : text;
	}
	if (!body || typeof body !== 'object' || Array.isArray(body)) return undefined;
	const { message, error, errors, title, detail } = body as JsonObject;
	const texts = [...new Set([...textsOf(message), ...textsOf(error), ...textsOf(errors)])];
	if (texts.length > 0) return texts.join('; ');
	// RFC 9457 problem details: a short title, and the detail of this occurrence.
	const problem = [...new Set([...textsOf(title), ...textsOf(detail)])];
	return problem.length > 0 ? problem.join(': ') : undefined;
}

/** True when the body is a parsed JSON object or array (not text, not nothing). */
function isJsonBody(body: unknown): boolean {
	return body !== null && typeof body === 'object' && !(body instanceof Uint8Array);
}

/** The statuses whose hint a request's own values cannot fix (credentials, rate, server). */
const NOT_ABOUT_THE_REQUEST = new Set([401, 403, 429]);

/**
 * One error for every failed call: the headline and status with the API's message (once, in the
 * message: under Continue On Fail n8n keeps the message), and a description with the request and
 * the hints that apply.
 */
export function apiError(node: INode, failure: ApiFailure, itemIndex?: number): NodeApiError {
	const notJson = !isJsonBody(failure.body) && failure.body !== undefined && failure.body !== '';
	const webPage = isWebPage(failure.body, failure.contentType);
	const { statusCode, hints } = failure;
	const write = failure.method.toUpperCase() !== 'GET' && !QUESTIONS.has(failure.path);
	let { headline, hint } = headlineFor(statusCode);
	// Hints about the user's inputs only where the API's JSON answer was a decision about them.
	const ownHints = notJson ? undefined : hints;
	if (webPage) {
		headline = 'The answer was a web page, not the API';
		hint = 'Check that the Base URL in the credential points at the API (ending in /v2), not at a web page; a proxy, firewall or login page between n8n and the API answers like this.';
	} else if (notJson && statusCode < 300) {
		headline = 'The API answered with something other than JSON';
		hint = 'Check that the Base URL in the credential points at the API (ending in /v2), not at a web page, a proxy or a login page.';
	} else if (notJson && !NOT_ABOUT_THE_REQUEST.has(statusCode) && statusCode < 500) {
		hint = 'The answer was plain text, not the API\'s JSON: the text above is all it said. If it does not explain the failure, check that the Base URL in the credential points at the API (ending in /v2) and that no proxy answers in its place.';
	}
	const raw = apiMessage(failure.body, failure.contentType);
	const apiText = raw === undefined ? undefined : redactText(raw, failure.redact);
	// The assumed names are looked for in the API's own text; the user reads it in the panel's words.
	const message = apiText === undefined || notJson ? apiText : inPanelWords(apiText, ownHints?.fieldLabels);
	const title = webPage ? pageTitle(failure.body as string) : undefined;
	if (statusCode === 404 && message === undefined && !webPage) {
		// No answer of the API's own: most likely the address is wrong.
		hint = 'The address did not answer as the API does: check that the Base URL in the credential ends in /v2.';
	} else if (ownHints?.byStatus?.[statusCode] !== undefined) {
		hint = ownHints.byStatus[statusCode] as string;
	}
	const parts: string[] = [];
	const noReason = message === undefined || message.trim() === DEFAULT_API_ERROR_TEXT;
	if (webPage) parts.push(`The answer was a web page${title === undefined ? '' : ` titled "${redactText(title, failure.redact)}"`}, not an answer of the API.`);
	else if (message === undefined) parts.push('The API sent no message.');
	else if (noReason) parts.push(DEFAULT_TEXT_MEANING);
	if (notJson) parts.push(`The answer was not JSON${failure.contentType ? ` (${failure.contentType.split(';')[0].trim()})` : ''}.`);
	parts.push(`${failure.method} ${failure.path} answered HTTP ${statusCode}.`);
	if (noReason && ownHints?.noReason && !NOT_ABOUT_THE_REQUEST.has(statusCode) && statusCode < 500) {
		parts.push(ownHints.noReason);
	} else {
		parts.push(hint);
	}
	if (write && notJson && statusCode < 300) {
		parts.push(`The node cannot tell whether this ${failure.method.toUpperCase()} was carried out (the answer is not the API's): check on the platform before running it again.`);
	}
	const requestError =
		!notJson && !NOT_ABOUT_THE_REQUEST.has(statusCode) && ![404, 409].includes(statusCode) && statusCode < 500;
	const named = requestError && apiText !== undefined ? namesIn(apiText, ownHints?.assumedNames) : [];
	if (named.length > 0) {
		parts.unshift(
			`The API's message names ${named.map((name) => `"${name}"`).join(', ')}, which the node sends under a name it assumes: the API most likely calls it otherwise.`,
		);
	}
	if (requestError && ownHints?.assumptions) parts.push(ownHints.assumptions);
	const response: JsonObject = {
		success: false,
		httpCode: statusCode,
		request: `${failure.method} ${failure.path}`,
	};
	const shown = message ?? (title === undefined ? undefined : `"${redactText(title, failure.redact)}"`);
	return new NodeApiError(node, response, {
		message: `${headline} (HTTP ${statusCode})${shown === undefined ? '' : `: ${shown}`}`,
		description: parts.join(' '),
		httpCode: String(statusCode),
		itemIndex,
	});
}

/** The assumed names that `text` mentions as a word (`chatType` in "chatType: unknown field"). */
function namesIn(text: string, names: string[] = []): string[] {
	return names.filter((name) => new RegExp(`(^|[^A-Za-z0-9_])${name.replace(/[^A-Za-z0-9_]/g, '\\$&')}([^A-Za-z0-9_]|$)`).test(text));
}

/**
 * True when a 2xx answer is a success: any body that does not say `success: false` (a missing
 * `success` is not a failure: the spec declares no error body at all for some endpoints).
 */
export function isSuccessBody(body: unknown): boolean {
	return !(!!body && typeof body === 'object' && (body as JsonObject).success === false);
}

/** What a 2xx answer lacked: nothing at all, or the key where the spec puts the payload. */
export interface MissingPayload {
	/** the payload's path in the spec, e.g. `response.chats` */
	expected: string;
	/** the keys that came (two levels, e.g. `data.chats`); empty for an answer without a body */
	came: string[];
}

/**
 * A 2xx answer to a read without the payload the spec names: an empty body (or 204) where the spec
 * shows a payload, or a body whose key is absent. Never an empty list or an item without the resource.
 */
export function missingPayloadError(
	node: INode,
	failure: Pick<ApiFailure, 'statusCode' | 'method' | 'path'>,
	missing: MissingPayload,
	itemIndex?: number,
): NodeApiError {
	const { statusCode, method, path } = failure;
	const { expected, came } = missing;
	const empty = came.length === 0;
	const message = empty
		? `The API answered nothing (HTTP ${statusCode}), where its description shows ${expected}`
		: `The API's answer has no ${expected} (HTTP ${statusCode})`;
	const what = empty
		? `${method} ${path} answered HTTP ${statusCode} without a body; expected ${expected}.`
		: `${method} ${path} answered HTTP ${statusCode}; expected ${expected}; the answer has ${came.join(', ')}.`;
	const then =
		'The node does not guess where the API put it, so that a missing result is never shown as an empty one. No output was produced for this item.';
	return new NodeApiError(
		node,
		{ success: false, httpCode: statusCode, request: `${method} ${path}` },
		{ message, description: `${what} ${then}`, httpCode: String(statusCode), itemIndex },
	);
}

/** The errors of writes the API did carry out (doneWithoutResultError). */
const doneErrors = new WeakSet<Error>();

/** True when `error` says the API carried out the write, and only its result is missing. */
export function wasDone(error: unknown): boolean {
	return error instanceof Error && doneErrors.has(error);
}

/**
 * A 2xx to a write that creates something, without the thing (its ID): the write WAS done
 * (DESIGN.md, "A 2xx to a write is done"); the item fails only because its main value is missing,
 * and says where to find it.
 */
export function doneWithoutResultError(
	node: INode,
	failure: Pick<ApiFailure, 'statusCode' | 'method' | 'path'>,
	missing: MissingPayload,
	created: { what: string; find: string },
	itemIndex?: number,
): NodeApiError {
	const { statusCode, method, path } = failure;
	const { expected, came } = missing;
	const answered = came.length === 0 ? 'without a body' : `with ${came.join(', ')}`;
	const error = new NodeApiError(
		node,
		{ success: false, httpCode: statusCode, request: `${method} ${path}` },
		{
			message: `Done (HTTP ${statusCode}), but the API did not send ${created.what}`,
			description: `${method} ${path} answered HTTP ${statusCode} ${answered}: the API carried out the request. Its description shows the result at ${expected}, so ${created.what} is unknown. ${created.find}`,
			httpCode: String(statusCode),
			itemIndex,
		},
	);
	doneErrors.add(error);
	return error;
}

/**
 * A write that creates something, done on an earlier try of n8n's Retry On Fail, whose answer (the
 * new ID) the memory of writes no longer holds (writes.ts): done, not sent again, the ID unknown.
 */
export function doneEarlierWithoutResultError(
	node: INode,
	method: string,
	path: string,
	created: { what: string; find: string },
	itemIndex?: number,
): NodeApiError {
	const error = new NodeApiError(
		node,
		{ success: false, request: `${method} ${path}` },
		{
			message: `Done on an earlier try, so not sent again; ${created.what} is no longer in memory`,
			description: `n8n's Retry On Fail ran the node again. This item's ${method} ${path} was accepted by the API on an earlier try of this execution; the node keeps the fact of every write done, but not the answers of the oldest ones of a very large run, so ${created.what} is unknown. ${created.find}`,
			httpCode: null as unknown as string,
			itemIndex,
		},
	);
	doneErrors.add(error);
	return error;
}

/**
 * A write that n8n's Retry On Fail asked to send again, after an earlier try of this execution
 * sent it and got no answer that says whether it was done (writes.ts): not sent again. `first` is
 * that try's error, undefined when the memory no longer holds it.
 */
export function notSentAgainError(node: INode, first: { message: string; httpCode?: unknown } | undefined, method: string, path: string, itemIndex?: number): NodeApiError {
	const { httpCode } = first ?? {};
	const code = typeof httpCode === 'string' ? httpCode : null;
	const why = first === undefined ? 'its answer is no longer held in memory' : first.message;
	return new NodeApiError(
		node,
		{ success: false, request: `${method} ${path}` },
		{
			message: `Not sent again: an earlier try of this item may have carried it out (${why})`,
			description: `n8n's Retry On Fail ran the node again. This item's ${method} ${path} was sent on an earlier try of this execution and got no answer that says whether the API carried it out, so the node did not send it again (that could do it twice). Check on the platform whether it was done before running the workflow again.`,
			httpCode: code as string,
			itemIndex,
		},
	);
}

export interface NetworkErrorOptions {
	/** the timeout in force, named when the call timed out */
	timeoutMs?: number;
	/** where the user can change the timeout, e.g. "Settings → Request Options → Timeout" */
	timeoutSetting?: string;
}

/**
 * The host (and port) the failed call was for: from the HTTP client's address, else from Node's
 * error (hostname, or address and port, or its message where n8n 1.x keeps only that). Only the
 * host: never the path, the query or userinfo.
 */
function hostOf(cause: unknown): string | undefined {
	const chain = causesOf(cause);
	for (const candidate of chain) {
		const config = (candidate as { config?: { baseURL?: unknown; url?: unknown } }).config;
		for (const address of [config?.baseURL, config?.url]) {
			if (typeof address !== 'string') continue;
			try {
				const { host } = new URL(address);
				if (host) return host;
			} catch {
				// a relative url: try the next
			}
		}
	}
	for (const candidate of chain) {
		const { hostname, host, address, port } = candidate as Record<string, unknown>;
		for (const name of [hostname, host]) if (typeof name === 'string' && name !== '') return name;
		if (typeof address === 'string' && address !== '') {
			const shown = address.includes(':') ? `[${address}]` : address;
			return typeof port === 'number' || typeof port === 'string' ? `${shown}:${port}` : shown;
		}
		const { messages } = candidate as { messages?: unknown };
		for (const line of Array.isArray(messages) ? messages : []) {
			const match = typeof line === 'string' ? NOTHING_SENT_MESSAGE.exec(line) : null;
			if (match) return match[1];
		}
	}
	return undefined;
}

/** What to check when nothing reached the API, by the code of the failure. */
function unreachableHint(code: string, host: string): string {
	if (code === 'ECONNREFUSED') {
		return `Nothing accepted the connection at ${host}. Check the host and port of the Base URL in the credential, and that the API is running and reachable from n8n.`;
	}
	if (code === 'ENOTFOUND' || code === 'EAI_NONAME' || code === 'EAI_FAIL') {
		return `The name ${host} does not resolve (DNS). Check its spelling in the Base URL of the credential.`;
	}
	if (code === 'EAI_AGAIN') return `The name ${host} could not be resolved at the moment (a temporary DNS failure). Try again later.`;
	if (/CERT|TLS|SSL/.test(code)) {
		return `The secure connection to ${host} failed: its certificate was not accepted. Check that the Base URL is the API's https address; a certificate n8n does not trust can be accepted with the node's Settings → Request Options → Ignore SSL Issues (Insecure).`;
	}
	return `Check the Base URL in the credential and that ${host} is reachable from n8n.`;
}

/**
 * A call that got no HTTP answer (refused, reset, timed out). Built from the error's code and the
 * host only: the original error holds the request, and the request holds the token. A connection
 * that failed before the request was written says that nothing was sent (it did nothing on the
 * platform); a reset or timeout afterwards says nothing of the kind (the retry policy adds that
 * the API may have carried it out).
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
	if (problem.nothingSent) {
		const code = problem.code ?? 'no connection';
		const host = hostOf(cause) ?? 'the Base URL';
		const message = `Could not reach the API at ${host} (${code}): nothing was sent`;
		const error = new NodeApiError(
			node,
			{ success: false, message: code, request: `${method} ${path}` },
			{
				message,
				description: `${method} ${path} never reached the API, so nothing was done on the platform. ${unreachableHint(code, host)}`,
				httpCode: null as unknown as string,
				itemIndex,
			},
		);
		// NodeApiError swaps a message that names a common code for its generic wording
		// ("The service refused the connection …"); ours names the host and what was sent.
		error.message = message;
		return error;
	}
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
