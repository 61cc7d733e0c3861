import {
	CHAT_TYPE_OPTIONS,
	NAME_MAX_LENGTH,
	TRANSFER_TYPE_OPTIONS,
	TRIGGER_TYPE_NEEDING_MESSAGE,
	TRIGGER_TYPE_OPTIONS,
	TRIGGER_TYPES_NEEDING_TAG,
} from '../../../shared/constants';
import { GET_INTEGRATIONS_METHOD } from '../../../shared/integrationLocator';
import { idParameter, toBody, WHERE_TO_FIND } from '../../helpers/fields';
import { defineOperation } from '../../helpers/operation';
import { pick } from '../../helpers/output';
import type { RuleContext } from '../../helpers/validation';
import {
	bodyField,
	boolean,
	id,
	integer,
	list,
	oneOf,
	readField,
	requiredWhen,
	text,
	when,
} from '../../helpers/validation';
import { WIRE } from '../../wireNames';

const triggerType = bodyField('triggerType', 'Trigger Type');
const specificMessage = bodyField('specificMessage', 'Specific Message');
const tagId = bodyField('tagId', 'Tag ID');

const needsMessage = (ctx: RuleContext): boolean =>
	readField(ctx, triggerType) === TRIGGER_TYPE_NEEDING_MESSAGE;
const needsTag = (ctx: RuleContext): boolean =>
	TRIGGER_TYPES_NEEDING_TAG.includes(String(readField(ctx, triggerType)));

export const update = defineOperation({
	resource: 'automation',
	operation: 'update',
	name: 'Update',
	action: 'Update an automation trigger',
	description:
		'Edit an automation trigger by its ID: its name, what starts it, the bot flow it runs, the integrations and chats it watches. The whole trigger is sent: every setting replaces the current one. Returns the updated trigger.',
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
		{
			displayName: 'Name',
			name: 'name',
			type: 'string',
			required: true,
			default: '',
			placeholder: 'e.g. Welcome Message',
			description: 'Name of the trigger, 1-255 characters',
			routing: toBody('name'),
		},
		{
			displayName: 'Description',
			name: 'description',
			type: 'string',
			required: true,
			default: '',
			placeholder: 'e.g. Greets contacts who write for the first time',
			description: 'What the trigger is for, 1-255 characters',
			routing: toBody('description'),
		},
		{
			displayName: 'Trigger Type',
			name: 'triggerType',
			type: 'options',
			// Fixed, not an expression: it decides which of Specific Message / Tag ID is shown and sent.
			noDataExpression: true,
			required: true,
			options: TRIGGER_TYPE_OPTIONS,
			default: 'RECEIVE_ANY_MESSAGE',
			description: 'What makes the automation run',
			routing: toBody('triggerType'),
		},
		{
			displayName: 'Specific Message',
			name: 'specificMessage',
			type: 'string',
			required: true,
			default: '',
			placeholder: 'e.g. I want to talk to sales',
			description: 'The message text that starts the automation',
			displayOptions: { show: { triggerType: [TRIGGER_TYPE_NEEDING_MESSAGE] } },
			routing: toBody('specificMessage'),
		},
		idParameter({
			displayName: 'Tag ID',
			name: 'tagId',
			required: true,
			description: 'ID of the tag whose adding or removing starts the automation',
			whereToFind: WHERE_TO_FIND.tag,
			displayOptions: { show: { triggerType: TRIGGER_TYPES_NEEDING_TAG } },
			routing: toBody('tagId'),
		}),
		idParameter({
			displayName: 'Automation Bot ID',
			name: 'automationBotId',
			description:
				'ID of the bot-flow integration the automation runs. Leave empty when the trigger runs a system automation instead of a bot flow.',
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
				'The channel integrations (messaging lines) the trigger watches. Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
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
			typeOptions: { minValue: 0, numberPrecision: 0 },
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
	],
	rules: [
		id(bodyField('automationTriggerId', 'Automation Trigger ID'), { required: true }),
		text(bodyField('name', 'Name'), { required: true, min: 1, max: NAME_MAX_LENGTH }),
		text(bodyField('description', 'Description'), { required: true, min: 1, max: NAME_MAX_LENGTH }),
		oneOf(triggerType, TRIGGER_TYPE_OPTIONS, { required: true }),
		requiredWhen(specificMessage, needsMessage, 'required when Trigger Type is RECEIVE_SPECIFIC_MESSAGE'),
		when(needsMessage, [text(specificMessage, { required: true, min: 1 })]),
		requiredWhen(
			tagId,
			needsTag,
			'required when Trigger Type is ADD_TAG_TO_CONTACT or REMOVE_TAG_FROM_CONTACT',
		),
		when(needsTag, [id(tagId, { required: true })]),
		id(bodyField('automationBotId', 'Automation Bot ID')),
		list(bodyField('integrations', 'Integration Names or IDs'), { ids: true, send: 'array' }),
		oneOf(bodyField(WIRE.automationEdit.chatType, 'Chat Type'), CHAT_TYPE_OPTIONS, { required: true }),
		boolean(bodyField('inAttendance', 'In Attendance Only'), { required: true }),
		integer(bodyField('delayMinutes', 'Delay Minutes'), { required: true, min: 0 }),
		oneOf(bodyField(WIRE.automationEdit.transferType, 'Transfer Type'), TRANSFER_TYPE_OPTIONS, {
			required: true,
		}),
		boolean(bodyField('moveToQueue', 'Move to Queue'), { required: true }),
	],
	output: { kind: 'single', unwrap: pick('data.trigger') },
});
