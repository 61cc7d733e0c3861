import { id, phone, text } from '../../../shared/checks';
import { CHAT_BY_NAME } from '../../../shared/chatLocator';
import { body, CHANNEL_CHAT_ID_EXAMPLE, CHAT_V1, PHONE_NUMBER_V1, targetOf } from '../../helpers/fields';
import { defineOperation } from '../../helpers/operation';
import { atLeastOne } from '../../helpers/prepare';
import { STOP_IN_CHAT } from './stopInChat';

/** The three ways to find the chat: one is enough. */
const chatInternalId = body(
	CHAT_V1,
	id({ byName: CHAT_BY_NAME }),
);

const chatId = body(
	{
		displayName: 'Channel Chat ID',
		name: 'chatId',
		type: 'string',
		default: '',
		placeholder: `e.g. ${CHANNEL_CHAT_ID_EXAMPLE}`,
		description:
			'The chat\'s ID on the messaging channel: the number followed by @s.whatsapp.net for a contact, or a group JID ending in @g.us',
	},
	text({ min: 1, trim: true }),
);

const phoneNumber = body(
	PHONE_NUMBER_V1,
	phone({ form: 'anyFormat' }),
);

/**
 * Automation → Stop in Chat as released in 0.1.0 (node version 1): three fields, Chat, Channel Chat
 * ID and Phone Number, at least one given (a saved workflow may give several: all are sent).
 * Version 2 (stopInChat.ts) finds the chat with one picker.
 */
export const automationStopInChatV1 = defineOperation({
	...STOP_IN_CHAT,
	description:
		'Stop the bot flow or system automation running in a chat. Identify the chat by its internal ID, its channel chat ID or the contact\'s phone number (at least one). Returns whether something was stopped, the chat and the stopped automations.',
	fields: [
		{
			displayName:
				'Find the chat by one of the three fields below: Chat, Channel Chat ID or Phone Number. One is enough; leave the others empty. When several chats match, the one with the most recent message is used.',
			name: 'stopInChatNotice',
			type: 'notice',
			default: '',
		},
		chatInternalId,
		chatId,
		phoneNumber,
		STOP_IN_CHAT.integration,
	],
	rules: [atLeastOne([targetOf(chatInternalId), targetOf(chatId), targetOf(phoneNumber)])],
	versions: [1],
});
