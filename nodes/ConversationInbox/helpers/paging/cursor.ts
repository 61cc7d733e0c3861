import type { IDataObject } from 'n8n-workflow';

import { valueAt } from '../../../shared/answers';
import type { CursorPaging } from './index';
import { PAGING_NAME_OPTIONS } from './index';
import type { Sink, Walk } from './walk';
import { PagingStopped } from './walk';

/**
 * Cursor pages (templates), one after the other: `after = paging.after` until `paging.hasNext` is
 * false, the cursor is missing or the page is empty (a cursor without `hasNext` is followed). A
 * response only ever supplies a cursor VALUE, sent as a query parameter to the credential's host:
 * it can never redirect the walk to another URL. A cursor the API already gave stops the walk with
 * an error (it would loop for ever).
 */
export async function walkCursor(paging: CursorPaging, walk: Walk, sink: Sink): Promise<void> {
	const { maxPageSize, cursorPath, hasNextPath } = paging;
	const { names } = walk;
	const suspect = { parameter: names.cursor, option: PAGING_NAME_OPTIONS.cursor.label };
	let cursor: string | undefined;
	const seen = new Set<string>();
	while (!sink.full) {
		const query: IDataObject = { [names.pageSize]: String(Math.min(maxPageSize, sink.missing)) };
		if (cursor !== undefined) query[names.cursor] = cursor;
		const body = await walk.send(query);
		const page = walk.accept(body, `${names.cursor}=${cursor ?? '(first page)'}`, suspect);
		sink.add(page);
		// A new cursor is followed even when the API leaves hasNext out (DESIGN.md).
		const next = valueAt(body, cursorPath);
		if (page.length === 0 || valueAt(body, hasNextPath) === false || typeof next !== 'string' || next === '') return;
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
