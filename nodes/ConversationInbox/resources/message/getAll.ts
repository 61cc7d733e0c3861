import { LIST_AT } from '../../../shared/answers';
import { id } from '../../../shared/checks';
import { PAGE_SIZE } from '../../../shared/constants';
import { CHAT_BY_NAME } from '../../../shared/chatLocator';
import { CHAT, query, returnAllAndLimit } from '../../helpers/fields';
import { defineOperation } from '../../helpers/operation';
import { concurrencyOptions, PAGE_CONCURRENCY } from '../../helpers/options';
import { WIRE } from '../../../shared/wireNames';

const W = WIRE.messageList;

export const messageGetAll = defineOperation({
	resource: 'message',
	operation: 'getAll',
	name: 'Get Many',
	action: 'Get many messages of a chat by chat ID',
	description:
		'List the messages of one chat, given its internal ID; one item per message',
	method: 'GET',
	path: '/inbox/find-messages-from-inbox',
	wireNames: W,
	fields: [
		query(
			CHAT,
			id({ required: true, byName: CHAT_BY_NAME }),
			{ key: W.chatInternalId },
		),
		...returnAllAndLimit(),
	],
	options: concurrencyOptions(PAGE_SIZE.messages.max, 'messages'),
	output: {
		kind: 'list',
		list: {
			itemsPath: LIST_AT.messages,
			paging: {
				kind: 'offset',
				offsetKey: W.offset,
				pageSizeKey: W.limit,
				maxPageSize: PAGE_SIZE.messages.max,
				concurrency: PAGE_CONCURRENCY,
			},
		},
	},
});
