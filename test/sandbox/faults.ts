import { badRequest } from './errors';
import { Fields, isPlainObject } from './validation';

export const FAULT_KINDS = ['status', 'slow', 'non-json', 'success-false', 'reset', 'reset-after', 'json', 'busy-after'] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

/**
 * A fault injected into /v2 requests that match `method` and `path` (both optional).
 * - status: answer `status` (default 500) with the error body; 429 adds `Retry-After`.
 * - slow: wait `delayMs` (default 1000), then handle the request normally.
 * - non-json: HTTP 200 with an HTML page.
 * - success-false: HTTP 200 with `{success:false, message:'Erro ao enviar mensagem'}`.
 * - reset: destroy the connection without an answer (nothing done).
 * - reset-after: handle the request (the write IS done), then destroy the connection instead of
 *   answering: a client cannot tell this from 'reset' (the outcome is unknown to it).
 * - busy-after: handle and answer the request, then keep this process's event loop busy for
 *   `delayMs` (default 1000) before anything else runs: what a client in the same process sees when
 *   its loop was held (n8n preparing another execution's many items) while the answer arrived.
 *   Only meaningful with the sandbox in the test's process (jest), not as a separate server.
 * - json: HTTP `status` (default 200) with `body` as given (e.g. a page whose cursor points elsewhere);
 *   `{authorization}` in any of its strings becomes the request's Authorization header.
 * `match` limits a fault to requests whose raw body or a query value contains that text; `query`
 * to requests whose query string has exactly these values (e.g. `{ offset: '300' }`: one page).
 * `message` replaces the error text of 'status' and 'success-false'; `{authorization}` in it is
 * replaced by the request's Authorization header (an API that echoes the token). With
 * `retryAfterAsDate`, a 429's Retry-After is sent as an HTTP date instead of seconds.
 * Apart from 'slow', 'reset-after' and 'busy-after', a faulted request changes no state. `skip` lets the first N matching requests
 * through; `times` (default 1, Infinity allowed) is how many are affected after that; `every: n`
 * affects only every n-th of the matching requests after the skipped ones (the 1st, the n+1-th, …):
 * `{ kind: 'status', status: 429, every: 2, times: Infinity }` is a 429 storm in which each
 * request of a one-at-a-time walk is refused once and its retry answered.
 */
export interface Fault extends RequestFilter {
	kind: FaultKind;
	status?: number;
	retryAfterSeconds?: number;
	retryAfterAsDate?: boolean;
	message?: string;
	body?: unknown;
	delayMs?: number;
	skip?: number;
	times?: number;
	every?: number;
}

export interface ActiveFault {
	fault: Required<Pick<Fault, 'kind' | 'skip' | 'times'>> & Fault;
	/** matching requests seen so far */
	seen: number;
	/** requests affected so far */
	applied: number;
}

/** Which /v2 requests a fault or a hold (holds.ts) applies to; every field given must match. */
export interface RequestFilter {
	method?: string;
	/** e.g. '/v2/tag/create' ('/tag/create' is read the same); omitted = any /v2 path */
	path?: string;
	/** only requests whose raw body or a query value contains this text */
	match?: string;
	/** only requests whose query has these exact values */
	query?: Record<string, string>;
}

function normalizePath(path: string): string {
	let p = path.startsWith('/') ? path : `/${path}`;
	p = p.replace(/\/+$/, '');
	return p === '/v2' || p.startsWith('/v2/') ? p : `/v2${p}`;
}

/** Checks the request filter of a fault or a hold given as JSON or in code. */
export function parseFilter(value: Record<string, unknown>, label: string): RequestFilter {
	const f = new Fields(value, 'body', `${label}.`);
	const method = f.string('method', { min: 1, max: 10, pattern: /^[A-Za-z]+$/ })?.toUpperCase();
	const path = f.string('path', { min: 1, max: 255 });
	const match = f.string('match', { min: 1, max: 1000 });
	const query = value.query;
	if (query !== undefined && (!isPlainObject(query) || !Object.values(query).every((v) => typeof v === 'string'))) {
		throw badRequest(`${label}.query must be an object of strings`);
	}
	return {
		...(method && { method }),
		...(path && { path: normalizePath(path) }),
		...(match !== undefined && { match }),
		...(query !== undefined && { query: { ...(query as Record<string, string>) } }),
	};
}

