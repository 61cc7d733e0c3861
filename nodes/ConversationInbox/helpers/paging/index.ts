import type { IDataObject } from 'n8n-workflow';

import { describeValue, integer, invalid } from '../../../shared/checks';
import type { RuleContext } from '../prepare';
import { subject } from '../prepare';
import { asFigure, MAX_ITEMS_PER_INPUT_ITEM } from './bound';
import { walkCursor } from './cursor';
import { walkOffset } from './offset';
import type { SendPage } from './walk';
import { elementsOf, PagingStopped, Sink, Walk } from './walk';

/**
 * The list strategies of the API, each written once and parameterised per endpoint:
 * - offset pages (offset.ts): tag contacts with a total, chats and messages without;
 * - cursor pages (cursor.ts): templates;
 * - the whole list in one call (integrations, users), the limit applied here.
 *
 * The paging parameter names are assumptions (the spec does not show them; wireNames.ts) and can be
 * renamed per operation under Options. Every page goes through the one request path, which retries
 * a page (429, or a 5xx/timeout/connection failure of a GET) with the very same offset or cursor: a
 * retried page is neither skipped nor counted twice. Pages of one item share one retry gate, so a
 * 429 on one page holds back the others. Output is always in the API's order. No walk sends more
 * than MAX_PAGES_PER_WALK requests (walk.ts), and no item returns more than MAX_ITEMS_PER_INPUT_ITEM
 * elements as separate items (bound.ts): a longer list comes out one item per page, or stops.
 */

/** A node parameter that sets how many pages are fetched at the same time. */
export interface PageConcurrency {
	/** parameter path, e.g. `options.concurrentPageRequests` */
	parameter: string;
	label: string;
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
	/** the setting for concurrent page requests (else pages go one by one) */
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

/** Options → One Item per Page of a list operation: each output item holds one page's elements. */
export const ONE_ITEM_PER_PAGE = { parameter: 'options.oneItemPerPage', label: 'One Item per Page' } as const;

/** The names a spec assumes: offset + page size, or cursor + page size. */
export function assumedNames(paging: Paging): Partial<PagingNames> {
	if (paging.kind === 'offset') return { offset: paging.offsetKey, pageSize: paging.pageSizeKey };
	if (paging.kind === 'cursor') return { cursor: paging.cursorKey, pageSize: paging.pageSizeKey };
	return {};
}

/** How one item's list is read: its settings, read and checked once before anything is sent. */
export interface ListSettings {
	/** undefined = Return All */
	limit: number | undefined;
	/** pages fetched at the same time; 1 = one after the other */
	concurrency: number;
	names: PagingNames;
	/** one output item per page (holding its elements) instead of one per element */
	onePerPage: boolean;
}

/** Return All / Limit, the paging names and the concurrency; a bad value fails the item. */
export function readListSettings(ctx: RuleContext, spec: ListSpec): ListSettings {
	const { fn } = ctx;
	const returnAll = fn.getNodeParameter('returnAll', false) as unknown;
	let limit: number | undefined;
	if (returnAll !== true && returnAll !== 'true') {
		const value = fn.getNodeParameter('limit', 50) as unknown;
		const at = subject(ctx, 'Limit');
		limit = integer({ min: 1 })(value, at) as number | undefined;
		// An empty Limit is not "no limit".
		if (limit === undefined) {
			throw invalid(at, 'must be a whole number of 1 or more', describeValue(value), 'Give Limit a number of 1 or more, or switch Return All on.');
		}
	}
	const { paging } = spec;
	const assumed = assumedNames(paging);
	const names: PagingNames = { offset: '', pageSize: '', cursor: '' };
	for (const key of Object.keys(PAGING_NAME_OPTIONS) as Array<keyof PagingNames>) {
		const { parameter, label } = PAGING_NAME_OPTIONS[key];
		const value = paging.kind === 'whole' ? undefined : (fn.getNodeParameter(parameter, '') as unknown);
		if (value === undefined || value === null || (typeof value === 'string' && value.trim() === '')) {
			names[key] = assumed[key] ?? '';
		} else if (typeof value !== 'string' || /\s/.test(value.trim())) {
			throw invalid(
				subject(ctx, label),
				'must be a query parameter name without spaces',
				describeValue(value),
				`Give the name exactly as the API spells it (e.g. offset), or leave ${label} empty for the assumed name.`,
			);
		} else {
			names[key] = value.trim();
		}
	}
	let concurrency = 1;
	const setting = paging.kind === 'offset' ? paging.concurrency : undefined;
	if (setting) {
		const value = fn.getNodeParameter(setting.parameter, setting.default) as unknown;
		const chosen = integer({ min: 1, max: setting.max })(value, subject(ctx, setting.label)) as number | undefined;
		concurrency = chosen ?? setting.default;
	}
	const perPage = fn.getNodeParameter(ONE_ITEM_PER_PAGE.parameter, false) as unknown;
	return { limit, concurrency, names, onePerPage: perPage === true || perPage === 'true' };
}

function describeNames(paging: Paging, names: PagingNames): string {
	if (paging.kind === 'cursor') return `"${names.cursor}" and "${names.pageSize}"`;
	return `"${names.offset}" and "${names.pageSize}"`;
}

/** The list is longer than one input item can return as separate items (bound.ts). */
function tooManyFor(noun: string) {
	return (total: number | undefined): PagingStopped => {
		const max = asFigure(MAX_ITEMS_PER_INPUT_ITEM);
		const size = total === undefined ? `more than ${max}` : asFigure(total);
		return new PagingStopped(
			`The list has ${size} ${noun}: more than one input item can return as separate items (${max})`,
			`n8n's routing engine fails ("Maximum call stack size exceeded") when one input item returns more than about 125 000 items, so the node returns at most ${max} ${noun} per input item as separate items, and stopped before reading past them. To get them all, turn on Options → ${ONE_ITEM_PER_PAGE.label}: each output item then holds one page of ${noun}. To get only the first ones, turn Return All off and set a Limit of ${max} or less.`,
		);
	};
}

/**
 * The elements of one item's list, in the API's order, at most `limit`; with One Item per Page,
 * one object per page holding that page's elements (under the list's own name, e.g. `contacts`).
 */
export async function collect(
	spec: ListSpec,
	send: SendPage,
	settings: ListSettings,
	query: IDataObject,
	signal?: AbortSignal,
): Promise<IDataObject[]> {
	const { paging } = spec;
	const noun = spec.itemsPath.split('.').pop() as string;
	const sink = new Sink({
		limit: settings.limit,
		dedupe: paging.kind === 'offset' && paging.dedupe === true,
		byPage: settings.onePerPage,
		// Pages as items stay far below n8n's bound; elements as items may not pass it.
		...(settings.onePerPage ? {} : { capacity: MAX_ITEMS_PER_INPUT_ITEM, tooMany: tooManyFor(noun) }),
	});
	const walk = new Walk(spec, settings.names, send, describeNames(paging, settings.names));
	if (paging.kind === 'whole') sink.add(elementsOf(await send({}), spec.itemsPath));
	else if (paging.kind === 'cursor') await walkCursor(paging, walk, sink);
	else await walkOffset(paging, walk, sink, settings.concurrency, signal);
	spec.verify?.(sink.results, query);
	if (!settings.onePerPage) return sink.results;
	return sink.pages.map((elements, index) => ({ page: index + 1, [noun]: elements }));
}
