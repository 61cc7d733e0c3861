import type { INodeProperties } from 'n8n-workflow';

import { id, isLocatorValue, missing, phone, text } from '../../../shared/checks';
import { chatLocatorProperty } from '../../../shared/chatLocator';
import { INTEGRATION_BY_NAME, integrationLocatorProperty } from '../../../shared/integrationLocator';
import { additionalFields, body, CHANNEL_CHAT_ID_EXAMPLE } from '../../helpers/fields';
import type { OperationDefinition } from '../../helpers/operation';
import { defineOperation } from '../../helpers/operation';
import type { Unwrap } from '../../helpers/output';
import { asItemJson } from '../../helpers/output';
import type { Rule } from '../../helpers/prepare';
import { subject, writeTarget } from '../../helpers/prepare';

/** `data` (stopped, chat, automations) plus the API's `message`, which says what was stopped. */
const stoppedResult: Unwrap = (body) => {
	const data = asItemJson(body.data ?? {});
	return [body.message === undefined ? data : { ...data, message: body.message }];
};

/** What both versions share: the request, the Integration that narrows the search, the output. */
export const STOP_IN_CHAT = {
	resource: 'automation',
	operation: 'stopInChat',
	name: 'Stop in Chat',
	action: 'Stop the bot or automation in a chat',
	method: 'POST',
	path: '/automation/stop-automation-in-chat',
	integration: additionalFields([
		body(
			integrationLocatorProperty({
				required: false,
				description:
					'Look for the chat only on this channel integration (messaging line). Narrows a search by phone number or JID.',
			}),
			id({ byName: INTEGRATION_BY_NAME }),
		),
	]),
	errors: {
		byStatus: { 404: 'No chat matches the Chat and the Integration given.' },
		noReason: 'Check that a chat matches the Chat (and the Integration, when given).',
	},
	output: { kind: 'single', unwrap: stoppedResult },
} satisfies Omit<OperationDefinition, 'description' | 'fields'> & Record<string, unknown>;

/** The modes of version 2's Chat picker beyond From List and By ID, and what each is sent as. */
const PHONE_MODE = 'phoneNumber';
const JID_MODE = 'jid';

/**
 * Version 2's one Chat field: the chat From List, By ID (its internal ID), by the contact's phone
 * number or by its JID (the channel chat ID): the spec's three ways to find a chat, one picker
 * whose mode says which. Required, so n8n marks it when empty; the mode labels are short enough
 * for n8n's mode box (92 px: it cut "By Name").
 */
const CHAT_FINDER: INodeProperties = (() => {
	const locator = chatLocatorProperty({
		displayName: 'Chat',
		name: 'chat',
		required: true,
		description:
			'The chat whose bot or automation to stop: pick it from the list, or give its internal ID, the contact\'s phone number or the chat\'s JID. When several chats match a number or JID, the one with the most recent message is used.',
	});
	return {
		...locator,
		modes: [
			...(locator.modes ?? []),
			{
				displayName: 'Phone',
				name: PHONE_MODE,
				type: 'string',
				placeholder: 'e.g. 5511999998888',
				hint: 'The contact\'s phone number, any format (5511987650001, +55 11 98765-0001), or its LID or JID. Matched approximately: add the Integration when the number may be on several lines.',
			},
			{
				displayName: 'JID',
				name: JID_MODE,
				type: 'string',
				placeholder: `e.g. ${CHANNEL_CHAT_ID_EXAMPLE}`,
				hint: 'The chat\'s ID on the messaging channel: the number followed by @s.whatsapp.net, or a group JID ending in @g.us',
			},
		],
	};
})();

/** Where each mode's value travels (the API takes chatInternalId, chatId or phoneNumber). */
const SENT = {
	chatInternalId: { in: 'body', key: 'chatInternalId', label: 'Chat' },
	chatId: { in: 'body', key: 'chatId', label: 'Chat' },
	phoneNumber: { in: 'body', key: 'phoneNumber', label: 'Chat' },
} as const;

/** The Chat field's mode and value into the one body field the mode stands for, checked as that field. */
const chatRule: Rule = (ctx) => {
	const raw = ctx.fn.getNodeParameter('chat', undefined) as unknown;
	const chosen = isLocatorValue(raw) ? raw : { mode: 'id', value: raw };
	if (chosen.value === undefined || chosen.value === null || String(chosen.value).trim() === '') {
		throw missing(subject(ctx, 'Chat'), 'pick the chat, or give its internal ID, the contact\'s phone number or the chat\'s JID');
	}
	// An error names the field and, beside From List and By ID, the mode: "Chat (Phone)".
	if (chosen.mode === PHONE_MODE) {
		writeTarget(ctx, SENT.phoneNumber, phone({ form: 'anyFormat' })(chosen.value, subject(ctx, 'Chat (Phone)')));
	} else if (chosen.mode === JID_MODE) {
		writeTarget(ctx, SENT.chatId, text({ min: 1, trim: true })(chosen.value, subject(ctx, 'Chat (JID)')));
	} else {
		const byName = 'switch Chat to From List to find it by name, or to Phone to give a number';
		writeTarget(ctx, SENT.chatInternalId, id({ byName })(chosen.value, subject(ctx, 'Chat')));
	}
};

/**
 * Version 2 (version 1, as released in 0.1.0, is stopInChat.v1.ts): one required Chat field whose
 * mode says how the chat is found.
 */
export const automationStopInChat = defineOperation({
	...STOP_IN_CHAT,
	description:
		'Stop the bot flow or system automation running in a chat, found from a list, by its internal ID, by the contact\'s phone number or by its JID. Returns whether something was stopped, the chat and the stopped automations.',
	fields: [CHAT_FINDER, STOP_IN_CHAT.integration],
	rules: [chatRule],
	labels: Object.fromEntries(Object.values(SENT).map((target) => [target.key, target.label])),
	versions: [2],
});
