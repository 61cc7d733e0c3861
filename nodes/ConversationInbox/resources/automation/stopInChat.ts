import { id, phone, text } from '../../../shared/checks';
import { CHAT_BY_NAME } from '../../../shared/chatLocator';
import { INTEGRATION_BY_NAME, integrationLocatorProperty } from '../../../shared/integrationLocator';
import { additionalFields, body, CHANNEL_CHAT_ID_EXAMPLE, CHAT, PHONE_NUMBER, targetOf } from '../../helpers/fields';
import { defineOperation } from '../../helpers/operation';
import type { Unwrap } from '../../helpers/output';
import { asItemJson } from '../../helpers/output';
import { atLeastOne } from '../../helpers/prepare';

/** The three ways to find the chat: one is enough. */
const chatInternalId = body(
	CHAT,
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
	PHONE_NUMBER,
	phone({ format: 'any' }),
);

/** `data` (stopped, chat, automations) plus the API's `message`, which says what was stopped. */
const stoppedResult: Unwrap = (body) => {
	const data = asItemJson(body.data ?? {});
	return [body.message === undefined ? data : { ...data, message: body.message }];
};

export const automationStopInChat = defineOperation({
	resource: 'automation',
	operation: 'stopInChat',
	name: 'Stop in Chat',
	action: 'Stop the bot or automation in a chat',
	description:
		'Stop the bot flow or system automation running in a chat. Identify the chat by its internal ID, its channel chat ID or the contact\'s phone number (at least one). Returns whether something was stopped, the chat and the stopped automations.',
	method: 'POST',
	path: '/automation/stop-automation-in-chat',
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
		additionalFields([
			body(
				integrationLocatorProperty({
					required: false,
					description:
						'Look for the chat only on this channel integration (messaging line). Narrows a search by Channel Chat ID or Phone Number.',
				}),
				id({ byName: INTEGRATION_BY_NAME }),
			),
		]),
	],
	rules: [atLeastOne([targetOf(chatInternalId), targetOf(chatId), targetOf(phoneNumber)])],
	errors: {
		byStatus: { 404: 'No chat matches the Chat, Channel Chat ID, Phone Number and Integration given.' },
		noReason: 'Check that a chat matches the Chat, Channel Chat ID or Phone Number (and the Integration, when given).',
	},
	output: { kind: 'single', unwrap: stoppedResult },
});
