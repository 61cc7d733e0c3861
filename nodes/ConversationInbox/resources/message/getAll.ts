import { LIST_AT } from '../../../shared/answers';
import { id } from '../../../shared/checks';
import { PAGE_SIZE } from '../../../shared/constants';
import { CHAT_BY_NAME } from '../../../shared/chatLocator';
import type { INodeProperties } from 'n8n-workflow';

import { CHAT, CHAT_V1, query, returnAllAndLimit } from '../../helpers/fields';
import type { OperationDefinition } from '../../helpers/operation';
import { defineOperation } from '../../helpers/operation';
import { concurrencyOptions, PAGE_CONCURRENCY } from '../../helpers/options';
import { WIRE } from '../../../shared/wireNames';

const W = WIRE.messageList;

/** Both versions: only the Chat property differs (version 1's is shared with Stop in Chat). */
const getAll = (chatProperty: INodeProperties, versions: number[]): OperationDefinition => ({
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
			chatProperty,
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
	versions,
});

export const messageGetAll = defineOperation(getAll(CHAT, [2]));
/** As released in 0.1.0 (node version 1). */
export const messageGetAllV1 = defineOperation(getAll(CHAT_V1, [1]));
