import type { IDataObject } from 'n8n-workflow';

import { asItemJson, valueAt } from './output';
import { runPool } from './pool';

/**
 * The list strategies of the API, written once and parameterised per endpoint:
 *
 * - offset pages with a total (tag contacts): the first page gives the total; the pages still
 *   needed are then known in advance and fetched `concurrency` at a time (1 = one after the other);
 * - offset pages without a total (chats, messages): one after the other until a short page or the
 *   limit;
 * - cursor pages (templates): one after the other, `after = paging.after` while `paging.hasNext`;
 * - whole list (integrations, users): one call, the limit applied here.
 *
 * With a limit, exactly `limit` elements come back and no page is fetched that is not needed:
 * the last page asks only for the elements still missing.
 *
 * Every page goes through the executor's `send`, which retries a page (429, or a 5xx/timeout/
 * connection failure of a GET) with the very same offset or cursor: a retried page is neither
 * skipped nor counted twice. Concurrent pages share one retry gate (executor.ts), so a 429 on one
 * page holds back the others. Results are always in the API's order, whatever order the answers
 * arrive in. A response only ever supplies a cursor VALUE (`after`), sent as a query parameter to
 * the credential's host: it can never redirect the walk to another URL.
 *
 * A list that changes while it is paged (offset + total): the pages are planned from the first
 * page's total. Elements that an addition pushes across a page boundary would come twice; with a
 * `uniqueKey` the second copy is dropped, and the elements pushed past the planned end are fetched
 * afterwards, up to the total the API reported last (or the limit). An element removed while paging
 * shifts later ones forward, and one of them can be missed: no offset-based reader can see that.
 */

/**
 * Sends one page: the query values given override the prepared request's. `signal` ends the
 * page's waits (shared Retry-After, backoff) when the walk is abandoned. Returns the body.
 */
export type SendPage = (query: IDataObject, signal?: AbortSignal) => Promise<IDataObject>;

/** A node parameter that sets how many pages are fetched at the same time. */
export interface PageConcurrency {
	/** parameter path, e.g. `options.concurrentPageRequests` */
	parameter: string;
	default: number;
	max: number;
}

export interface OffsetPaging {
	kind: 'offset';
	/** wire names of the offset and page-size query parameters */
	offsetKey: string;
	pageSizeKey: string;
	maxPageSize: number;
	/** where the total lives, when the endpoint gives one */
	totalPath?: string;
	/** with a total: the setting for concurrent page requests (else pages go one by one) */
	concurrency?: PageConcurrency;
	/** a field naming an element uniquely: a copy seen earlier in the same run is dropped */
	uniqueKey?: string;
}

export interface CursorPaging {
	kind: 'cursor';
	pageSizeKey: string;
	cursorKey: string;
	maxPageSize: number;
	/** where the next cursor and the has-next flag live */
	cursorPath: string;
	hasNextPath: string;
}

export interface WholeList {
	kind: 'whole';
}

export type Paging = OffsetPaging | CursorPaging | WholeList;

export interface ListSpec {
	/** where the elements live, e.g. `data.contacts` */
	itemsPath: string;
	paging: Paging;
}

export interface CollectOptions {
	/** undefined = Return All */
	limit: number | undefined;
	/** pages fetched at the same time (offset + total only); default 1 */
	concurrency?: number;
	/** the execution's cancel signal */
	signal?: AbortSignal;
}

/**
 * The concurrency a parameter value asks for: a whole number from 1 to `setting.max` (a string of
 * digits from an expression too); undefined when the value is not one. Absent = the default.
 */
export function pageConcurrency(value: unknown, setting: PageConcurrency): number | undefined {
	if (value === undefined || value === null || value === '') return setting.default;
	const n = typeof value === 'string' && /^\s*\d+\s*$/.test(value) ? Number(value) : value;
	if (typeof n !== 'number' || !Number.isInteger(n) || n < 1 || n > setting.max) return undefined;
	return n;
}

/**
 * The output being built: elements in order, at most `limit`, copies of an element already taken
 * (same `uniqueKey`) dropped. Elements are appended one by one: no intermediate arrays, no spread.
 */
class Sink {
	readonly results: IDataObject[] = [];
	private readonly seen: Set<unknown> | undefined;

	constructor(
		private readonly itemsPath: string,
		private readonly limit: number | undefined,
		private readonly uniqueKey?: string,
	) {
		this.seen = uniqueKey === undefined ? undefined : new Set();
	}

	get full(): boolean {
		return this.limit !== undefined && this.results.length >= this.limit;
	}

	/** Elements still wanted (Infinity with Return All). */
	get missing(): number {
		return this.limit === undefined ? Infinity : this.limit - this.results.length;
	}

	/** Takes a page's elements; returns how many the page held (what the offset moves by). */
	add(body: unknown): number {
		const list = valueAt(body, this.itemsPath);
		if (!Array.isArray(list)) return 0;
		const { results, seen, uniqueKey } = this;
		for (let i = 0; i < list.length && !this.full; i++) {
			const json = asItemJson(list[i]);
			if (seen !== undefined) {
				const key = json[uniqueKey as string];
				if (typeof key === 'string' || typeof key === 'number') {
					if (seen.has(key)) continue;
					seen.add(key);
				}
			}
			results.push(json);
		}
		return list.length;
	}
}

