/* eslint-disable -- development tooling, not shipped: n8n's node rules (eslint.config.mjs, n8n-node lint) are for nodes/ and credentials/ */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiError } from './errors';

/** Bodies beyond this are refused (413) instead of buffered. */
export const MAX_BODY_BYTES = 5 * 1024 * 1024;

export function readBody(req: IncomingMessage, maxBytes = MAX_BODY_BYTES): Promise<string> {
	return new Promise((resolve, reject) => {
		const chunks: Buffer[] = [];
		let size = 0;
		req.on('data', (chunk: Buffer) => {
			size += chunk.length;
			if (size > maxBytes) {
				reject(new ApiError(413, `request body exceeds ${maxBytes} bytes`));
				req.resume();
				return;
			}
			chunks.push(chunk);
		});
		req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
		req.on('error', reject);
	});
}

export type JsonParse = { ok: true; value: unknown } | { ok: false };

export function parseJson(raw: string): JsonParse {
	try {
		return { ok: true, value: JSON.parse(raw) as unknown };
	} catch {
		return { ok: false };
	}
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
	if (res.headersSent || res.destroyed) return;
	const text = JSON.stringify(body);
	res.writeHead(status, {
		'content-type': 'application/json; charset=utf-8',
		'content-length': String(Buffer.byteLength(text)),
		...headers,
	});
	res.end(text);
}

/** Node gives repeated headers as arrays; recordings keep one string per header. */
export function flatHeaders(req: IncomingMessage): Record<string, string> {
	const out: Record<string, string> = {};
	for (const [key, value] of Object.entries(req.headers)) {
		if (value !== undefined) out[key] = Array.isArray(value) ? value.join(', ') : value;
	}
	return out;
}
