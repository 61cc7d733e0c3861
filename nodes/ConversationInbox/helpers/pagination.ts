import type { IDataObject } from 'n8n-workflow';

import { listAt, valueAt } from './output';

/**
 * The list strategies of the API, written once and parameterised per endpoint:
 *
 * - offset pages with a total (tag contacts): stop at `total` or at the limit;
 * - offset pages without a total (chats, messages): stop on a short page or at the limit;
 * - cursor pages (templates): repeat with `after = paging.after` while `paging.hasNext`;
 * - whole list (integrations, users): one call, the limit applied here.
 *
 * With a limit, exactly `limit` elements come back and no page is fetched that is not needed:
 * the last page asks only for the elements still missing.
 *
 * Pages are fetched one after the other through the executor's `send`, which retries a page (429,
 * or a 5xx/timeout/connection failure of a GET) with the very same offset or cursor: a retried page
 * is neither skipped nor counted twice. A response only ever supplies a cursor VALUE (`after`), sent
 * as a query parameter to the credential's host: it can never redirect the walk to another URL.
 */

/** Sends one page: the query values given override the prepared request's. Returns the body. */
export type SendPage = (query: IDataObject) => Promise<IDataObject>;

export interface OffsetPaging {
	kind: 'offset';
	/** wire names of the offset and page-size query parameters */
	offsetKey: string;
	pageSizeKey: string;
	maxPageSize: number;
	/** where the total lives, when the endpoint gives one */
	totalPath?: string;
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

/** `limit` undefined = Return All. */
export async function collect(
	spec: ListSpec,
	send: SendPage,
	limit: number | undefined,
): Promise<IDataObject[]> {
	const { paging } = spec;
	if (paging.kind === 'whole') {
		const all = listAt(await send({}), spec.itemsPath);
		return limit === undefined ? all : all.slice(0, limit);
	}
	const results: IDataObject[] = [];
	const pageSize = (): number =>
		limit === undefined ? paging.maxPageSize : Math.min(paging.maxPageSize, limit - results.length);
	const done = (): boolean => limit !== undefined && results.length >= limit;

	if (paging.kind === 'offset') {
		let offset = 0;
		while (!done()) {
			const size = pageSize();
			const body = await send({
				[paging.offsetKey]: String(offset),
				[paging.pageSizeKey]: String(size),
			});
			const page = listAt(body, spec.itemsPath);
			results.push(...page);
			offset += page.length;
			if (page.length === 0) break;
			if (paging.totalPath !== undefined) {
				const total = Number(valueAt(body, paging.totalPath));
				if (Number.isFinite(total)) {
					if (offset >= total) break;
					continue;
				}
			}
			if (page.length < size) break;
		}
	} else {
		let cursor: string | undefined;
		const seen = new Set<string>();
		while (!done()) {
			const query: IDataObject = { [paging.pageSizeKey]: String(pageSize()) };
			if (cursor !== undefined) query[paging.cursorKey] = cursor;
			const body = await send(query);
			results.push(...listAt(body, spec.itemsPath));
			const next = valueAt(body, paging.cursorPath);
			if (valueAt(body, paging.hasNextPath) !== true || typeof next !== 'string' || next === '') break;
			// A cursor the API already gave would loop for ever: stop instead.
			if (seen.has(next)) break;
			seen.add(next);
			cursor = next;
		}
	}
	return limit === undefined ? results : results.slice(0, limit);
}
