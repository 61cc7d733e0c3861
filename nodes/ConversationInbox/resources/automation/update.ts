import {
	CHAT_TYPE_OPTIONS,
	NAME_MAX_LENGTH,
	TRANSFER_TYPE_OPTIONS,
	TRIGGER_TYPE_NEEDING_MESSAGE,
	TRIGGER_TYPE_OPTIONS,
	TRIGGER_TYPES_NEEDING_TAG,
} from '../../../shared/constants';
import { GET_INTEGRATIONS_METHOD } from '../../../shared/integrationLocator';
import { idParameter, toBody, updateFields, WHERE_TO_FIND } from '../../helpers/fields';
import { defineOperation } from '../../helpers/operation';
import { pick } from '../../helpers/output';
import type { RuleContext } from '../../helpers/validation';
import {
	bodyField,
	boolean,
	id,
	ifAdded,
	integer,
	list,
	oneOf,
	readField,
	requiredWhen,
	text,
} from '../../helpers/validation';
import { WIRE } from '../../wireNames';

const triggerType = bodyField('triggerType', 'Trigger Type');
const specificMessage = bodyField('specificMessage', 'Specific Message');
const tagId = bodyField('tagId', 'Tag ID');
const automationBotId = bodyField('automationBotId', 'Automation Bot ID');
const integrations = bodyField('integrations', 'Integration Names or IDs');
const name = bodyField('name', 'Name');
const description = bodyField('description', 'Description');
const chatType = bodyField(WIRE.automationEdit.chatType, 'Chat Type');
const inAttendance = bodyField('inAttendance', 'In Attendance Only');
const delayMinutes = bodyField('delayMinutes', 'Delay Minutes');
const transferType = bodyField(WIRE.automationEdit.transferType, 'Transfer Type');
const moveToQueue = bodyField('moveToQueue', 'Move to Queue');

// The conditional rules of the spec apply when Trigger Type is among the fields sent.
const needsMessage = (ctx: RuleContext): boolean =>
	readField(ctx, triggerType) === TRIGGER_TYPE_NEEDING_MESSAGE;
const needsTag = (ctx: RuleContext): boolean =>
	TRIGGER_TYPES_NEEDING_TAG.includes(String(readField(ctx, triggerType)));

/**
 * A partial update (DESIGN.md): only the ID is required, and only the fields added under Update
 * Fields are sent. The API has no read endpoint for triggers, so a default sent for an untouched
 * field would silently overwrite the live setting.
 */
