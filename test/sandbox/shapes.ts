import type { ServerResponse } from 'node:http';

import { badRequest } from './errors';
import { sendJson } from './http';

/**
 * Answer-shape switches (a variant, beside variants.ts): the sandbox answers as a real API plausibly
 * does where the spec shows one envelope and is silent on the rest. They change only how an answer
 * is WRITTEN, never what the handler did: an endpoint switched to 'noContent' still deletes.
 *
 * Success answers (2xx):
 * - empty: HTTP 200 with an empty body;
 * - noContent: HTTP 204, no body;
 * - noSuccess: the body without its `success` field;
 * - otherEnvelope: the payload under `response` where the spec shows `data`, and the other way round;
 * - nested: the payload one level deeper, under `result` inside its envelope (`data.result.tag`);
 * - noHasNext: cursor pages without `paging.hasNext` (the cursor alone says there is more).
 * Error answers (HTTP >= 400, or `success: false`), each carrying the text the sandbox meant and
 * SECOND_REASON:
 * - messageList: `message` as a list of texts (what common validation frameworks send);
 * - errorObject: `error: {message}` instead of `message`;
 * - errorText: `error` as a text instead of `message`;
 * - errorsList: `errors: [{message}, text]` instead of `message`.
 *
 * Error answers in a body that is not the API's JSON error (BODY_SHAPES), each carrying the text the
 * sandbox meant except the web page:
 * - textPlain: `text/plain`, the text alone;
 * - problemJson: `application/problem+json` (RFC 9457), `title` (PROBLEM_TITLE) and `detail` (the text);
 * - htmlPage: `text/html`, a proxy's sign-in page titled PROXY_PAGE_TITLE, the status kept (a 200
 *   for `success: false`: a proxy page under 200 is what a client gets).
 *
 * Keyed by endpoint (`/automation/delete`, with or without `/v2`), or `*` for every endpoint.
 */
export const SUCCESS_SHAPES = ['empty', 'noContent', 'noSuccess', 'otherEnvelope', 'nested', 'noHasNext'] as const;
export const ERROR_SHAPES = ['messageList', 'errorObject', 'errorText', 'errorsList'] as const;
export const BODY_SHAPES = ['textPlain', 'problemJson', 'htmlPage'] as const;
export type AnswerShape = (typeof SUCCESS_SHAPES)[number] | (typeof ERROR_SHAPES)[number] | (typeof BODY_SHAPES)[number];

/** The problemJson shape's `title`; the htmlPage shape's `<title>`. */
export const PROBLEM_TITLE = 'Request rejected';
export const PROXY_PAGE_TITLE = 'Sign in - Corporate Proxy';
const PROXY_PAGE = `<!DOCTYPE html><html><head><title>${PROXY_PAGE_TITLE}</title></head><body><form action="/login"><input name="user"><input name="password" type="password"></form></body></html>`;
export type AnswerShapes = Record<string, AnswerShape>;

/** The further text the error shapes add, so that a test sees every text of a list shown. */
export const SECOND_REASON = 'a second reason the API gives';

const ALL_SHAPES: readonly string[] = [...SUCCESS_SHAPES, ...ERROR_SHAPES, ...BODY_SHAPES];

