import { id, integer, list, text } from '../../../shared/checks';
import {
	NAME_MAX_LENGTH,
	TRIGGER_TYPE_NEEDING_MESSAGE,
	TRIGGER_TYPE_OPTIONS,
	TRIGGER_TYPES_NEEDING_TAG,
} from '../../../shared/constants';
import { GET_INTEGRATIONS_METHOD, INTEGRATIONS_BY_NAME } from '../../../shared/integrationLocator';
import { WIRE } from '../../../shared/wireNames';
import { body, choice, idParameter, sentWhenShown, WHERE_TO_FIND } from '../../helpers/fields';
import { defineOperation } from '../../helpers/operation';
import { pick } from '../../helpers/output';
import { chatType, inAttendance, moveToQueue, needsMessage, needsTag, transferType } from './update';

/**
 * Automation → Update as released in 0.1.0 (node version 1): the whole trigger is sent, every field
 * with its value or its default. Frozen: the parameters (names, types, defaults, which are
 * required, when they are shown) and the request are those of 0.1.0, which the fixtures under
 * test/fixtures/0.1.0 guard. Version 2 (update.ts) sends only the fields the user added.
 */
export const automationUpdateV1 = defineOperation({
	resource: 'automation',
	operation: 'update',
	name: 'Update',
	action: 'Update an automation trigger by its ID',
	description:
		'Edit an automation trigger by its ID. The whole trigger is sent: every setting replaces the current one. Returns the updated trigger.',
	method: 'POST',
	path: '/automation/edit',
	versions: [1],
	wireNames: WIRE.automationEdit,
	fields: [
		body(idParameter({
			displayName: 'Automation Trigger ID',
			name: 'automationTriggerId',
			required: true,
			description: 'ID of the automation trigger',
			whereToFind: WHERE_TO_FIND.automationTrigger,
		}), id({ required: true })),
		body({
			displayName: 'Name',
			name: 'name',
			type: 'string',
			required: true,
			default: '',
			// Its own property: version 2 has Name under Update Fields, and n8n's display rules cannot
			// show one property for this form and the Create operations only.
			placeholder: 'e.g. Welcome Message',
			description: 'Name of the trigger, 1-255 characters',
		}, text({ required: true, min: 1, max: NAME_MAX_LENGTH })),
		body({
			displayName: 'Description',
			name: 'description',
			type: 'string',
			required: true,
			default: '',
			placeholder: 'e.g. Greets contacts who write for the first time',
			description: 'What the trigger is for, 1-255 characters',
		}, text({ required: true, min: 1, max: NAME_MAX_LENGTH })),
		choice('body', {
			displayName: 'Trigger Type',
			name: 'triggerType',
			required: true,
			// Fixed, not an expression: it decides which of Specific Message / Tag ID is shown and sent.
			noDataExpression: true,
			options: TRIGGER_TYPE_OPTIONS,
			default: 'RECEIVE_ANY_MESSAGE',
			description: 'What makes the automation run',
		}, { required: true }),
		// Shown (and so sent) only for the trigger types that need them.
		sentWhenShown(body({
			displayName: 'Specific Message',
			name: 'specificMessage',
			type: 'string',
			required: true,
			default: '',
			placeholder: 'e.g. I want to talk to sales',
			description: 'The message text that starts the automation',
			displayOptions: { show: { triggerType: [TRIGGER_TYPE_NEEDING_MESSAGE] } },
		}, text({ required: true, min: 1 }), { requiredWhen: needsMessage })),
		sentWhenShown(body(idParameter({
			displayName: 'Tag ID',
			name: 'tagId',
			required: true,
			description: 'ID of the tag whose adding or removing starts the automation',
			whereToFind: WHERE_TO_FIND.tag,
			displayOptions: { show: { triggerType: TRIGGER_TYPES_NEEDING_TAG } },
		}), id({ required: true }), { requiredWhen: needsTag })),
		// Empty: not sent (0.1.0 had no way to clear the bot or the integrations).
		body(idParameter({
			displayName: 'Automation Bot ID',
			name: 'automationBotId',
			description:
				'ID of the bot-flow integration the automation runs. Leave empty when the trigger runs a system automation instead of a bot flow.',
			whereToFind: WHERE_TO_FIND.botIntegration,
		}), id()),
		body({
			displayName: 'Integration Names or IDs',
			name: 'integrations',
			type: 'multiOptions',
			typeOptions: { loadOptionsMethod: GET_INTEGRATIONS_METHOD },
			default: [],
			description:
				'The channel integrations (messaging lines) the trigger watches. Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
		}, list({ ids: true, byName: INTEGRATIONS_BY_NAME, send: 'array' })),
		chatType,
		inAttendance,
		body({
			displayName: 'Delay Minutes',
			name: 'delayMinutes',
			type: 'number',
			typeOptions: { minValue: 0, numberPrecision: 0 },
			default: 0,
			description: 'Minutes to wait before the automation runs (0 = at once)',
		}, integer({ required: true, min: 0 })),
		transferType,
		moveToQueue,
	],
	errors: {
		byStatus: { 404: 'Check the Automation Trigger ID, and the other IDs (bot, integrations, tag): one does not exist.' },
	},
	output: { kind: 'single', unwrap: pick('data.trigger') },
});
