import { boolean, id, integer, list, text } from '../../../shared/checks';
import {
	CHAT_TYPE_OPTIONS,
	NAME_MAX_LENGTH,
	TRANSFER_TYPE_OPTIONS,
	TRIGGER_TYPE_NEEDING_MESSAGE,
	TRIGGER_TYPE_OPTIONS,
	TRIGGER_TYPES_NEEDING_TAG,
} from '../../../shared/constants';
import { GET_INTEGRATIONS_METHOD, INTEGRATIONS_BY_NAME } from '../../../shared/integrationLocator';
import type { ClearableField, RequiredWhen } from '../../helpers/fields';
import { body, choice, idParameter, updateFields, WHERE_TO_FIND } from '../../helpers/fields';
import { defineOperation } from '../../helpers/operation';
import { pick } from '../../helpers/output';
import { WIRE } from '../../../shared/wireNames';

// The conditional rules of the spec apply when Trigger Type is among the fields sent.
const triggerTypeSent = (request: { body?: unknown }): unknown => (request.body as { triggerType?: unknown } | undefined)?.triggerType;
/** A trigger type as the panel's Trigger Type list names it ("Receive Specific Message"). */
const triggerTypeName = (value: string): string => TRIGGER_TYPE_OPTIONS.find((option) => option.value === value)?.name ?? value;
export const needsMessage: RequiredWhen = {
	condition: (request) => triggerTypeSent(request) === TRIGGER_TYPE_NEEDING_MESSAGE,
	reason: `required when Trigger Type is ${triggerTypeName(TRIGGER_TYPE_NEEDING_MESSAGE)}`,
};
export const needsTag: RequiredWhen = {
	condition: (request) => TRIGGER_TYPES_NEEDING_TAG.includes(String(triggerTypeSent(request))),
	reason: `required when Trigger Type is ${TRIGGER_TYPES_NEEDING_TAG.map(triggerTypeName).join(' or ')}`,
};

const specificMessage = body({
	displayName: 'Specific Message',
	name: 'specificMessage',
	type: 'string',
	default: '',
	placeholder: 'e.g. I want to talk to sales',
	description:
		'The message text that starts the automation (required with Trigger Type Receive Specific Message)',
}, text({ required: true, min: 1 }), { requiredWhen: needsMessage });

const tagId = body(idParameter({
	displayName: 'Tag ID',
	name: 'tagId',
	description:
		'ID of the tag whose adding or removing starts the automation (required with the Add/Remove Tag trigger types)',
	whereToFind: WHERE_TO_FIND.tag,
}), id({ required: true }), { requiredWhen: needsTag });

const automationBotId = body(idParameter({
	displayName: 'Automation Bot ID',
	name: 'automationBotId',
	description:
		'ID of the bot-flow integration the automation runs. To remove the bot, choose Automation Bot ID under Fields to Clear instead.',
	whereToFind: WHERE_TO_FIND.botIntegration,
}), id({ required: true }));

const integrations = body({
	displayName: 'Integration Names or IDs',
	name: 'integrations',
	type: 'multiOptions',
	typeOptions: { loadOptionsMethod: GET_INTEGRATIONS_METHOD },
	default: [],
	description:
		'The channel integrations (messaging lines) the trigger watches; they replace the current ones. To remove them all, choose Integration Names or IDs under Fields to Clear instead. Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
}, list({ required: true, ids: true, byName: INTEGRATIONS_BY_NAME, send: 'array' }));

/** Settings both versions send as they are (version 1 always, with these defaults; version 2 when added). */
export const chatType = choice('body', {
	displayName: 'Chat Type',
	name: 'chatType',
	options: CHAT_TYPE_OPTIONS,
	default: 'ALL',
	description: 'Which chats the trigger reacts to',
}, { required: true, key: WIRE.automationEdit.chatType });
export const inAttendance = body({
	displayName: 'In Attendance Only',
	name: 'inAttendance',
	type: 'boolean',
	default: false,
	description: 'Whether to run only when an attendant is serving the chat',
}, boolean({ required: true }));
export const transferType = choice('body', {
	displayName: 'Transfer Type',
	name: 'transferType',
	options: TRANSFER_TYPE_OPTIONS,
	default: 'ALL',
	description: 'Which transfers of the chat the trigger reacts to',
}, { required: true, key: WIRE.automationEdit.transferType });
export const moveToQueue = body({
	displayName: 'Move to Queue',
	name: 'moveToQueue',
	type: 'boolean',
	default: false,
	description: 'Whether to move the chat to the queue after the automation',
}, boolean({ required: true }));

