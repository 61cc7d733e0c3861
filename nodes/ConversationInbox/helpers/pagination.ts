import type { IDataObject } from 'n8n-workflow';

import { AssumptionFailed, asItemJson, valueAt } from './output';
import { runPool } from './pool';

/**
 * The list strategies of the API, written once and parameterised per endpoint:
 *
 * - offset pages with a total (tag contacts): the first two pages one after the other, then the
 *   pages still needed up to the total, `concurrency` at a time (1 = one after the other);
 * - offset pages without a total (chats, messages): one after the other;
 * - cursor pages (templates): one after the other, `after = paging.after` while `paging.hasNext`;
 * - whole list (integrations, users): one call, the limit applied here.
 *
 * The paging parameter names are assumptions (the spec does not show them; wireNames.ts) and can
 * be renamed per operation under Options. The walks do not trust them (DESIGN.md, "Paging when our
 * guesses are wrong"): an offset walk advances by the elements actually received and stops on an
 * empty page, on a page shorter than the longest seen, at the total or at the limit; a page or a
 * cursor that repeats the previous one stops the walk with an error naming the parameter and the
 * option that renames it; and no walk sends more than MAX_PAGES_PER_WALK requests.
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
 * A list that changes while it is paged (offset + total): the pages are planned from the total.
 * Elements that an addition pushes across a page boundary would come twice; with `dedupe` the
 * second copy (identical as a whole) is dropped, and the elements pushed past the planned end are
 * fetched afterwards, up to the total the API reported last (or the limit). An element removed
 * while paging shifts later ones forward, and one of them can be missed: no offset-based reader
 * can see that.
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
	/** drop an element identical (as a whole) to one taken earlier in the same run */
	dedupe?: boolean;
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
	/**
	 * Checks the elements against the query sent (e.g. a filter the elements show); throws
	 * AssumptionFailed when the API evidently did not apply it.
	 */
	verify?: (elements: IDataObject[], query: IDataObject) => void;
}

export interface CollectOptions {
	/** undefined = Return All */
	limit: number | undefined;
	/** pages fetched at the same time (offset + total only); default 1 */
	concurrency?: number;
	/** the execution's cancel signal */
	signal?: AbortSignal;
	/** paging parameter names set under Options (empty = the assumed name) */
	names?: Partial<PagingNames>;
	/** the prepared query (filters), for the list's `verify` */
	query?: IDataObject;
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

/** The last-resort cap of one walk: a walk that has not ended after this many pages is stopped. */
export const MAX_PAGES_PER_WALK = 1000;

/**
 * A walk that cannot go on correctly: the API repeated a page or a cursor (it ignores a paging
 * parameter), or the walk hit MAX_PAGES_PER_WALK. The executor turns it into the item's error.
 */
export class PagingStopped extends AssumptionFailed {}

/** The paging parameter names in force (the assumed ones, or the user's under Options). */
export interface PagingNames {
	offset: string;
	pageSize: string;
	cursor: string;
}

/** Options → … of a list operation, each renaming one paging parameter. */
export const PAGING_NAME_OPTIONS = {
	offset: { parameter: 'options.offsetParameter', label: 'Offset Parameter Name' },
	pageSize: { parameter: 'options.pageSizeParameter', label: 'Page Size Parameter Name' },
	cursor: { parameter: 'options.cursorParameter', label: 'Cursor Parameter Name' },
} as const;

/** The names a spec assumes: offset + page size, or cursor + page size. */
export function assumedNames(paging: Paging): Partial<PagingNames> {
	if (paging.kind === 'offset') return { offset: paging.offsetKey, pageSize: paging.pageSizeKey };
	if (paging.kind === 'cursor') return { cursor: paging.cursorKey, pageSize: paging.pageSizeKey };
	return {};
}

/** A page's elements (a missing list is an empty one). */
function elementsOf(body: unknown, path: string): unknown[] {
	const list = valueAt(body, path);
	return Array.isArray(list) ? list : [];
}

/**
 * The output being built: elements in order, at most `limit`. With `dedupe`, an element identical
 * to one already taken (the WHOLE element, never one field of it) is a copy that a list changing
 * while it is paged pushed across a page boundary, and is dropped: two contacts that share a phone
 * number, or two LID-only contacts without one, are different elements and both stay.
 */
class Sink {
	readonly results: IDataObject[] = [];
	private readonly seen: Set<string> | undefined;

	constructor(
		private readonly limit: number | undefined,
		dedupe: boolean,
	) {
		this.seen = dedupe ? new Set() : undefined;
	}

	get full(): boolean {
		return this.limit !== undefined && this.results.length >= this.limit;
	}

	/** Elements still wanted (Infinity with Return All). */
	get missing(): number {
		return this.limit === undefined ? Infinity : this.limit - this.results.length;
	}