export const update = defineOperation({
	resource: 'automation',
	operation: 'update',
	name: 'Update',
	action: 'Update an automation trigger by its ID',
	description:
		'Edit an automation trigger by its ID. Only the fields added under Update Fields are sent; every other setting of the trigger stays as it is. Returns the updated trigger.',
	method: 'POST',
	path: '/automation/edit',
	fields: [
		idParameter({
			displayName: 'Automation Trigger ID',
			name: 'automationTriggerId',
			required: true,
			description: 'ID of the automation trigger to edit',
			whereToFind: WHERE_TO_FIND.automationTrigger,
			routing: toBody('automationTriggerId'),
		}),
		updateFields([
			{
				displayName: 'Name',
				name: 'name',
				type: 'string',
				default: '',
				placeholder: 'e.g. Welcome Message',
				description: 'Name of the trigger, 1-255 characters',
				routing: toBody('name'),
			},
			{
				displayName: 'Description',
				name: 'description',
				type: 'string',
				default: '',
				placeholder: 'e.g. Greets contacts who write for the first time',
				description: 'What the trigger is for, 1-255 characters',
				routing: toBody('description'),
			},
			{
				displayName: 'Trigger Type',
				name: 'triggerType',
				type: 'options',
				options: TRIGGER_TYPE_OPTIONS,
				default: 'RECEIVE_ANY_MESSAGE',
				description:
					'What makes the automation run. Receive Specific Message also needs Specific Message; the two tag types need Tag ID.',
				routing: toBody('triggerType'),
			},
			{
				displayName: 'Specific Message',
				name: 'specificMessage',
				type: 'string',
				default: '',
				placeholder: 'e.g. I want to talk to sales',
				description:
					'The message text that starts the automation (required with Trigger Type Receive Specific Message)',
				routing: toBody('specificMessage'),
			},
			idParameter({
				displayName: 'Tag ID',
				name: 'tagId',
				description:
					'ID of the tag whose adding or removing starts the automation (required with the Add/Remove Tag trigger types)',
				whereToFind: WHERE_TO_FIND.tag,
				routing: toBody('tagId'),
			}),
			idParameter({
				displayName: 'Automation Bot ID',
				name: 'automationBotId',
				description:
					'ID of the bot-flow integration the automation runs. Add it and leave it empty to clear it (the trigger then runs a system automation).',
				whereToFind: WHERE_TO_FIND.botIntegration,
				routing: toBody('automationBotId'),
			}),
			{
				displayName: 'Integration Names or IDs',
				name: 'integrations',
				type: 'multiOptions',
				typeOptions: { loadOptionsMethod: GET_INTEGRATIONS_METHOD },
				default: [],
				description:
					'The channel integrations (messaging lines) the trigger watches; they replace the current ones, and an empty list clears them. Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
				routing: toBody('integrations'),
			},
			{
				displayName: 'Chat Type',
				name: 'chatType',
				type: 'options',
				options: CHAT_TYPE_OPTIONS,
				default: 'ALL',
				description: 'Which chats the trigger reacts to',
				routing: toBody(WIRE.automationEdit.chatType),
			},
			{
				displayName: 'In Attendance Only',
				name: 'inAttendance',
				type: 'boolean',
				default: false,
				description: 'Whether to run only when an attendant is serving the chat',
				routing: toBody('inAttendance'),
			},
			{
				displayName: 'Delay Minutes',
				name: 'delayMinutes',
				type: 'number',
				typeOptions: { numberPrecision: 0 },
				default: 0,
				description: 'Minutes to wait before the automation runs (0 = at once)',
				routing: toBody('delayMinutes'),
			},
			{
				displayName: 'Transfer Type',
				name: 'transferType',
				type: 'options',
				options: TRANSFER_TYPE_OPTIONS,
				default: 'ALL',
				description: 'Which transfers of the chat the trigger reacts to',
				routing: toBody(WIRE.automationEdit.transferType),
			},
			{
				displayName: 'Move to Queue',
				name: 'moveToQueue',
				type: 'boolean',
				default: false,
				description: 'Whether to move the chat to the queue after the automation',
				routing: toBody('moveToQueue'),
			},
		]),
	],
	rules: [
		id(bodyField('automationTriggerId', 'Automation Trigger ID'), { required: true }),
		ifAdded(name, text(name, { required: true, min: 1, max: NAME_MAX_LENGTH })),
		ifAdded(description, text(description, { required: true, min: 1, max: NAME_MAX_LENGTH })),
		ifAdded(triggerType, oneOf(triggerType, TRIGGER_TYPE_OPTIONS, { required: true })),
		requiredWhen(specificMessage, needsMessage, 'required when Trigger Type is RECEIVE_SPECIFIC_MESSAGE'),
		ifAdded(specificMessage, text(specificMessage, { required: true, min: 1 })),
		requiredWhen(
			tagId,
			needsTag,
			'required when Trigger Type is ADD_TAG_TO_CONTACT or REMOVE_TAG_FROM_CONTACT',
		),
		ifAdded(tagId, id(tagId, { required: true })),
		// Added but empty: sent as null / [] to clear the bot flow / the integrations.
		ifAdded(automationBotId, id(automationBotId), { cleared: null }),
		ifAdded(integrations, list(integrations, { ids: true, send: 'array' }), { cleared: [] }),
		ifAdded(chatType, oneOf(chatType, CHAT_TYPE_OPTIONS, { required: true })),
		ifAdded(inAttendance, boolean(inAttendance, { required: true })),
		ifAdded(delayMinutes, integer(delayMinutes, { required: true })),
		ifAdded(transferType, oneOf(transferType, TRANSFER_TYPE_OPTIONS, { required: true })),
		ifAdded(moveToQueue, boolean(moveToQueue, { required: true })),
	],
	errors: {
		byStatus: { 404: 'Check the Automation Trigger ID, and the IDs under Update Fields (bot, integrations, tag): one does not exist.' },
	},
	assumedNames: [WIRE.automationEdit.chatType, WIRE.automationEdit.transferType],
	assumption:
		'The node sends only the fields added under Update Fields (it assumes the API edits a trigger partially). If the API asks for the whole trigger, add every field under Update Fields.',
	output: { kind: 'single', unwrap: pick('data.trigger') },
});