/** What Fields to Clear offers, and what each clearing means. */
const CLEARABLE: ClearableField[] = [
	{ field: automationBotId, clearWith: 'single', give: 'an ID', effect: 'the trigger then runs a system automation instead of a bot flow' },
	{ field: integrations, clearWith: 'list', give: 'at least one integration', effect: 'the trigger then watches no integration' },
	{ field: specificMessage, clearWith: 'single', give: 'the message text', effect: 'for a trigger type that does not need it' },
	{ field: tagId, clearWith: 'single', give: 'an ID', effect: 'for a trigger type that does not need it' },
];

/**
 * Version 2 (version 1, as released in 0.1.0, is update.v1.ts). A partial update (DESIGN.md): only
 * the ID is required, and only the fields added under Update Fields are sent. The API has no read
 * endpoint for triggers, so a default sent for an untouched field would silently overwrite the live
 * setting; for the same reason an added but empty field is refused, and clearing a setting is
 * chosen under Fields to Clear.
 */
export const automationUpdate = defineOperation({
	resource: 'automation',
	operation: 'update',
	name: 'Update',
	action: 'Update an automation trigger by its ID',
	description:
		'Edit an automation trigger by its ID. Only the fields added under Update Fields are sent; every other setting of the trigger stays as it is. Returns the updated trigger.',
	method: 'POST',
	path: '/automation/edit',
	wireNames: WIRE.automationEdit,
	fields: [
		body(
			idParameter({
				displayName: 'Automation Trigger ID',
				name: 'automationTriggerId',
				required: true,
				description: 'ID of the automation trigger',
				whereToFind: WHERE_TO_FIND.automationTrigger,
			}),
			id({ required: true }),
		),
		updateFields([
			body({
				displayName: 'Name',
				name: 'name',
				type: 'string',
				default: '',
				placeholder: 'e.g. Welcome Message',
				description: 'Name of the trigger, 1-255 characters',
			}, text({ required: true, min: 1, max: NAME_MAX_LENGTH })),
			body({
				displayName: 'Description',
				name: 'description',
				type: 'string',
				default: '',
				placeholder: 'e.g. Greets contacts who write for the first time',
				description: 'What the trigger is for, 1-255 characters',
			}, text({ required: true, min: 1, max: NAME_MAX_LENGTH })),
			choice('body', {
				displayName: 'Trigger Type',
				name: 'triggerType',
				options: TRIGGER_TYPE_OPTIONS,
				default: 'RECEIVE_ANY_MESSAGE',
				description:
					'What makes the automation run. Receive Specific Message also needs Specific Message; the two tag types need Tag ID.',
			}, { required: true }),
			specificMessage,
			tagId,
			automationBotId,
			integrations,
			chatType,
			inAttendance,
			body({
				displayName: 'Delay Minutes',
				name: 'delayMinutes',
				type: 'number',
				typeOptions: { numberPrecision: 0 },
				default: 0,
				description: 'Minutes to wait before the automation runs (0 = at once)',
			}, integer({ required: true })),
			transferType,
			moveToQueue,
		], CLEARABLE),
	],
	errors: {
		byStatus: { 404: 'Check the Automation Trigger ID, and the IDs under Update Fields (bot, integrations, tag): one does not exist.' },
	},
	assumption:
		'The node sends only the fields added under Update Fields (it assumes the API edits a trigger partially). If the API asks for the whole trigger, add every field under Update Fields.',
	output: { kind: 'single', unwrap: pick('data.trigger') },
	versions: [2],
});
