import { LIST_AT } from '../../../shared/answers';
import { invalid, isAbsent, list } from '../../../shared/checks';
import {
	CATEGORIES_WITH_ATTENDANTS,
	CHAT_CATEGORY_OPTIONS,
	PAGE_SIZE,
} from '../../../shared/constants';
import { GET_INTEGRATIONS_METHOD, INTEGRATIONS_BY_NAME } from '../../../shared/integrationLocator';
import { GET_USERS_METHOD } from '../../../shared/userOptions';
import { choice, filters, idHint, listParameter, query, returnAllAndLimit, targetOf, WHERE_TO_FIND } from '../../helpers/fields';
import { defineOperation } from '../../helpers/operation';
import { concurrencyOptions, PAGE_CONCURRENCY } from '../../helpers/options';
import type { Rule } from '../../helpers/prepare';
import { readTarget, subject } from '../../helpers/prepare';
import { WIRE } from '../../../shared/wireNames';

const W = WIRE.chatList;

const category = choice(
	'qs',
	{
		displayName: 'Category',
		name: 'category',
		options: CHAT_CATEGORY_OPTIONS,
		default: 'attendance',
		description: 'Which part of the inbox to list',
	},
	{ key: W.category },
);

const attendantIds = query(
	{
		displayName: 'Attendant Names or IDs',
		name: 'attendantIds',
		type: 'multiOptions',
		typeOptions: { loadOptionsMethod: GET_USERS_METHOD },
		default: [],
		description:
			'Only chats served by these attendants (company users). Only for the Attendance and Pinned categories. Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
	},
	list({ send: 'commaSeparated' }),
	{ key: W.attendantIds },
);

/** The API accepts attendant filters only for the attendance and pinned categories. */
const attendantsOnlyWhereServed: Rule = (ctx) => {
	const chosen = String(readTarget(ctx, targetOf(category)) ?? 'attendance');
	const attendants = targetOf(attendantIds);
	if (!isAbsent(readTarget(ctx, attendants)) && !CATEGORIES_WITH_ATTENDANTS.includes(chosen)) {
		throw invalid(
			subject(ctx, attendants.label),
			'can only be used with Category attendance or pinned',
			`Category ${chosen}`,
			`Set Category to Attendance or Pinned, or remove ${attendants.label} from the Filters.`,
		);
	}
};

export const chatGetAll = defineOperation({
	resource: 'chat',
	operation: 'getAll',
	name: 'Get Many',
	action: 'Get many chats of an inbox category',
	description:
		'List the chats of one inbox category (attendance, queue, groups, finalized or pinned), optionally only those of some integrations, sectors, attendants or tags. One item per chat, with the internal ID that Message → Get Many and Automation → Stop in Chat take.',
	method: 'GET',
	path: '/inbox/find-all-chats',
	wireNames: W,
	fields: [
		category,
		...returnAllAndLimit(),
		filters([
			attendantIds,
			query({
				displayName: 'Integration Names or IDs',
				name: 'integrationIds',
				type: 'multiOptions',
				typeOptions: { loadOptionsMethod: GET_INTEGRATIONS_METHOD },
				default: [],
				description:
					'Only chats on these channel integrations (messaging lines). Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
			}, list({ ids: true, byName: INTEGRATIONS_BY_NAME, send: 'commaSeparated' }), { key: W.integrationIds }),
			query(listParameter({
				displayName: 'Sector IDs',
				name: 'sectorIds',
				buttonText: 'Add Sector ID',
				placeholder: 'e.g. clx2v8k1h0000abcd1234efgh',
				description:
					'Only chats of these sectors (teams). Several values or one comma-separated text.',
				hint: idHint(WHERE_TO_FIND.sector),
			}), list({ send: 'commaSeparated' }), { key: W.sectorIds }),
			query(listParameter({
				displayName: 'Tag IDs',
				name: 'tagIds',
				buttonText: 'Add Tag ID',
				placeholder: 'e.g. clx2v8k1h0000abcd1234efgh',
				description:
					'Only chats whose contact has at least one of these tags. Several values or one comma-separated text.',
				hint: idHint(WHERE_TO_FIND.tag),
			}), list({ ids: true, send: 'commaSeparated' }), { key: W.tagIds }),
		]),
	],
	rules: [attendantsOnlyWhereServed],
	options: concurrencyOptions(PAGE_SIZE.chats.max, 'chats'),
	output: {
		kind: 'list',
		list: {
			itemsPath: LIST_AT.chats,
			paging: {
				kind: 'offset',
				offsetKey: W.offset,
				pageSizeKey: W.limit,
				maxPageSize: PAGE_SIZE.chats.max,
				concurrency: PAGE_CONCURRENCY,
			},
		},
	},
});
