import { PAGE_SIZE } from '../../../shared/constants';
import { chatLocatorProperty } from '../../../shared/chatLocator';
import { returnAllAndLimit, toQuery } from '../../helpers/fields';
import { defineOperation } from '../../helpers/operation';
import { id, queryField } from '../../helpers/validation';
import { WIRE } from '../../wireNames';

const W = WIRE.messageList;

export const getAll = defineOperation({
	resource: 'message',
	operation: 'getAll',
	name: 'Get Many',
	action: 'Get many messages of a chat by chat ID',
	description:
		'List the messages of one chat, given its internal ID; one item per message',
	method: 'GET',
	path: '/inbox/find-messages-from-inbox',
	fields: [
		chatLocatorProperty({
			required: true,
			description: 'The chat whose messages to list: pick it from the list or give its internal ID',
			routing: toQuery(W.chatInternalId),
		}),
		...returnAllAndLimit(
			`Fetched in pages of up to ${PAGE_SIZE.messages.max} messages; one item per message`,
		),
	],
	rules: [id(queryField(W.chatInternalId, 'Chat'), { required: true })],
	assumedNames: [W.chatInternalId],
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