	add(list: unknown[]): void {
		const { results, seen } = this;
		for (let i = 0; i < list.length && !this.full; i++) {
			if (seen !== undefined) {
				const key = JSON.stringify(list[i]);
				if (seen.has(key)) continue;
				seen.add(key);
			}
			results.push(asItemJson(list[i]));
		}
	}
}

function totalOf(body: unknown, path: string | undefined): number | undefined {
	if (path === undefined) return undefined;
	const raw = valueAt(body, path);
	if (raw === undefined || raw === null || raw === '') return undefined;
	const total = Number(raw);
	return Number.isFinite(total) && total >= 0 ? total : undefined;
}

/**
 * What every walk shares: the page budget (MAX_PAGES_PER_WALK) and the check that a page does not
 * repeat the previous one. A page repeats when it is not empty and its elements equal the first
 * elements of the previous page: an API that ignores the offset (or cursor) sends the start of the
 * list again. Such a walk stops at the first repeated page, so at most one request is wasted.
 */
class Walk {
	private pages = 0;
	private previous: string[] | undefined;

	constructor(
		readonly spec: ListSpec,
		readonly names: PagingNames,
		private readonly sendPage: SendPage,
	) {}

	async send(query: IDataObject, signal?: AbortSignal): Promise<IDataObject> {
		if (++this.pages > MAX_PAGES_PER_WALK) {
			throw new PagingStopped(
				`The list did not end after ${MAX_PAGES_PER_WALK} pages`,
				`The node stopped paging ${this.spec.itemsPath} after ${MAX_PAGES_PER_WALK} requests for one item, so that a list that never ends cannot flood the API. If the API really holds more, turn Return All off and set a Limit; if each page repeats data, the API may name the paging parameters differently from ${describeNames(this.spec.paging, this.names)}: set them under Options.`,
			);
		}
		return await this.sendPage(query, signal);
	}