function isObject(value: unknown): value is Record<string, unknown> {
	return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Checks shapes given in code or to the control endpoint. */
export function parseShapes(value: unknown): AnswerShapes | undefined {
	if (value === undefined) return undefined;
	if (!isObject(value)) throw badRequest('variants.shapes must be an object of endpoint → shape');
	for (const [endpoint, shape] of Object.entries(value)) {
		if (typeof shape !== 'string' || !ALL_SHAPES.includes(shape)) {
			throw badRequest(`variants.shapes["${endpoint}"] must be one of ${ALL_SHAPES.join(', ')}`);
		}
	}
	return { ...(value as AnswerShapes) };
}

function shapeOf(shapes: AnswerShapes | undefined, path: string): AnswerShape | undefined {
	if (!shapes) return undefined;
	const endpoint = path.replace(/^\/v2(?=\/)/, '');
	return shapes[endpoint] ?? shapes[`/v2${endpoint}`] ?? shapes['*'];
}

const ENVELOPES = ['data', 'response'] as const;

/** The answer a success shape writes: a status, and a body unless there is none. */
function shapeSuccess(shape: AnswerShape, status: number, body: Record<string, unknown>): { status: number; body?: unknown } {
	const rest = { ...body };
	switch (shape) {
		case 'empty':
			return { status };
		case 'noContent':
			return { status: 204 };
		case 'noSuccess':
			delete rest.success;
			return { status, body: rest };
		case 'otherEnvelope':
			for (const envelope of ENVELOPES) delete rest[envelope];
			if (body.data !== undefined) rest.response = body.data;
			if (body.response !== undefined) rest.data = body.response;
			return { status, body: rest };
		case 'nested':
			for (const envelope of ENVELOPES) if (body[envelope] !== undefined) rest[envelope] = { result: body[envelope] };
			return { status, body: rest };
		case 'noHasNext':
			for (const envelope of ENVELOPES) {
				const payload = body[envelope];
				if (isObject(payload) && isObject(payload.paging)) {
					const paging = { ...payload.paging };
					delete paging.hasNext;
					rest[envelope] = { ...payload, paging };
				}
			}
			return { status, body: rest };
		default:
			return { status, body };
	}
}

/** The error body an error shape writes, from the sandbox's `{success: false, message}`. */
function shapeError(shape: AnswerShape, body: Record<string, unknown>): unknown {
	const { message, ...rest } = body;
	const text = typeof message === 'string' ? message : String(message);
	switch (shape) {
		case 'messageList':
			return { ...rest, message: [text, SECOND_REASON] };
		case 'errorObject':
			return { ...rest, error: { message: text, code: 'REQUEST_ERROR' } };
		case 'errorText':
			return { ...rest, error: text };
		case 'errorsList':
			return { ...rest, errors: [{ message: text }, SECOND_REASON] };
		default:
			return body;
	}
}

/** An error answer in a body other than JSON: the Content-Type and the text written. */
function shapeBody(shape: AnswerShape, body: Record<string, unknown>): { contentType: string; text: string } | undefined {
	const text = typeof body.message === 'string' ? body.message : String(body.message);
	switch (shape) {
		case 'textPlain':
			return { contentType: 'text/plain; charset=utf-8', text };
		case 'problemJson':
			return { contentType: 'application/problem+json', text: JSON.stringify({ type: 'about:blank', title: PROBLEM_TITLE, detail: text }) };
		case 'htmlPage':
			return { contentType: 'text/html; charset=utf-8', text: PROXY_PAGE };
		default:
			return undefined;
	}
}

/**
 * Writes one /v2 answer in the shape switched on for its endpoint (as it is when none applies);
 * returns the status written.
 */
export function writeAnswer(
	res: ServerResponse,
	shapes: AnswerShapes | undefined,
	path: string,
	status: number,
	body: unknown,
	headers: Record<string, string> = {},
): number {
	const shape = shapeOf(shapes, path);
	let written: { status: number; body?: unknown } = { status, body };
	if (shape && isObject(body)) {
		const failed = status >= 400 || body.success === false;
		if (failed && (ERROR_SHAPES as readonly string[]).includes(shape)) written = { status, body: shapeError(shape, body) };
		const other = failed ? shapeBody(shape, body) : undefined;
		if (other !== undefined) {
			if (res.headersSent || res.destroyed) return status;
			res.writeHead(status, { 'content-type': other.contentType, 'content-length': String(Buffer.byteLength(other.text)), ...headers });
			res.end(other.text);
			return status;
		}
		if (!failed && status < 300 && (SUCCESS_SHAPES as readonly string[]).includes(shape)) written = shapeSuccess(shape, status, body);
	}
	if (!('body' in written) || written.body === undefined) {
		if (res.headersSent || res.destroyed) return written.status;
		// An empty 200 still says JSON, as frameworks do; a 204 says nothing.
		const type: Record<string, string> = written.status === 204 ? {} : { 'content-type': 'application/json; charset=utf-8' };
		res.writeHead(written.status, { ...type, 'content-length': '0', ...headers });
		res.end();
		return written.status;
	}
	sendJson(res, written.status, written.body, headers);
	return written.status;
}
