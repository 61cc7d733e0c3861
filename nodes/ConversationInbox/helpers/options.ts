import type { IHttpRequestMethods, INodeProperties, NodeHint } from 'n8n-workflow';

import type { ListSpec, PageConcurrency, Paging } from './paging';
import { asFigure, MAX_ITEMS_PER_INPUT_ITEM } from './paging/bound';
import { assumedNames, ONE_ITEM_PER_PAGE, PAGING_NAME_OPTIONS } from './paging';

/**
 * The "Options" collection every operation has: the escape hatch (extra body fields, renamed fields,
 * extra query parameters) for an API that differs from the node's assumptions, and on lists that
 * page, the names of the paging parameters.
 */

/**
 * Options → "… Parameter Name" of a list that pages: the paging names the spec does not show,
 * renamable per operation for an API that names them differently (DESIGN.md).
 */
export function pagingNameOptions(paging: Paging): INodeProperties[] {
	const assumed = assumedNames(paging);
	const what = {
		offset: 'the number of elements to skip',
		pageSize: 'the number of elements per page',
		cursor: 'the cursor of the next page (taken from paging.after)',
	};
	return (Object.keys(assumed) as Array<keyof typeof assumed>).map((key) => {
		const assumedName = String(assumed[key]);
		return {
			displayName: PAGING_NAME_OPTIONS[key].label,
			name: PAGING_NAME_OPTIONS[key].parameter.replace(/^options\./, ''),
			type: 'string',
			default: assumedName,
			description: `Name of the query parameter for ${what[key]}. The API description does not name it; "${assumedName}" is assumed. Change it if the API names it differently (the node stops with an error naming this option when the API ignores it).`,
		};
	});
}

/**
 * Options → One Item per Page (off by default): each output item holds one page of the list. The
 * form that carries a list longer than n8n can pass on as items from one input item (paging/bound.ts).
 */
function onePerPageOption(list: ListSpec): INodeProperties {
	const noun = list.itemsPath.split('.').pop() as string;
	const page = list.paging.kind === 'whole' ? 'the whole list, in one item' : `one page of ${noun} per item`;
	return {
		displayName: ONE_ITEM_PER_PAGE.label,
		name: ONE_ITEM_PER_PAGE.parameter.replace(/^options\./, ''),
		type: 'boolean',
		default: false,
		description: `Whether to output ${page} (as the list "${noun}" with the page number) instead of one item per element. Needed for more than ${asFigure(MAX_ITEMS_PER_INPUT_ITEM)} ${noun} from one input item, which n8n cannot pass on as separate items.`,
	};
}

/**
 * How this list is read, in a notice right above Return All: the page size and how pages are
 * fetched, or the whole list in one answer. Return All and Limit are one property for every list
 * (helpers/sharing.ts: n8n evaluates each property per item), so their texts cannot speak for one
 * list; the notice is the operation's own (its name is the list's, e.g. `chatsListNotice`) and has
 * no value to evaluate.
 */
export function listNotice(list: ListSpec): INodeProperties {
	const noun = list.itemsPath.split('.').pop() as string;
	const Noun = `${noun.charAt(0).toUpperCase()}${noun.slice(1)}`;
	const one = `One item per ${noun.replace(/s$/, '')}.`;
	const { paging } = list;
	let text: string;
	if (paging.kind === 'whole') {
		text = `The API returns all ${noun} in one answer; Limit keeps the first ones. ${one}`;
	} else if (paging.kind === 'cursor') {
		text = `${Noun} come in pages of up to ${paging.maxPageSize}, one after the other (each page names the next). ${one}`;
	} else {
		// No option named here: Concurrent Page Requests shows only once more than a page is needed.
		const end = paging.totalPath ? 'until the total the API gives' : 'until a shorter or empty page';
		text = `${Noun} come in pages of up to ${paging.maxPageSize}, ${end}. ${one}`;
	}
	return { displayName: text, name: `${noun}ListNotice`, type: 'notice', default: '' };
}

/** The Options of a list operation: the paging names (where it pages) and One Item per Page. */
export function listOptions(list: ListSpec): INodeProperties[] {
	return [...pagingNameOptions(list.paging), onePerPageOption(list)];
}

/**
 * Where a large input keeps n8n answering: advice shown after a large run, not above every panel
 * (DESIGN.md, "The editor"). n8n's routing engine prepares every input item before any request
 * leaves, without yielding (n8n-core RoutingNode.runNode), at about 1.2-3 ms per item with this node
 * depending on the machine (README, docs/performance.md); only Settings → Request Options → Batching
 * makes it pause between batches, and the node cannot switch it on itself (n8n's loader replaces the
 * node's Request Options with its own). 2 items per 5 ms is the setting measured best for webhooks
 * too (docs/performance.md, Freeze); the requests are the same.
 *
 * n8n's node hints: the editor shows one in the output pane after a run (`afterExecution`) when its
 * `displayCondition` holds over that run's input items. A declarative node cannot add hints while
 * it runs (n8n-core 2.41's executeDeclarativeNode returns no hints), and a hint's text is fixed, so
 * the run's size is said by range: one hint per range, from LARGE_RUN_ITEMS on, and none once the
 * user set Batching.
 */
export const LARGE_RUN_ITEMS = 1000;
const MS_PER_ITEM = { min: 1.2, max: 3 };

/** "1 000", as the README writes figures. */
const figure = (n: number): string => n.toLocaleString('en-US').replace(/,/g, ' ');

function seconds(items: number, msPerItem: number): string {
	const s = (items * msPerItem) / 1000;
	return s < 10 ? s.toFixed(1).replace(/\.0$/, '') : String(Math.round(s));
}