function totalOf(body: unknown, path: string | undefined): number | undefined {
	if (path === undefined) return undefined;
	const raw = valueAt(body, path);
	if (raw === undefined || raw === null || raw === '') return undefined;
	const total = Number(raw);
	return Number.isFinite(total) && total >= 0 ? total : undefined;
}

export async function collect(
	spec: ListSpec,
	send: SendPage,
	options: CollectOptions,
): Promise<IDataObject[]> {
	const { paging } = spec;
	const uniqueKey = paging.kind === 'offset' ? paging.uniqueKey : undefined;
	const sink = new Sink(spec.itemsPath, options.limit, uniqueKey);
	if (paging.kind === 'whole') sink.add(await send({}));
	else if (paging.kind === 'cursor') await walkCursor(paging, send, sink);
	else await walkOffset(paging, send, sink, options);
	return sink.results;
}

async function walkCursor(paging: CursorPaging, send: SendPage, sink: Sink): Promise<void> {
	const { pageSizeKey, cursorKey, maxPageSize, cursorPath, hasNextPath } = paging;
	let cursor: string | undefined;
	const seen = new Set<string>();
	while (!sink.full) {
		const query: IDataObject = { [pageSizeKey]: String(Math.min(maxPageSize, sink.missing)) };
		if (cursor !== undefined) query[cursorKey] = cursor;
		const body = await send(query);
		sink.add(body);
		const next = valueAt(body, cursorPath);
		if (valueAt(body, hasNextPath) !== true || typeof next !== 'string' || next === '') return;
		// A cursor the API already gave would loop for ever: stop instead.
		if (seen.has(next)) return;
		seen.add(next);
		cursor = next;
	}
}

interface PlannedPage {
	offset: number;
	size: number;
}

async function walkOffset(
	paging: OffsetPaging,
	send: SendPage,
	sink: Sink,
	options: CollectOptions,
): Promise<void> {
	const { offsetKey, pageSizeKey, maxPageSize, totalPath } = paging;
	const returnAll = options.limit === undefined;
	const query = (offset: number, size: number): IDataObject => ({
		[offsetKey]: String(offset),
		[pageSizeKey]: String(size),
	});

	const firstSize = Math.min(maxPageSize, sink.missing);
	const first = await send(query(0, firstSize));
	const firstCount = sink.add(first);
	if (firstCount === 0 || sink.full) return;
	let latestTotal = totalOf(first, totalPath);

	if (latestTotal === undefined) {
		// No total: one page after the other until a short (or empty) page.
		let offset = firstCount;
		let size = firstSize;
		let count = firstCount;
		while (count >= size && !sink.full) {
			size = Math.min(maxPageSize, sink.missing);
			count = sink.add(await send(query(offset, size)));
			offset += count;
		}
		return;
	}

	/**
	 * Fetches [from, bound()) one page after the other and returns where it stopped. Used for a gap
	 * a short page left before the next planned page, and for the tail: elements the list gained
	 * while it was paged, or the ones a dropped copy left missing under a limit.
	 */
	const fill = async (from: number, bound: () => number, exact: boolean): Promise<number> => {
		let at = from;
		while (at < bound() && !sink.full) {
			// A gap asks exactly for the gap; the tail asks for a whole page (or what is missing).
			const size = Math.min(maxPageSize, sink.missing, exact ? bound() - at : Infinity);
			const body = await send(query(at, size));
			latestTotal = totalOf(body, totalPath) ?? latestTotal;
			const count = sink.add(body);
			if (count === 0) break;
			at += count;
		}
		return at;
	};

	// The pages still needed, known from the total. A short first page means the API pages
	// differently from what the node assumes: then nothing is planned and `fill` walks on.
	const pages: PlannedPage[] = [];
	if (firstCount >= firstSize) {
		const end = Math.min(latestTotal, firstCount + sink.missing);
		for (let offset = firstCount; offset < end; offset += maxPageSize) {
			// Return All asks for whole pages, so a list that grew meanwhile still fits in them.
			pages.push({ offset, size: returnAll ? maxPageSize : Math.min(maxPageSize, end - offset) });
		}
	}
	const bodies: Array<IDataObject | undefined> = await runPool(
		pages.length,
		options.concurrency ?? 1,
		async (index, signal) => {
			const page = pages[index];
			const body = await send(query(page.offset, page.size), signal);
			// The total of the answer that arrived last is the API's latest word.
			latestTotal = totalOf(body, totalPath) ?? latestTotal;
			return body;
		},
		options.signal,
	);

	let reached = firstCount;
	for (let i = 0; i < pages.length && !sink.full; i++) {
		const { offset } = pages[i];
		if (reached < offset) reached = await fill(reached, () => offset, true);
		reached = Math.max(reached, offset + sink.add(bodies[i]));
		bodies[i] = undefined;
	}
	await fill(reached, () => latestTotal ?? 0, false);
}
