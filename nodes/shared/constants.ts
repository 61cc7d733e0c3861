import type { INodePropertyOptions } from 'n8n-workflow';

/** `<id>` in the API spec: a cuid-like identifier. */
export const ID_PATTERN = /^c[a-z0-9]{24}$/;
export const ID_PLACEHOLDER = 'clx2v8k1h0000abcd1234efgh';
export const ID_RULE = 'must be an ID: "c" followed by 24 lowercase letters or digits';

export const PHONE_MIN_LENGTH = 8;
export const PHONE_MAX_LENGTH = 30;
export const NAME_MAX_LENGTH = 255;
export const COLOR_PATTERN = /^#[0-9a-fA-F]{6}$/;
export const MAX_TAGS_PER_REMOVAL = 50;
export const GROUP_JID_SUFFIX = '@g.us';

/** An option list written as [label, value, description] rows. */
function choices(rows: Array<[string, string, string]>): INodePropertyOptions[] {
	return rows.map(([name, value, description]) => ({ name, value, description }));
}

export const PAGE_SIZE = {
	tagContacts: { max: 100 },
	chats: { max: 1000 },
	messages: { max: 1000 },
	templates: { max: 250, providerDefault: 25 },
} as const;

export const TRANSFER_TYPE_OPTIONS: INodePropertyOptions[] = [
	{
		name: 'All',
		value: 'ALL',
		description: 'Every transfer, whoever caused it',
	},
	{
		name: 'User',
		value: 'USER',
		description: 'Only transfers made by a person (an attendant) in the inbox',
	},
	{
		name: 'Automation',
		value: 'AUTOMATION',
		description: 'Only transfers made by an automation or bot flow',
	},
	{
		name: 'API',
		value: 'API',
		description: 'Only transfers made through the API',
	},
	{
		name: 'Automation and API',
		value: 'AUTOMATION_AND_API',
		description: 'Transfers made by an automation or through the API, but not by a person',
	},
];

export const WEBHOOK_EVENT_OPTIONS: INodePropertyOptions[] = [
	{
		name: 'Message Sent and Received',
		value: 'MESSAGE_SENT_AND_RECEIVED',
		description: 'Every message in either direction: sent to or received from a contact',
	},
	{
		name: 'Message Sent',
		value: 'MESSAGE_SENT',
		description: 'A message sent to a contact (by an attendant, an automation or the API)',
	},
	{
		name: 'Message Received',
		value: 'MESSAGE_RECEIVED',
		description: 'A message received from a contact',
	},
	{
		name: 'First Message Received',
		value: 'FIRST_MESSAGE_RECEIVED',
		description: 'The very first message from a contact who never wrote before',
	},
	{
		name: 'Message in Service',
		value: 'MESSAGE_IN_SERVICE',
		description: 'A message in a chat that an attendant is currently serving',
	},
	{
		name: 'Connection Status Update',
		value: 'CONNECTION_STATUS_UPDATE',
		description: 'The messaging line connected, disconnected or changed state',
	},
	{
		name: 'Service Continuity Verification',
		value: 'SERVICE_CONTINUITY_VERIFICATION',
		description: 'The platform checks whether an open service should continue',
	},
];

export const WEBHOOK_EVENTS = WEBHOOK_EVENT_OPTIONS.map((option) => option.value as string);

export const HTTP_METHOD_OPTIONS: INodePropertyOptions[] = ['POST', 'GET', 'PUT', 'PATCH', 'DELETE'].map(
	(method) => ({ name: method, value: method }),
);

export const TRIGGER_TYPE_OPTIONS: INodePropertyOptions[] = [
	{
		name: 'Receive Any Message',
		value: 'RECEIVE_ANY_MESSAGE',
		description: 'Runs on every message a contact sends',
	},
	{
		name: 'Receive First Message',
		value: 'RECEIVE_FIRST_MESSAGE',
		description: 'Runs on the first message of a contact who never wrote before',
	},
	{
		name: 'Receive Specific Message',
		value: 'RECEIVE_SPECIFIC_MESSAGE',
		description: 'Runs when a contact sends the exact text set in Specific Message',
	},
	{
		name: 'Add Tag to Contact',
		value: 'ADD_TAG_TO_CONTACT',
		description: 'Runs when the tag set in Tag ID is added to a contact',
	},
	{
		name: 'Remove Tag From Contact',
		value: 'REMOVE_TAG_FROM_CONTACT',
		description: 'Runs when the tag set in Tag ID is removed from a contact',
	},
	{
		name: 'Receive Webhook',
		value: 'RECEIVE_WEBHOOK',
		description: 'Runs when the automation receives a webhook call',
	},
	{
		name: 'Service Continuity',
		value: 'SERVICE_CONTINUITY',
		description: 'Runs when the platform checks whether an open service should continue',
	},
];

/** Trigger types that need a tag, and the one that needs a message text. */
export const TRIGGER_TYPES_NEEDING_TAG = ['ADD_TAG_TO_CONTACT', 'REMOVE_TAG_FROM_CONTACT'];
export const TRIGGER_TYPE_NEEDING_MESSAGE = 'RECEIVE_SPECIFIC_MESSAGE';

export const CHAT_TYPE_OPTIONS = choices([
	['All', 'ALL', 'Contacts and groups'],
	['Contact', 'CONTACT', 'Only one-to-one chats with contacts'],
	['Group', 'GROUP', 'Only group chats'],
]);

export const TEMPLATE_STATUS_OPTIONS = choices([
	['Approved', 'APPROVED', 'Ready to send'],
	['Pending', 'PENDING', 'Waiting for review by the provider'],
	['Rejected', 'REJECTED', 'Refused by the provider'],
	['Disabled', 'DISABLED', 'Turned off by the provider'],
	['Paused', 'PAUSED', 'Paused by the provider, e.g. after poor quality'],
	['In Appeal', 'IN_APPEAL', 'A rejection is being appealed'],
	['Pending Deletion', 'PENDING_DELETION', 'Deleted and waiting to be removed'],
]);

export const CHAT_CATEGORY_OPTIONS = choices([
	['Attendance', 'attendance', 'Chats an attendant is serving'],
	['Queue', 'queue', 'Chats waiting for an attendant'],
	['Groups', 'groups', 'Group chats'],
	['Finalized', 'finalized', 'Closed chats'],
	['Pinned', 'pinned', 'Chats pinned in the inbox'],
]);

/** Attendant filters apply only to these chat categories (API rule). */
export const CATEGORIES_WITH_ATTENDANTS = ['attendance', 'pinned'];
