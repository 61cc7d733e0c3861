/* eslint-disable -- development tooling, not shipped: n8n's node rules (eslint.config.mjs, n8n-node lint) are for nodes/ and credentials/ */
import http, { type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startSandbox, type Sandbox, type SandboxOptions } from '../index';

/** Parsed JSON of a response: tests navigate it freely, so it is deliberately untyped. */
export type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

export interface Reply {
	status: number;
	headers: Headers;
	text: string;
	body: Json;
}

export interface CallOptions {
	body?: unknown;
	/** sent as-is instead of JSON.stringify(body) */
	raw?: string;
	query?: Record<string, string | number | boolean>;
	/** null = no Authorization header; default: the sandbox token */
	token?: string | null;
	headers?: Record<string, string>;
}

export async function request(url: string, method: string, opts: CallOptions = {}, defaultToken?: string): Promise<Reply> {
	const target = new URL(url);
	for (const [k, v] of Object.entries(opts.query ?? {})) target.searchParams.set(k, String(v));
	const headers: Record<string, string> = { ...opts.headers };
	const token = opts.token === undefined ? defaultToken : opts.token;
	if (token !== null && token !== undefined) headers.authorization = `Bearer ${token}`;
	let body: string | undefined = opts.raw;
	if (body === undefined && opts.body !== undefined) body = JSON.stringify(opts.body);
	if (body !== undefined) headers['content-type'] ??= 'application/json';
	const res = await fetch(target, { method, headers, body });
	const text = await res.text();
	let parsed: Json;
	try {
		parsed = JSON.parse(text);
	} catch {
		parsed = undefined;
	}
	return { status: res.status, headers: res.headers, text, body: parsed };
}

/** Calls against one sandbox: `api.get('/tag/list-contacts', {tagId})`, `api.post('/tag/create', {...})`. */
export function apiClient(sandbox: Sandbox) {
	return {
		call: (method: string, path: string, opts: CallOptions = {}) => request(sandbox.baseUrl + path, method, opts, sandbox.token),
		get: (path: string, query: Record<string, string | number | boolean> = {}) => request(sandbox.baseUrl + path, 'GET', { query }, sandbox.token),
		post: (path: string, body: unknown = {}) => request(sandbox.baseUrl + path, 'POST', { body }, sandbox.token),
		control: (method: string, path: string, body?: unknown) => request(`${sandbox.url}/_sandbox${path}`, method, { body, token: null }),
	};
}

export type ApiClient = ReturnType<typeof apiClient>;

/** A sandbox per test file; reset before each test so tests do not see each other's changes. */
export function useSandbox(options: SandboxOptions = {}): { sandbox: () => Sandbox; api: () => ApiClient } {
	let sandbox: Sandbox | undefined;
	let api: ApiClient | undefined;
	beforeAll(async () => {
		sandbox = await startSandbox({ quiet: true, ...options });
		api = apiClient(sandbox);
	});
	beforeEach(() => sandbox?.reset());
	afterAll(async () => sandbox?.close());
	return {
		sandbox: () => {
			if (!sandbox) throw new Error('sandbox not started');
			return sandbox;
		},
		api: () => {
			if (!api) throw new Error('sandbox not started');
			return api;
		},
	};
}

/** Expects the API's error body with this status and a message mentioning every given fragment. */
export function expectError(reply: Reply, status: number, ...fragments: string[]): void {
	expect({ status: reply.status, success: reply.body?.success }).toEqual({ status, success: false });
	expect(typeof reply.body.message).toBe('string');
	for (const fragment of fragments) expect(reply.body.message).toContain(fragment);
}

export interface Hit {
	method: string;
	path: string;
	query: Record<string, string>;
	headers: Record<string, string>;
	body: string;
	at: number;
}

/** A tiny webhook receiver that records what it is sent and answers 200 (or `status`). */
/** A receiver of deliveries answering `status`, after `delayMs` (a slow receiver). */
export async function startReceiver(status = 200, delayMs = 0) {
	const hits: Hit[] = [];
	const server = http.createServer((req: IncomingMessage, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (c: Buffer) => chunks.push(c));
		req.on('end', () => {
			const url = new URL(req.url ?? '/', 'http://receiver');
			const headers: Record<string, string> = {};
			for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers[k] = v;
			hits.push({ method: req.method ?? '', path: url.pathname, query: Object.fromEntries(url.searchParams), headers, body: Buffer.concat(chunks).toString(), at: Date.now() });
			const answer = (): void => {
				res.writeHead(status, { 'content-type': 'text/plain' });
				res.end('received');
			};
			if (delayMs > 0) setTimeout(answer, delayMs);
			else answer();
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
	return {
		url,
		hits,
		close: () =>
			new Promise<void>((resolve) => {
				server.close(() => resolve());
				server.closeAllConnections();
			}),
	};
}

export const ID = /^c[a-z0-9]{24}$/;
export const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Resolves once `condition()` holds (checked every 5 ms); rejects after `timeoutMs`. A wait for a
 *  state, not a guess at how long it takes. */
export async function until(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	while (!condition()) {
		if (Date.now() > deadline) throw new Error(`condition not met after ${timeoutMs} ms`);
		await sleep(5);
	}
}