export function largeRunHints(ranges: Array<[number, number | undefined]> = [[LARGE_RUN_ITEMS, 3000], [3000, 10000], [10000, undefined]]): NodeHint[] {
	const batchingSet = '((($parameter.requestOptions || {}).batching || {}).batch || {}).batchInterval > 0';
	return ranges.map(([from, to]) => {
		const size = to === undefined ? `${figure(from)} or more` : `${figure(from)}-${figure(to - 1)}`;
		const wait =
			to === undefined
				? `${seconds(from, MS_PER_ITEM.min)} s or more`
				: `${seconds(from, MS_PER_ITEM.min)}-${seconds(to - 1, MS_PER_ITEM.max)} s`;
		const within = to === undefined ? `$input.all().length >= ${from}` : `$input.all().length >= ${from} && $input.all().length < ${to}`;
		return {
			message: `This run had ${size} input items. n8n prepared them all before the first request left and answered nothing else meanwhile (its editor, other workflows' webhooks, its health check): about ${wait} at ${MS_PER_ITEM.min}-${MS_PER_ITEM.max} ms per item. For runs this large, set Settings → Request Options → Batching to 2 items per batch, interval 5 ms: n8n keeps answering and the first requests leave at once; the run takes about 1.3-1.6× longer and sends the same requests.`,
			type: 'info',
			location: 'outputPane',
			whenToDisplay: 'afterExecution',
			displayCondition: `={{ ${within} && !(${batchingSet}) }}`,
		};
	});
}

/** "Options" collection with the escape hatch; body fields only where there is a body. */
export function optionsCollection(method: IHttpRequestMethods, extra: INodeProperties[] = []): INodeProperties {
	const options: INodeProperties[] = [...extra];
	if (method !== 'GET') {
		options.push({
			displayName: 'Extra Body Fields',
			name: 'extraBodyFields',
			type: 'json',
			default: '{}',
			description:
				'JSON object merged into the request body last, replacing fields of the same name. For fields the node does not offer yet, or a field the live API names differently.',
		});
	}
	options.push({
		displayName: 'Rename Sent Fields',
		name: 'renameFields',
		type: 'fixedCollection',
		placeholder: 'Add Rename',
		typeOptions: { multipleValues: true },
		default: {},
		description:
			'Send a body field or query parameter of this node under another name, for an API that names it differently from the node\'s assumption (README → Assumptions about the API). Applied before the extra fields and parameters.',
		options: [
			{
				displayName: 'Field',
				name: 'field',
				values: [
					{
						displayName: 'Name Sent by the Node',
						name: 'from',
						type: 'string',
						default: '',
						placeholder: 'e.g. chatType',
					},
					{
						displayName: 'Name the API Expects',
						name: 'to',
						type: 'string',
						default: '',
						placeholder: 'e.g. chatTypeFilter',
					},
				],
			},
		],
	});
	options.push({
		displayName: 'Extra Query Parameters',
		name: 'extraQueryParameters',
		type: 'fixedCollection',
		placeholder: 'Add Query Parameter',
		typeOptions: { multipleValues: true },
		default: {},
		description:
			'Query parameters added to the request last, replacing ones of the same name (paging parameters are renamed with the … Parameter Name options instead)',
		options: [
			{
				displayName: 'Parameter',
				name: 'parameter',
				values: [
					{
						displayName: 'Name',
						name: 'name',
						type: 'string',
						default: '',
						placeholder: 'e.g. includeArchived',
					},
					{
						displayName: 'Value',
						name: 'value',
						type: 'string',
						default: '',
						placeholder: 'e.g. true',
					},
				],
			},
		],
	});
	return {
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add option',
		default: {},
		// Sorted by display name, as n8n lists a collection's options.
		options: options.sort((a, b) => a.displayName.localeCompare(b.displayName)),
	};
}


/**
 * Options → Concurrent Page Requests of an offset list: pages fetched at the same time once the
 * first two have shown how the API pages (paging/offset.ts).
 *
 * Default 4. The API publishes no rate limit, so the default stays modest: four small reads at once
 * is fewer than the six connections any browser opens to one host, and one Retry-After holds all
 * four back (one retry gate per item). It is also the smallest value that makes a big list at least
 * 3x faster than paging one by one: 10 000 contacts = 100 pages = 2 + 25 round trips instead of 100
 * (with 3 it would be 2 + 33: 2.9x). Users of an API that tolerates more (or less) set 1-10; 1 fetches
 * the pages one after the other.
 */
export const PAGE_CONCURRENCY: PageConcurrency = {
	parameter: 'options.concurrentPageRequests',
	label: 'Concurrent Page Requests',
	default: 4,
	max: 10,
};

/**
 * The option, shown only when more than one page can be needed: Return All, or a Limit above one
 * page. n8n's display rules AND their conditions, so the OR takes two entries of the same name (one
 * value; n8n keeps it while either entry is shown, and drops it with a Limit of one page, where it
 * would change nothing).
 */
export function concurrencyOptions(pageSize: number, elements: string): INodeProperties[] {
	const option = (show: NonNullable<INodeProperties['displayOptions']>['show']): INodeProperties => ({
		displayName: 'Concurrent Page Requests',
		name: 'concurrentPageRequests',
		type: 'number',
		typeOptions: { minValue: 1, maxValue: PAGE_CONCURRENCY.max, numberPrecision: 0 },
		// = PAGE_CONCURRENCY.default (n8n's lint wants the literal here)
		default: 4,
		description: `How many pages of ${pageSize} ${elements} to fetch at the same time once the first two have shown how the API pages (1 = one after the other). Output stays in the API's order. When the API answers 429 Too Many Requests, all of them wait.`,
		displayOptions: { show },
	});
	return [
		option({ '/returnAll': [true] }),
		option({ '/returnAll': [false], '/limit': [{ _cnd: { gt: pageSize } }] }),
	];
}
