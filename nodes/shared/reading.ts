import type { IDataObject, INode } from 'n8n-workflow';

import { payloadOf, valueAt } from './answers';
import type { ErrorHints } from './errors';
import { apiError, isSuccessBody, missingPayloadError, redactText } from './errors';
import type { Attempt } from './retry';
import { statusFailure } from './retry';

/**
 * THE reader of the API's answers (DESIGN.md, "Reading the API's answers"): every answer that
 * sendRequest gets (operations, pages, pickers, the trigger's registrations) is read here, by its
 * shape and not by our guess of it.
 * - Success is any 2xx whose body does not say `success: false`.
 * - An empty body (or 204) is a success for an endpoint whose spec answer carries only `success`
 *   (answers.ts: PAYLOAD_AT null); elsewhere it is an error saying the API answered nothing.
 * - The key the spec names for the payload must be there, or in the other envelope
 *   (`data` ↔ `response`), where it is then read; otherwise an error names the key expected and
 *   the keys that came. An empty list is only a list that is there and empty.
 * - Failures carry the API's explanation whatever its shape (errors.ts, apiMessage).
 */

/** One HTTP answer, as sendRequest received it. */
export interface Answer {
	method: string;
	/** path under the base URL, e.g. `/inbox/find-all-chats` */
	path: string;
	statusCode: number;
	body: unknown;
	contentType?: string;
	retryAfter?: string;
}

/** How the failure is reported: the item, the operation's hints, the secrets never quoted. */
export interface Reporting {
	itemIndex?: number;
	hints?: ErrorHints;
	redact: string[];
}

const ENVELOPES = ['data', 'response'];

/** Nothing at all: no body, an empty text, or empty bytes. */
function isEmpty(body: unknown): boolean {
	if (body === undefined || body === null) return true;
	if (typeof body === 'string') return body.trim() === '';
	return body instanceof Uint8Array && body.length === 0;
}

/** A parsed JSON object or list (not text, not bytes). */
function isJson(body: unknown): body is object {
	return typeof body === 'object' && body !== null && !(body instanceof Uint8Array);
}

const isPresent = (value: unknown): boolean => value !== undefined && value !== null;

/**
 * The body with its payload at `expected`: as it is, or with the other envelope read as the
 * expected one when that envelope holds exactly the expected key. Undefined when neither has it.
 */
function withPayload(body: IDataObject, expected: string): IDataObject | undefined {
	if (isPresent(valueAt(body, expected))) return body;
	const [envelope, ...rest] = expected.split('.');
	const other = ENVELOPES.find((name) => name !== envelope);
	if (!ENVELOPES.includes(envelope) || other === undefined) return undefined;
	const moved = [other, ...rest].join('.');
	if (!isPresent(valueAt(body, moved))) return undefined;
	return { ...body, [envelope]: body[other] };
}

/** The keys of an answer, two levels deep (`data.chats`), for an error that says what came. */
function keysOf(body: object): string[] {
	if (Array.isArray(body)) return [`a list of ${body.length} entries instead of an object`];
	const keys = Object.entries(body).flatMap(([key, value]) =>
		value !== null && typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length > 0
			? Object.keys(value).map((inner) => `${key}.${inner}`)
			: [key],
	);
	if (keys.length === 0) return ['no keys ({})'];
	const MAX_KEYS = 12;
	return keys.length > MAX_KEYS ? [...keys.slice(0, MAX_KEYS), `… (${keys.length - MAX_KEYS} more)`] : keys;
}

/** The success body of one answer, or the error the user sees (with how retry.ts treats it). */
export function readAnswer(node: INode, answer: Answer, reporting: Reporting): Attempt<IDataObject> {
	const { statusCode, body, path } = answer;
	const { itemIndex } = reporting;
	const final = (error: Error): Attempt<IDataObject> => ({ ok: false, error, failure: { kind: 'final' } });
	const twoHundred = statusCode >= 200 && statusCode < 300;
	const expected = payloadOf(path);

	if (twoHundred && isEmpty(body)) {
		if (expected === null) return { ok: true, value: { success: true } };
		return final(missingPayloadError(node, answer, { expected: expected ?? 'a JSON body', came: [] }, itemIndex));
	}
	if (!twoHundred || !isJson(body) || !isSuccessBody(body)) {
		const failure = { ...answer, redact: reporting.redact, hints: reporting.hints };
		return {
			ok: false,
			error: apiError(node, failure, itemIndex),
			failure: statusCode >= 400 ? statusFailure(statusCode, answer.retryAfter) : { kind: 'final' },
		};
	}
	if (!expected) return { ok: true, value: body as IDataObject };
	const read = Array.isArray(body) ? undefined : withPayload(body as IDataObject, expected);
	if (read !== undefined) return { ok: true, value: read };
	const came = keysOf(body).map((key) => redactText(key, reporting.redact));
	return final(missingPayloadError(node, answer, { expected, came }, itemIndex));
}
