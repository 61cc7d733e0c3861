/* eslint-disable -- development tooling, not shipped: n8n's node rules (eslint.config.mjs, n8n-node lint) are for nodes/ and credentials/ */
import type { IncomingMessage, ServerResponse } from 'node:http';

import { sendJson } from './http';

/**
 * A scripted answer (a test hook beside faults.ts, for generated worlds: test/properties): the test
 * decides, request by request, what the API does with it and what the client gets back, in the
 * forms a real API or a proxy in front of it can take. Where faults.ts says "the next N matching
 * requests", a script is a function of the request (its body names the item, its receipt count the
 * attempt), so the answer does not depend on which concurrent request happened to arrive first.
 *
 * - `carriedOut: false` (default): the API does nothing; the client gets `answer`.
 * - `carriedOut: true`: the request is handled as usual (auth, rate limit, validation, the state
 *   changes); when the handler accepted it (2xx), the client gets `answer` instead of the handler's
 *   answer; when the handler refused it (401, 409, 429 …), that refusal is sent as it is.
 * - `answer`: 'handler' (the handler's own answer), 'reset' (the connection is destroyed, no
 *   answer), 'hang' (no answer at all: the connection stays open until the client gives up or the
 *   sandbox closes; a client's timeout), or a status with a body form and a raw `Retry-After`
 *   header value (sent as given: '0.5', '-1', 'soon', an HTTP date).
 * - `latencyMs`: a wait before anything happens (after holds and the sandbox's latency).
 */
export type ScriptedBody =
	/** the error envelope ({success: false, message}) for >= 400, {success: true} without a payload for a 2xx */
	| 'json'
	/** no body at all */
	| 'empty'
	/** text/plain */
	| 'text'
	/** a proxy's HTML page, with a <title> */
	| 'html'
	/** application/problem+json with title and detail */
	| 'problem'
	/** the handler's own body, under the scripted status (only with carriedOut) */
	| 'handler';

export interface ScriptedStatus {
	status: number;
	body?: ScriptedBody;
	retryAfter?: string;
}

export interface ScriptedAnswer {
	carriedOut?: boolean;
	answer: 'handler' | 'reset' | 'hang' | ScriptedStatus;
	latencyMs?: number;
}

/** The texts a scripted answer carries, so that a test can look for them in the node's messages. */
export const SCRIPTED_TEXT = Object.freeze({
	json: 'the scripted answer of the API',
	text: 'phoneNumber must be in E.164 format',
	htmlTitle: 'Sign in - Corporate Proxy',
	problemTitle: 'Service Unavailable',
	problemDetail: 'the scripted problem detail',
});

/** Writes a scripted status answer; `handlerBody` is what the handler answered (for 'handler'). */
export function writeScripted(res: ServerResponse, scripted: ScriptedStatus, handlerBody?: unknown): void {
	if (res.headersSent || res.destroyed) return;
	const { status } = scripted;
	const headers: Record<string, string> = scripted.retryAfter === undefined ? {} : { 'retry-after': scripted.retryAfter };
	const form = status === 204 ? 'empty' : (scripted.body ?? 'json');
	const raw = (type: string | undefined, text: string): void => {
		res.writeHead(status, { ...(type && { 'content-type': type }), 'content-length': String(Buffer.byteLength(text)), ...headers });
		res.end(text);
	};
	switch (form) {
		case 'empty':
			return raw(status === 204 ? undefined : 'application/json; charset=utf-8', '');
		case 'text':
			return raw('text/plain; charset=utf-8', SCRIPTED_TEXT.text);
		case 'html':
			return raw('text/html; charset=utf-8', `<!DOCTYPE html><html><head><title>${SCRIPTED_TEXT.htmlTitle}</title></head><body><form>Password</form></body></html>`);
		case 'problem':
			return raw('application/problem+json', JSON.stringify({ type: 'about:blank', title: SCRIPTED_TEXT.problemTitle, status, detail: SCRIPTED_TEXT.problemDetail }));
		case 'handler':
			return sendJson(res, status, handlerBody ?? { success: true }, headers);
		default:
			return sendJson(res, status, status >= 400 ? { success: false, message: SCRIPTED_TEXT.json } : { success: true }, headers);
	}
}

/** Destroys the connection without an answer. */
export function resetConnection(req: IncomingMessage): void {
	req.socket.destroy();
}