/** `content`: the request's raw body and query values, for `match`. */
export function matchesFilter(filter: RequestFilter, method: string, path: string, content: string, query: URLSearchParams): boolean {
	if (filter.method && filter.method !== method) return false;
	if (filter.path && filter.path !== path) return false;
	if (filter.match !== undefined && !content.includes(filter.match)) return false;
	if (filter.query && Object.entries(filter.query).some(([key, value]) => query.get(key) !== value)) return false;
	return true;
}

/** Checks a fault given as JSON (control endpoint) or in code; `times` may be Infinity or 'Infinity'. */
export function parseFault(value: unknown, label = 'fault'): ActiveFault['fault'] {
	if (!isPlainObject(value)) throw badRequest(`${label} must be an object`);
	const { times: rawTimes, ...rest } = value;
	const f = new Fields(rest, 'body', `${label}.`);
	const kind = f.enumOf('kind', FAULT_KINDS, { required: true });
	const status = f.integer('status', { min: 400, max: 599 });
	const retryAfterSeconds = f.integer('retryAfterSeconds', { min: 0, max: 86_400 });
	const retryAfterAsDate = f.boolean('retryAfterAsDate');
	const message = f.string('message', { min: 1, max: 1000 });
	const body = rest.body;
	if (kind === 'json' && !isPlainObject(body) && !Array.isArray(body)) throw badRequest(`${label}.body must be an object or a list for kind json`);
	const delayMs = f.integer('delayMs', { min: 0, max: 600_000 });
	const skip = f.integer('skip', { min: 0, default: 0 });
	const every = f.integer('every', { min: 1 });
	let times = 1;
	if (rawTimes === Infinity || rawTimes === 'Infinity') times = Infinity;
	else if (rawTimes !== undefined && rawTimes !== null) times = new Fields({ times: rawTimes }, 'body', `${label}.`).integer('times', { required: true, min: 1 });
	return {
		kind,
		...parseFilter(rest, label),
		...(status !== undefined && { status }),
		...(retryAfterSeconds !== undefined && { retryAfterSeconds }),
		...(retryAfterAsDate !== undefined && { retryAfterAsDate }),
		...(message !== undefined && { message }),
		...(kind === 'json' && { body }),
		...(delayMs !== undefined && { delayMs }),
		...(every !== undefined && { every }),
		skip,
		times,
	};
}

export class FaultInjector {
	private active: ActiveFault[] = [];

	/** `fault` may come from JSON, so it is checked here. */
	add(fault: unknown, label?: string): ActiveFault {
		const entry: ActiveFault = { fault: parseFault(fault, label), seen: 0, applied: 0 };
		this.active.push(entry);
		return entry;
	}

	clear(): void {
		this.active = [];
	}

	list(): ActiveFault[] {
		return this.active.map((a) => ({ ...a, fault: { ...a.fault } }));
	}

	/** The first fault that takes this request (`content`: its raw body and query values), counting it against every matching fault's skip. */
	take(method: string, path: string, content = '', query: URLSearchParams = new URLSearchParams()): ActiveFault['fault'] | undefined {
		for (const entry of this.active) {
			const { fault } = entry;
			if (!matchesFilter(fault, method, path, content, query)) continue;
			if (entry.applied >= fault.times) continue;
			entry.seen++;
			if (entry.seen <= fault.skip) continue;
			if (fault.every !== undefined && (entry.seen - fault.skip - 1) % fault.every !== 0) continue;
			entry.applied++;
			return fault;
		}
		return undefined;
	}
}
