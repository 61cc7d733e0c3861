import {
	CATEGORIES_WITH_ATTENDANTS,
	CHAT_CATEGORY_OPTIONS,
	PAGE_SIZE,
} from '../../../shared/constants';
import { listParameter, returnAllAndLimit, toQuery } from '../../helpers/fields';
import { defineOperation } from '../../helpers/operation';
import type { Rule } from '../../helpers/validation';
import { invalid, isAbsent, list, oneOf, queryField, readField } from '../../helpers/validation';
import { WIRE } from '../../wireNames';

const W = WIRE.chatList;
const category = queryField(W.category, 'Category');
const attendantIds = queryField(W.attendantIds, 'Attendant IDs');

/** The API accepts attendant filters only for the attendance and pinned categories. */
const attendantsOnlyWhereServed: Rule = (ctx) => {
	const chosen = String(readField(ctx, category) ?? 'attendance');
	if (!isAbsent(readField(ctx, attendantIds)) && !CATEGORIES_WITH_ATTENDANTS.includes(chosen)) {
		throw invalid(
			ctx,
			{ key: W.attendantIds, label: 'Attendant IDs' },
			'can only be used with Category attendance or pinned',
			`Category ${chosen}`,
		);
	}
};

export const getAll = defineOperation({
	resource: 'chat',
	operation: 'getAll',
	name: 'Get Many',
	action: 'Get many chats',
	description: 'List the chats of the company in one inbox category, with filters',
	method: 'GET',
	path: '/inbox/find-all-chats',
	fields: [
		{
			displayName: 'Category',
			name: 'category',
			type: 'options',
			options: CHAT_CATEGORY_OPTIONS,
			default: 'attendance',
			description: 'Which part of the inbox to list',
			routing: toQuery(W.category),
		},
		...returnAllAndLimit(
			`Fetched in pages of up to ${PAGE_SIZE.chats.max} chats; one item per chat`,
		),
		{
			displayName: 'Filters',
			name: 'filters',
			type: 'collection',
			placeholder: 'Add Filter',
			default: {},
			options: [
				listParameter({
					displayName: 'Attendant IDs',
					name: 'attendantIds',
					buttonText: 'Add Attendant ID',
					placeholder: 'e.g. clx2v8k1h0000abcd1234efgh',
					description:
						'Only chats served by these attendants (company user IDs). Only for the Attendance and Pinned categories.',
					routing: toQuery(W.attendantIds),
				}),
				listParameter({
					displayName: 'Integration IDs',
					name: 'integrationIds',
					buttonText: 'Add Integration ID',
					placeholder: 'e.g. clx2v8k1h0000abcd1234efgh',
					description: 'Only chats on these channel integrations',
					routing: toQuery(W.integrationIds),
				}),
				listParameter({
					displayName: 'Sector IDs',
					name: 'sectorIds',
					buttonText: 'Add Sector ID',
					placeholder: 'e.g. clx2v8k1h0000abcd1234efgh',
					description: 'Only chats of these sectors (teams)',
					routing: toQuery(W.sectorIds),
				}),
				listParameter({
					displayName: 'Tag IDs',
					name: 'tagIds',
					buttonText: 'Add Tag ID',
					placeholder: 'e.g. clx2v8k1h0000abcd1234efgh',
					description: 'Only chats whose contact has these tags',
					routing: toQuery(W.tagIds),
				}),
			],
		},
	],
	rules: [
		oneOf(category, CHAT_CATEGORY_OPTIONS),
		list(queryField(W.integrationIds, 'Integration IDs'), { ids: true, send: 'commaSeparated' }),
		list(queryField(W.sectorIds, 'Sector IDs'), { send: 'commaSeparated' }),
		list(attendantIds, { send: 'commaSeparated' }),
		list(queryField(W.tagIds, 'Tag IDs'), { ids: true, send: 'commaSeparated' }),
		attendantsOnlyWhereServed,
	],
	output: {
		kind: 'list',
		list: {
			itemsPath: 'response.chats',
			paging: {
				kind: 'offset',
				offsetKey: W.offset,
				pageSizeKey: W.limit,
				maxPageSize: PAGE_SIZE.chats.max,
			},
		},
	},
});
