import { PAGE_SIZE } from '../../../shared/constants';
import { idParameter, returnAllAndLimit, toQuery } from '../../helpers/fields';
import { defineOperation } from '../../helpers/operation';
import { id, queryField } from '../../helpers/validation';
import { WIRE } from '../../wireNames';

const W = WIRE.messageList;

export const getAll = defineOperation({
	resource: 'message',
	operation: 'getAll',
	name: 'Get Many',
	action: 'Get many messages of a chat',
	description: 'List the messages of a chat',
	method: 'GET',
	path: '/inbox/find-messages-from-inbox',
	fields: [
		idParameter({
			displayName: 'Chat Internal ID',
			name: 'chatInternalId',
			required: true,
			description: "The chat's internal ID in the inbox (from Chat → Get Many)",
			routing: toQuery(W.chatInternalId),
		}),
		...returnAllAndLimit(
			`Fetched in pages of up to ${PAGE_SIZE.messages.max} messages; one item per message`,
		),
	],
	rules: [id(queryField(W.chatInternalId, 'Chat Internal ID'), { required: true })],
	output: {
		kind: 'list',
		list: {
			itemsPath: 'response.messages',
			paging: {
				kind: 'offset',
				offsetKey: W.offset,
				pageSizeKey: W.limit,
				maxPageSize: PAGE_SIZE.messages.max,
			},
		},
	},
});