	/** The page's elements after the repeat check; `where` names the page in the error. */
	accept(body: unknown, where: () => string, problem: () => { parameter: string; option: string }): unknown[] {
		const list = elementsOf(body, this.spec.itemsPath);
		if (list.length === 0) return list;
		const keys = list.map((element) => JSON.stringify(element));
		const previous = this.previous;
		this.previous = keys;
		if (previous !== undefined && keys.every((key, i) => i >= previous.length || key === previous[i])) {
			const { parameter, option } = problem();
			throw new PagingStopped(
				`The API sent the same page again (${where()}): it seems to ignore the query parameter "${parameter}"`,
				`The node assumes the API pages with "${parameter}" (the spec does not name it). The API answered with the elements of the previous page, so paging on would repeat them for ever. Set the name the API uses under Options → ${option} and run again. The node stopped after this one repeated request; no output was produced for this item.`,
			);
		}
		return list;
	}
}

function describeNames(paging: Paging, names: PagingNames): string {
	if (paging.kind === 'cursor') return `"${names.cursor}" and "${names.pageSize}"`;
	return `"${names.offset}" and "${names.pageSize}"`;
}

export async function collect(
	spec: ListSpec,
	send: SendPage,
	options: CollectOptions,
): Promise<IDataObject[]> {
	const { paging } = spec;
	const sink = new Sink(options.limit, paging.kind === 'offset' && paging.dedupe === true);
	const assumed = assumedNames(paging);
	const names: PagingNames = {
		offset: options.names?.offset || assumed.offset || '',
		pageSize: options.names?.pageSize || assumed.pageSize || '',
		cursor: options.names?.cursor || assumed.cursor || '',
	};
	const walk = new Walk(spec, names, send);
	if (paging.kind === 'whole') sink.add(elementsOf(await send({}), spec.itemsPath));
	else if (paging.kind === 'cursor') await walkCursor(paging, walk, sink);
	else await walkOffset(paging, walk, sink, options);
	spec.verify?.(sink.results, options.query ?? {});
	return sink.results;
}

async function walkCursor(paging: CursorPaging, walk: Walk, sink: Sink): Promise<void> {
	const { maxPageSize, cursorPath, hasNextPath } = paging;
	const { names } = walk;
	const cursorProblem = () => ({ parameter: names.cursor, option: PAGING_NAME_OPTIONS.cursor.label });
	let cursor: string | undefined;
	const seen = new Set<string>();
	while (!sink.full) {
		const query: IDataObject = { [names.pageSize]: String(Math.min(maxPageSize, sink.missing)) };
		if (cursor !== undefined) query[names.cursor] = cursor;
		const body = await walk.send(query);
		const sentCursor = cursor;
		sink.add(walk.accept(body, () => `${names.cursor}=${sentCursor ?? '(first page)'}`, cursorProblem));
		const next = valueAt(body, cursorPath);
		if (valueAt(body, hasNextPath) !== true || typeof next !== 'string' || next === '') return;
		// A cursor the API already gave would loop for ever.
		if (seen.has(next)) {
			throw new PagingStopped(
				`The API sent a cursor it had already sent (${names.cursor}=${next}): it seems to ignore the query parameter "${names.cursor}"`,
				`The node sends paging.after back as "${names.cursor}". The API answered with a cursor of an earlier page, so paging on would repeat pages for ever. Set the name the API uses under Options → ${PAGING_NAME_OPTIONS.cursor.label} and run again. No output was produced for this item.`,
			);
		}
		seen.add(next);
		cursor = next;
	}
}

/**
 * Offset pages. Each page advances by the elements it actually held (an API that caps the page
 * size below what was asked is walked correctly), and the walk stops on an empty page, on a page
 * shorter than the longest one seen (and than what was asked), at the total (when the API gives
 * one) or at the limit.
 *
 * With a total and a concurrency above 1, the first two pages go one after the other (the second
 * proves that the API honours the offset, so a repeated page costs one request, not `concurrency`),
 * then the pages still needed up to the total are planned with the page length the API showed and
 * fetched `concurrency` at a time. A planned page that comes back short leaves a gap that is
 * fetched one page after the other, and so is the tail the list gained meanwhile.
 */
async function walkOffset(
	paging: OffsetPaging,
	walk: Walk,
	sink: Sink,
	options: CollectOptions,
): Promise<void> {
	const { maxPageSize, totalPath } = paging;
	const { names } = walk;
	const returnAll = options.limit === undefined;
	const query = (offset: number, size: number): IDataObject => ({
		[names.offset]: String(offset),
		[names.pageSize]: String(size),
	});
	const offsetProblem = () => ({ parameter: names.offset, option: PAGING_NAME_OPTIONS.offset.label });

	let total: number | undefined;
	let longest = 0;
	/** one page at `offset`; returns how many elements it held */
	const step = async (offset: number, size: number): Promise<number> => {
		const body = await walk.send(query(offset, size));
		total = totalOf(body, totalPath) ?? total;
		const list = walk.accept(body, () => `${names.offset}=${offset}`, offsetProblem);
		sink.add(list);
		return list.length;
	};
	/** one page after the other from `from` until the end of the list, `bound` or the limit */
	const sequential = async (from: number, bound: () => number, exact: boolean): Promise<number> => {
		let at = from;
		while (!sink.full && at < bound() && (total === undefined || at < total)) {
			// A gap asks exactly for the gap; otherwise a whole page (or what is missing).
			const size = Math.min(maxPageSize, sink.missing, exact ? bound() - at : Infinity);
			const count = await step(at, size);
			at += count;
			const ended = count === 0 || count < Math.min(longest, size);
			longest = Math.max(longest, count);
			if (ended) break;
		}
		return at;
	};

	const concurrency = options.concurrency ?? 1;
	if (totalPath === undefined || concurrency <= 1) {
		await sequential(0, () => Infinity, false);
		return;
	}

	// The first page gives the total; the second proves the offset is honoured.
	let reached = await sequential(0, () => 1, false);
	if (reached === 0 || sink.full || total === undefined) {
		if (reached > 0 && total === undefined) await sequential(reached, () => Infinity, false);
		return;
	}
	const pageLength = longest;
	const probeAt = reached;
	reached = await sequential(probeAt, () => probeAt + 1, false);
	if (sink.full || longest !== pageLength || reached < 2 * pageLength) {
		// A short page: the end, or an API that pages differently; walk on one page at a time.
		await sequential(reached, () => total ?? 0, false);
		return;
	}

	const pages: Array<{ offset: number; size: number }> = [];
	const end = Math.min(total, reached + sink.missing);
	for (let offset = reached; offset < end; offset += pageLength) {
		// Return All asks for whole pages, so a list that grew meanwhile still fits in them.
		pages.push({ offset, size: returnAll ? pageLength : Math.min(pageLength, end - offset) });
	}
	const bodies: Array<IDataObject | undefined> = await runPool(
		pages.length,
		concurrency,
		async (index, signal) => {
			const page = pages[index];
			const body = await walk.send(query(page.offset, page.size), signal);
			// The total of the answer that arrived last is the API's latest word.
			total = totalOf(body, totalPath) ?? total;
			return body;
		},
		options.signal,
	);

	for (let i = 0; i < pages.length && !sink.full; i++) {
		const { offset } = pages[i];
		if (reached < offset) reached = await sequential(reached, () => offset, true);
		const list = walk.accept(bodies[i], () => `${names.offset}=${offset}`, offsetProblem);
		sink.add(list);
		reached = Math.max(reached, offset + list.length);
		bodies[i] = undefined;
	}
	await sequential(reached, () => total ?? 0, false);
}
