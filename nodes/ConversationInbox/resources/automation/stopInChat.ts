import { idParameter, PHONE_PLACEHOLDER, toBody } from '../../helpers/fields';
import { defineOperation } from '../../helpers/operation';
import type { Unwrap } from '../../helpers/output';
import { asItemJson } from '../../helpers/output';
import { atLeastOne, bodyField, id, phone, text } from '../../helpers/validation';

const chatInternalId = bodyField('chatInternalId', 'Chat Internal ID');
const chatId = bodyField('chatId', 'Chat ID');
const phoneNumber = bodyField('phoneNumber', 'Phone Number');

/** `data` (stopped, chat, automations) plus the API's `message`, which says what was stopped. */
const stoppedResult: Unwrap = (body) => {
	const data = asItemJson(body.data ?? {});
	return [body.message === undefined ? data : { ...data, message: body.message }];
};

export const stopInChat = defineOperation({
	resource: 'automation',
	operation: 'stopInChat',
	name: 'Stop in Chat',
	action: 'Stop the automation running in a chat',
	description:
		'Stop the bot flow or system automation running in a chat. Find the chat by internal ID, chat ID or phone number (give at least one).',
	method: 'POST',
	path: '/automation/stop-automation-in-chat',
	fields: [
		{
			displayName: 'Give at least one of Chat Internal ID, Chat ID or Phone Number',
			name: 'stopInChatNotice',
			type: 'notice',
			default: '',
		},
		idParameter({
			displayName: 'Chat Internal ID',
			name: 'chatInternalId',
			description: "The chat's internal ID in the inbox",
			routing: toBody('chatInternalId'),
		}),
		{
			displayName: 'Chat ID',
			name: 'chatId',
			type: 'string',
			default: '',
			placeholder: 'e.g. 5511999998888@s.whatsapp.net',
			description: "The chat's ID on the messaging channel",
			routing: toBody('chatId'),
		},
		{
			displayName: 'Phone Number',
			name: 'phoneNumber',
			type: 'string',
			default: '',
			placeholder: PHONE_PLACEHOLDER,
			description:
				'Phone number of the contact, 8-30 characters in any format. Matched approximately: also set Integration ID when the number may exist on several lines.',
			routing: toBody('phoneNumber'),
		},
		{
			displayName: 'Additional Fields',
			name: 'additionalFields',
			type: 'collection',
			placeholder: 'Add Field',
			default: {},
			options: [
				idParameter({
					displayName: 'Integration ID',
					name: 'integrationId',
					description:
						'Look for the chat only on this channel integration (narrows a search by Chat ID or Phone Number)',
					routing: toBody('integrationId'),
				}),
			],
		},
	],
	rules: [
		id(chatInternalId),
		text(chatId, { min: 1, trim: true }),
		phone(phoneNumber),
		atLeastOne([chatInternalId, chatId, phoneNumber]),
		id(bodyField('integrationId', 'Integration ID')),
	],
	output: { kind: 'single', unwrap: stoppedResult },
});
