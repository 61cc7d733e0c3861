/**
 * Valid parameters of every operation (resource.operation), against the sandbox's seeded data.
 * The bad-input table breaks one field of these; the security suite runs them under every fault.
 * Both check that these cover every operation of the node's description (test/helpers/operations.ts).
 */
import type { INodeParameters } from 'n8n-workflow';

import { DEMO } from '../sandbox';

const ID = DEMO.tags.vip.id;
const WHATSAPP = DEMO.integrations.whatsapp.id;
const OFFICIAL = DEMO.integrations.official.id;
const ALICE = DEMO.contacts.alice.phoneNumber;

export const VALID = {
	tagCreate: { resource: 'tag', operation: 'create', name: 'Fresh tag' },
	tagRemove: { resource: 'tag', operation: 'removeFromContact', phoneNumber: ALICE, tagIds: [ID] },
	tagContacts: { resource: 'tag', operation: 'getContacts', tag: { __rl: true, mode: 'id', value: ID }, limit: 10 },
	automationUpdate: {
		resource: 'automation',
		operation: 'update',
		automationTriggerId: DEMO.triggers.anyMessage.id,
		updateFields: { name: 'Name', description: 'Description', triggerType: 'RECEIVE_ANY_MESSAGE' },
	},
	automationDelete: { resource: 'automation', operation: 'delete', automationTriggerId: DEMO.triggers.webhook.id },
	stopInChat: { resource: 'automation', operation: 'stopInChat', chat: { __rl: true, mode: 'id', value: DEMO.chats.botFlow.id } },
	botCreate: {
		resource: 'botIntegration',
		operation: 'create',
		name: 'Sales bot',
		url: 'https://bots.example.com/api/v1/bots/sales',
	},
	integrationList: { resource: 'integration', operation: 'getAll', limit: 10 },
	integrationDisconnect: { resource: 'integration', operation: 'disconnect', integrationId: WHATSAPP },
	integrationDelete: { resource: 'integration', operation: 'delete', integrationId: WHATSAPP },
	validatePhone: { resource: 'integration', operation: 'validatePhoneNumber', integrationId: WHATSAPP, phoneNumber: ALICE },
	webhookCreate: {
		resource: 'webhook',
		operation: 'create',
		integrationId: WHATSAPP,
		url: 'https://example.com/hook',
		type: 'MESSAGE_RECEIVED',
		method: 'POST',
	},
	templateList: { resource: 'template', operation: 'getAll', integrationId: OFFICIAL, limit: 10 },
	groupInvite: { resource: 'group', operation: 'getInviteUrl', integrationId: WHATSAPP, groupJid: DEMO.group.jid },
	customFieldGet: { resource: 'customField', operation: 'get', phoneNumber: ALICE },
	customFieldUpsert: {
		resource: 'customField',
		operation: 'upsert',
		phoneNumber: ALICE,
		inputs: { templateField: [{ templateFieldId: DEMO.customFields.profile.fields.plan, value: 'gold' }] },
	},
	chatList: { resource: 'chat', operation: 'getAll', limit: 10 },
	messageList: { resource: 'message', operation: 'getAll', chatInternalId: DEMO.chats.alice.id, limit: 10 },
	userList: { resource: 'user', operation: 'getAll', limit: 10 },
} satisfies Record<string, INodeParameters>;

/** Automation → Update with `fields` laid over the valid Update Fields. */
export function updateTrigger(fields: INodeParameters): INodeParameters {
	return { ...VALID.automationUpdate, updateFields: { ...VALID.automationUpdate.updateFields, ...fields } };
}
