import type { IDataObject } from 'n8n-workflow';

import { fetchInOrder } from '../../../shared/pool';
import { valueAt } from '../../../shared/answers';
import type { OffsetPaging } from './index';
import { PAGING_NAME_OPTIONS } from './index';
import type { Sink, Walk } from './walk';
import { MAX_PAGES_PER_WALK } from './walk';

function totalOf(body: unknown, path: string | undefined): number | undefined {
	if (path === undefined) return undefined;
	const raw = valueAt(body, path);
	if (raw === undefined || raw === null || raw === '') return undefined;
	const total = Number(raw);
	return Number.isFinite(total) && total >= 0 ? total : undefined;
}

/**
 * Offset pages: tag contacts (with a total), chats and messages (without one).
 *
 * The walk does not trust the paging it assumes (DESIGN.md, "Paging when our guesses are wrong"):
 * each page advances by the elements it really held (an API that caps the page size below what was
 * asked is walked correctly), and the walk ends on an empty page, on a page shorter than the longest
 * one seen (and than asked), at the total (when the API gives one) or at the limit. With a limit,
 * exactly `limit` elements come back and the last page asks only for those still missing.
 *
 * The first page shows the page length the API really uses; the second proves that the API honours
 * the offset (a repeated page then costs one request, not `concurrency`). Both go one after the
 * other. The next pages are fetched ahead, `concurrency` at a time, and taken in the API's order
 * (shared/pool.ts): up to the total when there is one; without one, speculatively until the first
 * short or empty page, so at most `concurrency - 1` requests go past the end.
 *
 * A page that does not start where the previous one ended (the list shrank, or a page came back
 * longer or shorter than the others) is dropped and the walk goes on from where it really is. A
 * list that grows while it is paged: the walk goes on up to the total the API reported last, and
 * with `dedupe` an element pushed across a page boundary (identical as a whole) is taken once. An
 * element removed while paging shifts later ones forward, and one of them can be missed: no
 * offset-based reader can see that.
 */
export async function walkOffset(
	paging: OffsetPaging,
	walk: Walk,
	sink: Sink,
	concurrency: number,
	signal?: AbortSignal,
): Promise<void> {
	const { maxPageSize, totalPath } = paging;
	const { names } = walk;
	const suspect = { parameter: names.offset, option: PAGING_NAME_OPTIONS.offset.label };
	let total: number | undefined;
	/** elements received so far: where the next page starts */
	let at = 0;
	/** the longest page seen: the page length the API really uses */
	let longest = 0;
	let ended = false;

	/** one page's answer; false when the walk does not go on with the pages after it */
	const take = (offset: number, size: number, body: IDataObject): boolean => {
		total = totalOf(body, totalPath) ?? total;
		if (total !== undefined) sink.announce(total);
		if (offset !== at) return false;
		const list = walk.accept(body, `${names.offset}=${offset}`, suspect);
		sink.add(list);
		at += list.length;
		const short = list.length === 0 || list.length < Math.min(longest, size);
		longest = Math.max(longest, list.length);
		if (total !== undefined) walk.expect(Math.ceil(total / Math.max(longest, 1)));
		if (short) {
			// A short page ends the list, unless the total says more is there (it shrank meanwhile).
			ended = list.length === 0 || total === undefined || at >= total;
			return false;
		}
		return !sink.full && (total === undefined || at < total);
	};

	for (let round = 0; !ended && !sink.full && (total === undefined || at < total); round++) {
		const start = at;
		const length = Math.max(longest, 1);
		const wanted = start + sink.missing;
		const end = Math.min(total ?? Infinity, wanted);
		// Page 0 and the offset probe alone; then every page still needed (all, without a total).
		const pages = round < 2 ? 1 : Math.min(MAX_PAGES_PER_WALK, Math.ceil((end - start) / length));
		const offsetOf = (index: number): number => start + index * length;
		// Return All asks for whole pages (a list that grew meanwhile still fits in them), up to one
		// element past what one item may return; a Limit asks for no element past it or the total.
		const sizeAt = (offset: number): number => Math.min(maxPageSize, (sink.all ? wanted : end) - offset);
		await fetchInOrder(
			pages,
			round < 2 ? 1 : concurrency,
			async (index, pageSignal) => {
				const offset = offsetOf(index);
				const query = { [names.offset]: String(offset), [names.pageSize]: String(sizeAt(offset)) };
				return await walk.send(query, pageSignal);
			},
			(index, body) => take(offsetOf(index), sizeAt(offsetOf(index)), body),
			signal,
			// With a total every page of the round is needed: none waits for a slow one before it.
			total !== undefined,
		);
	}
}
