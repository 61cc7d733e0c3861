import type { IDataObject, INode } from 'n8n-workflow';

import { CREATED_AT, payloadOf, QUESTIONS, valueAt } from './answers';
import type { ErrorHints } from './errors';
import { apiError, doneEarlierWithoutResultError, doneWithoutResultError, isSuccessBody, missingPayloadError, redactText, withoutSecrets } from './errors';
import type { Attempt } from './retry';
import { statusFailure } from './retry';

/**
 * THE reader of the API's answers (DESIGN.md, "Reading the API's answers"): every answer that
 * sendRequest gets (operations, pages, pickers, the trigger's registrations) is read here, by its
 * shape and not by our guess of it.
 * - Success is any 2xx whose body does not say `success: false`.
 * - A 2xx to a write is done: an empty body, a 204 or a missing payload is a success carrying what
 *   came, except where the payload is what the write created (answers.ts CREATED_AT): then the item
 *   fails, saying the write was done and where to find what is missing.
 * - On a read, the key the spec names for the payload must be there, or in the other envelope
 *   (`data` ↔ `response`), where it is then read; otherwise an error names the key expected and
 *   the keys that came (an empty body too, unless the spec's answer carries only `success`). An
 *   empty list is only a list that is there and empty.
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

/** A write the API accepted without the payload its description shows: what the item says of it. */
export interface DoneWithoutPayload {
	note: string;
}

/** The success values that are such writes (the value itself carries no marker the user sees). */
const doneWithout = new WeakMap<object, DoneWithoutPayload>();

/** Whether `value` (a success value of readAnswer) is a write done without its payload. */
export function doneWithoutPayload(value: object): DoneWithoutPayload | undefined {
	return doneWithout.get(value);
}

/**
 * How a write ended by its answer, for the memory of writes (writes.ts): a 2xx the API sent is done
 * (`success: false` says not done); a page that is not the API's, a 5xx or anything else leaves it
 * unknown; a 4xx (429 included) is a refusal.
 */
export function writeOutcomeOf(answer: Pick<Answer, 'statusCode' | 'body'>): 'accepted' | 'unknown' | 'notDone' {
	const { statusCode, body } = answer;
	if (statusCode >= 400 && statusCode < 500) return 'notDone';
	if (statusCode < 200 || statusCode >= 300) return 'unknown';
	if (isEmpty(body)) return 'accepted';
	if (!isJson(body)) return 'unknown';
	return isSuccessBody(body) ? 'accepted' : 'notDone';
}

/**
 * A write done on an earlier try of n8n's Retry On Fail whose answer the memory of writes no longer
 * holds (writes.ts): done, so never sent again; the item says so. Where the result is what the
 * write created (its ID), the item fails as a done write without its result does.
 */
export function doneEarlier(node: INode, method: string, path: string, itemIndex?: number): IDataObject {
	const created = CREATED_AT[path];
	if (created !== undefined) throw doneEarlierWithoutResultError(node, method, path, created, itemIndex);
	const value: IDataObject = { success: true };
	doneWithout.set(value, {
		note: `Done on an earlier try of this execution (n8n's Retry On Fail), so not sent again; its answer is no longer held in memory.`,
	});
	return value;
}

/** The success body of one answer, or the error the user sees (with how retry.ts treats it). */
export function readAnswer(node: () => INode, answer: Answer, reporting: Reporting): Attempt<IDataObject> {
	// `node` is called for an error only (n8n's getNode() copies the node: issue 37).
	const { statusCode, path } = answer;
	// Whatever the API echoes (a debug layer quoting the Authorization header), the token never
	// reaches an output item: a success body becomes items as it came.
	const body = withoutSecrets(answer.body, reporting.redact);
	const { itemIndex } = reporting;
	const final = (error: Error): Attempt<IDataObject> => ({ ok: false, error, failure: { kind: 'final' } });
	const twoHundred = statusCode >= 200 && statusCode < 300;
	const expected = payloadOf(path);
	const write = answer.method.toUpperCase() !== 'GET' && !QUESTIONS.has(path);
	const created = write ? CREATED_AT[path] : undefined;

	// A write the API said it did, without the payload: done, with what came.
	const done = (value: IDataObject): Attempt<IDataObject> => {
		const note = `The API accepted the request (HTTP ${statusCode}) without the result its description shows at ${expected ?? 'a JSON body'}.`;
		doneWithout.set(value, { note });
		return { ok: true, value };
	};
	if (twoHundred && isEmpty(body)) {
		if (expected === null) return { ok: true, value: { success: true } };
		if (write && created === undefined) return done({ success: true });
		if (created !== undefined) return final(doneWithoutResultError(node(), answer, { expected: expected ?? 'a JSON body', came: [] }, created, itemIndex));
		return final(missingPayloadError(node(), answer, { expected: expected ?? 'a JSON body', came: [] }, itemIndex));
	}
	if (!twoHundred || !isJson(body) || !isSuccessBody(body)) {
		const failure = { ...answer, redact: reporting.redact, hints: reporting.hints };
		return {
			ok: false,
			error: apiError(node(), failure, itemIndex),
			failure: statusCode >= 400 ? statusFailure(statusCode, answer.retryAfter) : { kind: 'final' },
		};
	}
	if (!expected) return { ok: true, value: body as IDataObject };
	const read = Array.isArray(body) ? undefined : withPayload(body as IDataObject, expected);
	if (read !== undefined) return { ok: true, value: read };
	if (write && created === undefined) return done(Array.isArray(body) ? { success: true, list: body as IDataObject[] } : { ...(body as IDataObject) });
	const came = keysOf(body).map((key) => redactText(key, reporting.redact));
	if (created !== undefined) return final(doneWithoutResultError(node(), answer, { expected, came }, created, itemIndex));
	return final(missingPayloadError(node(), answer, { expected, came }, itemIndex));
}
