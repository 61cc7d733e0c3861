import type { INodeProperties } from 'n8n-workflow';

import { NAME_MAX_LENGTH, PAGE_SIZE } from '../../../shared/constants';
import { idParameter, returnAllAndLimit, toQuery, WHERE_TO_FIND } from '../../helpers/fields';
import { defineOperation } from '../../helpers/operation';
import type { PageConcurrency } from '../../helpers/pagination';
import { pageConcurrency } from '../../helpers/pagination';
import type { Rule } from '../../helpers/validation';
import { atLeastOne, describeValue, id, invalid, queryField, text } from '../../helpers/validation';
import { WIRE } from '../../wireNames';

const tagId = queryField('tagId', 'Tag ID');
const tagName = queryField('tagName', 'Tag Name');

/**
 * Pages fetched at the same time after the first one (which gives the total).
 *
 * Default 4. The API publishes no rate limit, so the default stays modest: four small reads at once
 * is fewer than the six connections any browser opens to one host, and one Retry-After holds all
 * four back (one retry gate per item). It is also the smallest value that makes a big tag at least
 * 3x faster than paging one by one: 10 000 contacts = 100 pages = 1 + 25 round trips instead of 100
 * (with 3 it would be 1 + 33: 2.9x). Users of an API that tolerates more (or less) set 1-10; 1 fetches
 * the pages one after the other.
 */
export const CONTACT_PAGE_CONCURRENCY: PageConcurrency = {
	parameter: 'options.concurrentPageRequests',
	default: 4,
	max: 10,
};

const CONCURRENCY_FIELD = { key: CONTACT_PAGE_CONCURRENCY.parameter, label: 'Concurrent Page Requests' };

/** Whole number 1-10 (an expression may give anything); checked before anything is sent. */
const concurrencyRule: Rule = (ctx) => {
	const value = ctx.fn.getNodeParameter(
		CONTACT_PAGE_CONCURRENCY.parameter,
		CONTACT_PAGE_CONCURRENCY.default,
	) as unknown;
	if (pageConcurrency(value, CONTACT_PAGE_CONCURRENCY) === undefined) {
		throw invalid(
			ctx,
			CONCURRENCY_FIELD,
			`must be a whole number from 1 to ${CONTACT_PAGE_CONCURRENCY.max}`,
			describeValue(value),
		);
	}
};

/**
 * The option, shown only when more than one page can be needed: Return All, or a Limit above one
 * page. n8n's display rules AND their conditions, so the OR takes two entries of the same name (one
 * value; n8n keeps it while either entry is shown, and drops it with a Limit of one page, where it
 * would change nothing).
 */
function concurrencyOption(show: NonNullable<INodeProperties['displayOptions']>['show']): INodeProperties {
	return {
		displayName: 'Concurrent Page Requests',
		name: 'concurrentPageRequests',
		type: 'number',
		typeOptions: { minValue: 1, maxValue: CONTACT_PAGE_CONCURRENCY.max, numberPrecision: 0 },
		// = CONTACT_PAGE_CONCURRENCY.default (n8n's lint wants the literal here)
		default: 4,
		description: `How many pages of ${PAGE_SIZE.tagContacts.max} contacts to fetch at the same time after the first one (1 = one after the other). Output stays in the API's order. When the API answers 429 Too Many Requests, all of them wait.`,
		displayOptions: { show },
	};
}

const CONCURRENCY_OPTIONS: INodeProperties[] = [
	concurrencyOption({ '/returnAll': [true] }),
	concurrencyOption({
		'/returnAll': [false],
		'/limit': [{ _cnd: { gt: PAGE_SIZE.tagContacts.max } }],
	}),
];

export const getContacts = defineOperation({
	resource: 'tag',
	operation: 'getContacts',
	name: 'Get Contacts',
	action: 'Get contacts of a tag by tag name or ID',
	description:
		'List the contacts that have a tag, given the tag\'s ID or exact name; one item per contact (phone number, name, chat ID, when it was tagged), most recently tagged first',
	method: 'GET',
	path: '/tag/list-contacts',
	fields: [
		idParameter({
			displayName: 'Tag ID',
			name: 'tagId',
			description: 'ID of the tag. Give Tag ID or Tag Name.',
			whereToFind: WHERE_TO_FIND.tag,
			routing: toQuery('tagId'),
		}),
		{
			displayName: 'Tag Name',
			name: 'tagName',
			type: 'string',
			default: '',
			placeholder: 'e.g. VIP Customer',
			description: 'Exact name of the tag (case-sensitive). Give Tag ID or Tag Name.',
			routing: toQuery('tagName'),
		},
		...returnAllAndLimit(
			`Fetched in pages of up to ${PAGE_SIZE.tagContacts.max} contacts, several at a time (Options → Concurrent Page Requests); one item per contact`,
		),
	],
	rules: [
		id(tagId),
		text(tagName, { min: 1, max: NAME_MAX_LENGTH }),
		atLeastOne([tagId, tagName]),
		concurrencyRule,
	],
	options: CONCURRENCY_OPTIONS,
	errors: {
		byStatus: { 404: 'No tag has this ID or this exact name: names are case-sensitive and must match in full.' },
		noReason: 'Check the Tag ID or the exact Tag Name (case-sensitive).',
	},
	output: {
		kind: 'list',
		list: {
			itemsPath: 'data.contacts',
			paging: {
				kind: 'offset',
				offsetKey: WIRE.tagContacts.offset,
				pageSizeKey: WIRE.tagContacts.limit,
				maxPageSize: PAGE_SIZE.tagContacts.max,
				totalPath: 'data.total',
				concurrency: CONTACT_PAGE_CONCURRENCY,
				// An identical contact twice means the list moved while it was paged. Identical as a
				// whole: one number on two chats, or LID-only contacts without a number, all stay.
				dedupe: true,
			},
		},
	},
});
