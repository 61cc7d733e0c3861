/**
 * Bad input, table-driven, through n8n-core's real RoutingNode: every rule and limit of the API
 * spec, on every operation, including wrong types that expressions produce (`={{ 12345 }}`,
 * `={{ {a:1} }}`, lists, booleans, null). The one table of bad inputs: a new rule gets a row here.
 * For each row:
 *
 * 1. one item, no continueOnFail: the node throws a NodeOperationError (or n8n's re-wrap of it)
 *    naming the field by its display name, the rule and the item (index 0), saying what to do next
 *    (not the generic "change it to meet the rule") and that nothing was sent, and the sandbox's request log stays EMPTY; where the row gives the whole message,
 *    it is that message;
 * 2. two such items under continueOnFail: two error items, in order, paired to items 0 and 1,
 *    each naming its own item, and still zero requests.
 */
jest.mock('../../nodes/shared/retry', () => jest.requireActual('./fast-retry').fastRetryModule());

import type { IDataObject, INodeParameters } from 'n8n-workflow';
import { actionDescription } from '../helpers/action-node';
import { NodeOperationError } from 'n8n-workflow';

import { useSandbox } from '../helpers/node-runner';
import { operationKey, operationsOf } from '../helpers/operations';
import { DEMO } from '../sandbox';
import { itemIndexOf, run, runError } from './helpers';
import { VALID as base, updateTrigger } from './operations';

const ctx = useSandbox();

const ID = DEMO.tags.vip.id;
const WHATSAPP = DEMO.integrations.whatsapp.id;
const ALICE = DEMO.contacts.alice.phoneNumber;
const long = (n: number, char = 'x'): string => char.repeat(n);
const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

interface BadInput {
	/** what is broken */
	name: string;
	parameters: INodeParameters;
	/** the field as the error must name it: its display name in the panel */
	field: string;
	/** the rule, as the message states it */
	rule: RegExp;
	/** the whole message for one item (text: exactly; pattern: matched) */
	message?: string | RegExp;
}

const row = (
	name: string,
	operation: INodeParameters,
	overrides: INodeParameters,
	field: string,
	rule: RegExp,
	message?: RegExp,
): BadInput => ({ name, parameters: { ...operation, ...overrides }, field, rule, message });

/** "Invalid|Missing <field>: <rule>" split at the field (the first ": "). */
function fieldAndRule(message: string): { field: string; rest: string } {
	const parts = /^(?:Invalid|Missing) (.+?): (.*)$/.exec(message);
	if (!parts) throw new Error(`not a field message: ${message}`);
	return { field: parts[1], rest: parts[2] };
}

/** A row whose one-item message is exactly `message`. */
function exact(name: string, operation: INodeParameters, overrides: INodeParameters, message: string): BadInput {
	const { field, rest } = fieldAndRule(message);
	return { ...row(name, operation, overrides, field, new RegExp(`^${escape(rest)}`)), message };
}

/** A row whose one-item message starts with `start`. */
function startsWith(name: string, operation: INodeParameters, overrides: INodeParameters, start: string): BadInput {
	const { field, rest } = fieldAndRule(start);
	return row(name, operation, overrides, field, new RegExp(`^${escape(rest)}`), new RegExp(`^${escape(start)}`));
}

const ID_RULE = /must be an ID: "c" followed by 24 lowercase letters or digits/;
const REQUIRED = /a value is required/;
const TEXT = /must be text/;
const PHONE_LENGTH = /must be 8-30 characters/;
const ONE_OF = /must be one of /;
const BOOLEAN = /must be true or false/;
const LIMIT = /must be a whole number of 1 or more/;
const JSON_RULE = /must be valid JSON/;

const cases: BadInput[] = [
	// Tag → Create
	exact('tag name empty', base.tagCreate, { name: '' }, 'Missing Name: a value is required'),
	row('tag name only spaces', base.tagCreate, { name: '   ' }, 'Name', REQUIRED),
	exact('tag name 256 characters', base.tagCreate, { name: long(256) }, 'Invalid Name: must be 1-255 characters, got 256 characters'),
	row('tag name 256 emoji (code points, not UTF-16 units)', base.tagCreate, { name: long(256, '😀') }, 'Name', /must be 1-255 characters, got 256/),
	row('tag name from ={{ {a:1} }}', base.tagCreate, { name: '={{ { a: 1 } }}' }, 'Name', TEXT),
	exact('tag name from ={{ { first: "a" } }}: text must not be an object', base.tagCreate, { name: '={{ { first: "a" } }}' }, 'Invalid Name: must be text, got an object'),
	row('tag name from ={{ ["a","b"] }}', base.tagCreate, { name: '={{ ["a", "b"] }}' }, 'Name', TEXT),
	row('tag name from ={{ true }}', base.tagCreate, { name: '={{ true }}' }, 'Name', TEXT),
	row('tag colour a word', base.tagCreate, { additionalFields: { color: 'blue' } }, 'Color', /must be # followed by six hex digits/),
	exact('tag colour a word, with the example', base.tagCreate, { name: 'Red', additionalFields: { color: 'red' } }, 'Invalid Color: must be # followed by six hex digits, like #1A73E8, got "red"'),
	row('tag colour with a non-hex digit', base.tagCreate, { additionalFields: { color: '#12345G' } }, 'Color', /six hex digits/),
	row('tag colour #RGB', base.tagCreate, { additionalFields: { color: '#fff' } }, 'Color', /six hex digits/),
	startsWith('tag colour #RGB (#f00)', base.tagCreate, { name: 'Red', additionalFields: { color: '#f00' } }, 'Invalid Color: must be # followed by six hex digits'),
	row('tag colour from ={{ 123456 }}', base.tagCreate, { additionalFields: { color: '={{ 123456 }}' } }, 'Color', /six hex digits/),
	row('extra body fields malformed JSON', base.tagCreate, { options: { extraBodyFields: '{"a":' } }, 'Extra Body Fields', JSON_RULE),
	startsWith('extra body fields not JSON at all', base.tagCreate, { name: 'A', options: { extraBodyFields: '{oops' } }, 'Invalid Extra Body Fields: must be valid JSON'),
	row('extra body fields a list', base.tagCreate, { options: { extraBodyFields: '[1,2]' } }, 'Extra Body Fields', /must be a JSON object/),
	exact('extra body fields a list of 1', base.tagCreate, { name: 'A', options: { extraBodyFields: '[1]' } }, 'Invalid Extra Body Fields: must be a JSON object, like {"field": "value"}, got a list of 1'),

	// Tag → Remove From Contact
	exact('phone 5 characters', base.tagRemove, { phoneNumber: '12345' }, 'Invalid Phone Number: must be 8-30 characters, got 5 characters'),
	row('phone 7 characters', base.tagRemove, { phoneNumber: '1234567' }, 'Phone Number', /must be 8-30 characters, got 7/),
	row('phone 31 characters', base.tagRemove, { phoneNumber: long(31, '5') }, 'Phone Number', /must be 8-30 characters, got 31/),
	row('phone a channel chat id, not a LID', base.tagRemove, { phoneNumber: '5511987650001@s.whatsapp.net' }, 'Phone Number', /contact LID ending in @lid/),
	exact('phone a channel chat id: the message shows a LID', base.tagRemove, { phoneNumber: '5511999998888@s.whatsapp.net' }, 'Invalid Phone Number: must be a phone number with country and area code (at least 8 digits, with an optional +, spaces, dashes, dots or parentheses), or a contact LID ending in @lid, like 123456789012345@lid, got "5511999998888@s.whatsapp.net"'),
	row('LID with a space', base.tagRemove, { phoneNumber: '2073 91204857@lid' }, 'Phone Number', /contact LID ending in @lid/),
	row('LID with two @', base.tagRemove, { phoneNumber: '2073@91204857@lid' }, 'Phone Number', /contact LID ending in @lid/),
	row('phone from ={{ {a:1} }}', base.tagRemove, { phoneNumber: '={{ { a: 1 } }}' }, 'Phone Number', TEXT),
	row('phone from ={{ 1234567 }} (7 digits)', base.tagRemove, { phoneNumber: '={{ 1234567 }}' }, 'Phone Number', PHONE_LENGTH),
	exact('51 tag IDs', base.tagRemove, { tagIds: Array(51).fill(ID) }, 'Invalid Tag IDs: must have at most 50 values, got 51 values'),
	row('51 tag IDs as one comma-separated text', base.tagRemove, { tagIds: Array(51).fill(ID).join(',') }, 'Tag IDs', /at most 50 values/),
	row('tag ID from ={{ 12345 }}', base.tagRemove, { tagIds: '={{ 12345 }}' }, 'Tag IDs, value 1', /must be an ID/),
	row('tag IDs from ={{ [{a:1}] }}', base.tagRemove, { tagIds: '={{ [{ a: 1 }] }}' }, 'Tag IDs, value 1', /must be text \(several values or one comma-separated text\), got an object/),
	row('tag IDs as a JSON text with a bad entry', base.tagRemove, { tagIds: `["${ID}", "vip"]` }, 'Tag IDs, value 2', /must be an ID/),
	exact('tag IDs as a comma-separated text with a bad entry', base.tagRemove, { tagIds: `${ID},not-an-id` }, 'Invalid Tag IDs, value 2: must be an ID: "c" followed by 24 lowercase letters or digits, got "not-an-id"'),
	row('51 tag names', base.tagRemove, { tagIds: [], tagNames: Array.from({ length: 51 }, (_, i) => `T${i}`) }, 'Tag Names', /at most 50 values, got 51/),
	exact('51 tag names (Tag 0 …)', base.tagRemove, { tagIds: [], tagNames: Array.from({ length: 51 }, (_, i) => `Tag ${i}`) }, 'Invalid Tag Names: must have at most 50 values, got 51 values'),
	exact('tag name entry 256 characters', base.tagRemove, { tagIds: [], tagNames: ['VIP', long(256)] }, 'Invalid Tag Names, value 2: must be 1-255 characters, got 256 characters'),
	exact('no tag IDs and no tag names', base.tagRemove, { tagIds: [], tagNames: [] }, 'Missing Tag IDs or Tag Names: give at least one of them'),
	row('trigger automations from ={{ "yes" }}', base.tagRemove, { additionalFields: { triggerAutomations: '={{ "yes" }}' } }, 'Trigger Automations', BOOLEAN),

	// Tag → Get Contacts
	row('tag By ID upper case', base.tagContacts, { tag: { __rl: true, mode: 'id', value: ID.toUpperCase() } }, 'Tag', ID_RULE),
	row('tag By ID 24 characters', base.tagContacts, { tag: { __rl: true, mode: 'id', value: ID.slice(0, 24) } }, 'Tag', ID_RULE),
	row('tag By ID given a name', base.tagContacts, { tag: { __rl: true, mode: 'id', value: 'VIP' } }, 'Tag', ID_RULE),
	row('tag By Name 256 characters', base.tagContacts, { tag: { __rl: true, mode: 'name', value: long(256) } }, 'Tag', /must be 1-255 characters/),
	row('tag empty', base.tagContacts, { tag: { __rl: true, mode: 'name', value: '' } }, 'Tag', /give the tag's ID \(By ID\) or its exact name \(Name\)/),
	exact('no Tag parameter at all (Return All)', { resource: 'tag', operation: 'getContacts', returnAll: true }, {}, "Missing Tag: give the tag's ID (By ID) or its exact name (Name)"),
	row('former Tag ID parameter upper case', base.tagContacts, { tag: { __rl: true, mode: 'id', value: '' }, tagId: ID.toUpperCase() }, 'Tag', ID_RULE),
	row('limit 0', base.tagContacts, { limit: 0 }, 'Limit', LIMIT),
	row('limit from ={{ 2.5 }}', base.tagContacts, { limit: '={{ 2.5 }}' }, 'Limit', LIMIT),
	row('limit from ={{ "ten" }}', base.tagContacts, { limit: '={{ "ten" }}' }, 'Limit', LIMIT),

	// Automation → Update
	row('trigger ID from ={{ {a:1} }}', base.automationUpdate, { automationTriggerId: '={{ { a: 1 } }}' }, 'Automation Trigger ID', TEXT),
	row('trigger name empty', updateTrigger({ name: '' }), {}, 'Name', /add a value, or remove Name from Update Fields/),
	exact('trigger name 256', updateTrigger({ name: long(256) }), {}, 'Invalid Name: must be 1-255 characters, got 256 characters'),
	row('trigger description 256', updateTrigger({ description: long(256) }), {}, 'Description', /must be 1-255 characters, got 256/),
	exact('trigger description 300', updateTrigger({ description: long(300) }), {}, 'Invalid Description: must be 1-255 characters, got 300 characters'),
	exact('specific message missing for RECEIVE_SPECIFIC_MESSAGE', updateTrigger({ triggerType: 'RECEIVE_SPECIFIC_MESSAGE', specificMessage: '' }), {}, 'Missing Specific Message: required when Trigger Type is Receive Specific Message'),
	exact('tag ID missing for ADD_TAG_TO_CONTACT', updateTrigger({ triggerType: 'ADD_TAG_TO_CONTACT', tagId: '' }), {}, 'Missing Tag ID: required when Trigger Type is Add Tag to Contact or Remove Tag From Contact'),
	startsWith('tag ID not an ID for REMOVE_TAG_FROM_CONTACT', updateTrigger({ triggerType: 'REMOVE_TAG_FROM_CONTACT', tagId: 'vip' }), {}, 'Invalid Tag ID: must be an ID: "c" followed by 24 lowercase letters or digits'),
	row('trigger type unknown', updateTrigger({ triggerType: 'ON_FULL_MOON' }), {}, 'Trigger Type', ONE_OF),
	row('chat type lower case', updateTrigger({ chatType: '={{ "contact" }}' }), {}, 'Chat Type', ONE_OF),
	row('transfer type unknown', updateTrigger({ transferType: '={{ "EVERYONE" }}' }), {}, 'Transfer Type', ONE_OF),
	// The spec gives the trigger's delay no lower bound (only the webhook's, >= 0; see Webhook below).
	row('delay minutes 2^60 (not a safe integer)', updateTrigger({ delayMinutes: '={{ 2 ** 60 }}' }), {}, 'Delay Minutes', /must be a whole number/),
	row('delay minutes from ={{ NaN }}', updateTrigger({ delayMinutes: '={{ NaN }}' }), {}, 'Delay Minutes', /must be a whole number/),
	row('in attendance from ={{ 1 }}', updateTrigger({ inAttendance: '={{ 1 }}' }), {}, 'In Attendance Only', BOOLEAN),
	exact('in attendance from ={{ "yes" }}', updateTrigger({ inAttendance: '={{ "yes" }}' }), {}, 'Invalid In Attendance Only: must be true or false, got "yes"'),
	row('move to queue from ={{ null }}', updateTrigger({ moveToQueue: '={{ null }}' }), {}, 'Move to Queue', /add a value, or remove Move to Queue from Update Fields/),
	row('integrations from ={{ {a:1} }}', updateTrigger({ integrations: '={{ { a: 1 } }}' }), {}, 'Integration Names or IDs, value 1', /must be text \(several values or one comma-separated text\), got an object/),
	row('integration entry not an ID', updateTrigger({ integrations: [WHATSAPP, 'whatsapp'] }), {}, 'Integration Names or IDs, value 2', /must be an ID/),
	startsWith('the only integration not an ID', updateTrigger({ integrations: ['whatsapp'] }), {}, 'Invalid Integration Names or IDs, value 1: must be an ID'),
	row('bot ID not an ID', updateTrigger({ automationBotId: 'bot-1' }), {}, 'Automation Bot ID', ID_RULE),

	// Automation → Delete
	row('trigger ID from ={{ 12345 }}', base.automationDelete, { automationTriggerId: '={{ 12345 }}' }, 'Automation Trigger ID', ID_RULE),
	exact('trigger ID a word', base.automationDelete, { automationTriggerId: 'trigger-1' }, 'Invalid Automation Trigger ID: must be an ID: "c" followed by 24 lowercase letters or digits, got "trigger-1"'),
	row('trigger ID empty', base.automationDelete, { automationTriggerId: '' }, 'Automation Trigger ID', REQUIRED),

	// Automation → Stop in Chat (node version 2: one Chat field whose mode says how the chat is found)
	exact('stop: chat empty', base.stopInChat, { chat: { __rl: true, mode: 'list', value: '' } }, "Missing Chat: pick the chat, or give its internal ID, the contact's phone number or the chat's JID"),
	exact('only the integration given', { resource: 'automation', operation: 'stopInChat', additionalFields: { integrationId: ID } }, {}, "Missing Chat: pick the chat, or give its internal ID, the contact's phone number or the chat's JID"),
	row('stop: phone 3 characters', base.stopInChat, { chat: { __rl: true, mode: 'phoneNumber', value: '123' } }, 'Chat (Phone)', PHONE_LENGTH),
	exact('stop: phone 4 characters', { resource: 'automation', operation: 'stopInChat', chat: { __rl: true, mode: 'phoneNumber', value: '1234' } }, {}, 'Invalid Chat (Phone): must be 8-30 characters, got 4 characters'),
	row('stop: chat internal ID not an ID', base.stopInChat, { chat: { __rl: true, mode: 'id', value: 'chat-1' } }, 'Chat', ID_RULE),
	row('stop: JID from ={{ {a:1} }}', base.stopInChat, { chat: { __rl: true, mode: 'jid', value: '={{ { a: 1 } }}' } }, 'Chat (JID)', TEXT),
	row('stop: integration ID not an ID', base.stopInChat, { additionalFields: { integrationId: 'line-1' } }, 'Integration', ID_RULE),

	// Bot Integration → Create
	row('bot URL without bot id', base.botCreate, { url: 'https://bots.example.com/api/v1/bots/' }, 'URL', /\{origin\}\/api\/v1\/bots\/\{botId\}/),
	exact('bot URL without /api/v1', base.botCreate, { name: 'Bot', url: 'https://bots.example.com/bots/sales' }, 'Invalid URL: must have the form {origin}/api/v1/bots/{botId}, like https://bots.example.com/api/v1/bots/sales-bot, got "https://bots.example.com/bots/sales"'),
	startsWith('bot URL with a path before /api', base.botCreate, { name: 'Bot', url: 'https://x.example.com/a/api/v1/bots/b' }, 'Invalid URL: must have the form {origin}/api/v1/bots/{botId}'),
	row('bot URL with a query', base.botCreate, { url: 'https://bots.example.com/api/v1/bots/x?y=1' }, 'URL', /\{origin\}\/api\/v1\/bots\/\{botId\}/),
	row('bot URL ftp', base.botCreate, { url: 'ftp://bots.example.com/api/v1/bots/x' }, 'URL', /absolute http\(s\) URL/),
	row('bot name empty', base.botCreate, { name: '' }, 'Name', REQUIRED),
	row('bot URL from ={{ {a:1} }}', base.botCreate, { url: '={{ { a: 1 } }}' }, 'URL', TEXT),

	// Integration → Get Many / Disconnect / Delete / Validate Phone Number
	row('integrations limit -5', base.integrationList, { limit: -5 }, 'Limit', LIMIT),
	row('disconnect: integration ID blank', base.integrationDisconnect, { integrationId: '   ' }, 'Integration', REQUIRED),
	startsWith('disconnect: integration ID upper case', base.integrationDisconnect, { integrationId: ID.toUpperCase() }, 'Invalid Integration: must be an ID'),
	row('delete: integration ID upper case', base.integrationDelete, { integrationId: WHATSAPP.toUpperCase() }, 'Integration', ID_RULE),
	row('validate: integration ID not an ID', base.validatePhone, { integrationId: 'whatsapp' }, 'Integration', ID_RULE),
	row('validate: phone from ={{ {a:1} }}', base.validatePhone, { phoneNumber: '={{ { a: 1 } }}' }, 'Phone Number', TEXT),
	row('validate: phone empty', base.validatePhone, { phoneNumber: '' }, 'Phone Number', REQUIRED),

	// Webhook → Create
	row('webhook URL not a URL', base.webhookCreate, { url: 'not a url' }, 'URL', /absolute http\(s\) URL/),
	exact('webhook URL without a scheme', base.webhookCreate, { url: 'example.com/hook' }, 'Invalid URL: must be an absolute http(s) URL, like https://example.com/hook, got "example.com/hook"'),
	startsWith('webhook URL ftp', base.webhookCreate, { url: 'ftp://example.com/hook' }, 'Invalid URL: must be an absolute http(s) URL'),
	row('webhook URL javascript:', base.webhookCreate, { url: 'javascript:alert(1)' }, 'URL', /absolute http\(s\) URL/),
	row('webhook URL relative', base.webhookCreate, { url: '/hooks/inbox' }, 'URL', /absolute http\(s\) URL/),
	row('webhook event type unknown', base.webhookCreate, { type: '={{ "MESSAGE_DELETED" }}' }, 'Event Type', ONE_OF, /^Invalid Event Type: must be one of MESSAGE_SENT_AND_RECEIVED, .*got "MESSAGE_DELETED"$/),
	row('webhook method lower case', base.webhookCreate, { method: '={{ "post" }}' }, 'Method', ONE_OF),
	exact('webhook method unknown', base.webhookCreate, { method: '={{ "FETCH" }}' }, 'Invalid Method: must be one of POST, GET, PUT, PATCH, DELETE, got "FETCH"'),
	exact('webhook delay -1', base.webhookCreate, { additionalFields: { delayMinutes: -1 } }, 'Invalid Delay Minutes: must be a whole number of 0 or more, got -1'),
	exact('webhook delay 2.5', base.webhookCreate, { additionalFields: { delayMinutes: 2.5 } }, 'Invalid Delay Minutes: must be a whole number of 0 or more, got 2.5'),
	row('webhook delay from ={{ "1.5" }}', base.webhookCreate, { additionalFields: { delayMinutes: '={{ "1.5" }}' } }, 'Delay Minutes', /whole number of 0 or more/),
	exact('webhook delay from ={{ "soon" }}', base.webhookCreate, { additionalFields: { delayMinutes: '={{ "soon" }}' } }, 'Invalid Delay Minutes: must be a whole number of 0 or more, got "soon"'),
	row('webhook transfer type unknown', base.webhookCreate, { additionalFields: { transferType: '={{ "NOBODY" }}' } }, 'Transfer Type', ONE_OF),
	row('webhook integration ID from ={{ 12345 }}', base.webhookCreate, { integrationId: '={{ 12345 }}' }, 'Integration', ID_RULE),
	row('webhook header without a name', base.webhookCreate, { additionalFields: { headers: { header: [{ key: ' ', value: '1' }] } } }, 'Headers', /entry 1 needs a header name/),
	startsWith('webhook header with an empty name', base.webhookCreate, { additionalFields: { headers: { header: [{ key: '', value: 'x' }] } } }, 'Invalid Headers: entry 1 needs a header name'),

	// Template → Get Many
	exact('templates: integration ID empty', base.templateList, { integrationId: '' }, 'Missing Integration: a value is required'),
	exact('templates: search 256 characters', base.templateList, { filters: { search: long(256) } }, 'Invalid Search: must be at most 255 characters, got 256 characters'),
	row('templates: status lower case', base.templateList, { filters: { status: '={{ "approved" }}' } }, 'Status', ONE_OF),
	exact('templates: status unknown', base.templateList, { filters: { status: '={{ "LIVE" }}' } }, 'Invalid Status: must be one of APPROVED, PENDING, REJECTED, DISABLED, PAUSED, IN_APPEAL, PENDING_DELETION, got "LIVE"'),
	row('templates: search from ={{ {a:1} }}', base.templateList, { filters: { search: '={{ { a: 1 } }}' } }, 'Search', TEXT),
	row('templates: limit from ={{ [] }}', base.templateList, { limit: '={{ [] }}' }, 'Limit', LIMIT),

	// Group → Get Invite URL
	row('group JID of a contact', base.groupInvite, { groupJid: '5511987650001@s.whatsapp.net' }, 'Group JID', /ending in @g.us/),
	exact('group JID of a contact: the message shows a group JID', base.groupInvite, { integrationId: ID, groupJid: '5511999998888@s.whatsapp.net' }, 'Invalid Group JID: must be a group JID ending in @g.us, like 120363025246125486@g.us, got "5511999998888@s.whatsapp.net"'),
	row('group JID only the suffix', base.groupInvite, { groupJid: '@g.us' }, 'Group JID', /ending in @g.us/),
	row('group: integration ID not an ID', base.groupInvite, { integrationId: 'c123' }, 'Integration', ID_RULE),

	// Custom Field → Get / Create or Update
	row('custom fields: phone 7 characters', base.customFieldGet, { phoneNumber: '5511987' }, 'Phone Number', PHONE_LENGTH),
	exact('custom fields: phone 31 characters', base.customFieldGet, { phoneNumber: long(31, '5') }, 'Invalid Phone Number: must be 8-30 characters, got 31 characters'),
	row('custom fields: a LID where only numbers are allowed', base.customFieldGet, { phoneNumber: DEMO.contacts.lid.lid }, 'Phone Number', /must be a phone number/),
	startsWith('custom fields: another LID where only numbers are allowed', base.customFieldGet, { phoneNumber: '123456789012345@lid' }, 'Invalid Phone Number: must be a phone number'),
	row('custom fields: phone from ={{ [1, 2] }}', base.customFieldGet, { phoneNumber: '={{ [1, 2] }}' }, 'Phone Number', TEXT),
	row('upsert: value malformed JSON (Value Type JSON)', base.customFieldUpsert, { inputs: { templateField: [{ templateFieldId: DEMO.customFields.profile.fields.plan, valueType: 'json', value: '{"a":' }] } }, 'Value of input 1', JSON_RULE),
	startsWith('upsert: value a bare word (Value Type JSON)', base.customFieldUpsert, { phoneNumber: ALICE, inputs: { templateField: [{ templateFieldId: 'f1', valueType: 'json', value: 'gold' }] } }, 'Invalid Value of input 1: must be valid JSON'),
	row('upsert: value not a number (Value Type Number)', base.customFieldUpsert, { inputs: { templateField: [{ templateFieldId: DEMO.customFields.profile.fields.plan, valueType: 'number', value: '12a' }] } }, 'Value of input 1', /must be a number/),
	row('upsert: value not true/false (Value Type Boolean)', base.customFieldUpsert, { inputs: { templateField: [{ templateFieldId: DEMO.customFields.profile.fields.plan, valueType: 'boolean', value: 'yes' }] } }, 'Value of input 1', /must be true or false/),
	row('upsert: template field ID empty', base.customFieldUpsert, { inputs: { templateField: [{ templateFieldId: '', value: '1' }] } }, 'Template Field ID of input 1', REQUIRED),
	row('upsert: phone 5 digits', base.customFieldUpsert, { phoneNumber: '12345' }, 'Phone Number', PHONE_LENGTH),
	row('upsert: extra field inputs a JSON text', base.customFieldUpsert, { inputs: {}, additionalFields: { extraFieldInputs: '"text"' } }, 'Extra Field Inputs', /JSON list of objects/),
	row('upsert: extra field inputs with a number', base.customFieldUpsert, { inputs: {}, additionalFields: { extraFieldInputs: '[{"key":"a","valueJson":1}, 2]' } }, 'Extra Field Inputs', /JSON list of objects/),
	startsWith('upsert: extra field inputs only numbers (no template fields parameter)', { resource: 'customField', operation: 'upsert', phoneNumber: ALICE, additionalFields: { extraFieldInputs: '[1, 2]' } }, {}, 'Invalid Extra Field Inputs: must be a JSON list of objects'),
	row('upsert: extra field inputs malformed JSON', base.customFieldUpsert, { inputs: {}, additionalFields: { extraFieldInputs: '[{' } }, 'Extra Field Inputs', JSON_RULE),
	row('upsert: no inputs at all', base.customFieldUpsert, { inputs: {} }, 'Template Field Inputs', /add at least one template field input or extra field input/),
	exact('upsert: no inputs parameter at all', { resource: 'customField', operation: 'upsert', phoneNumber: ALICE }, {}, 'Missing Template Field Inputs: add at least one template field input or extra field input'),
	row('upsert: phone empty', base.customFieldUpsert, { phoneNumber: '' }, 'Phone Number', REQUIRED),

	// Chat → Get Many
	exact('chats: category unknown', base.chatList, { category: '={{ "archived" }}' }, 'Invalid Category: must be one of attendance, queue, groups, finalized, pinned, got "archived"'),
	exact('chats: attendants with category queue', base.chatList, { category: 'queue', filters: { attendantIds: [DEMO.users.ana.id] } }, 'Invalid Attendant Names or IDs: can only be used with Category attendance or pinned, got Category queue'),
	startsWith('chats: integration filter not IDs', base.chatList, { filters: { integrationIds: 'whatsapp' } }, 'Invalid Integration Names or IDs, value 1: must be an ID'),
	row('chats: tag filter from ={{ [123] }}', base.chatList, { filters: { tagIds: '={{ [123] }}' } }, 'Tag IDs, value 1', /must be an ID/),
	row('chats: limit 0', base.chatList, { limit: 0 }, 'Limit', LIMIT),
	exact('chats: limit from ={{ "many" }}', base.chatList, { limit: '={{ "many" }}' }, 'Invalid Limit: must be a whole number of 1 or more, got "many"'),
	row('chats: extra query parameter without a name', base.chatList, { options: { extraQueryParameters: { parameter: [{ name: '', value: 'x' }] } } }, 'Extra Query Parameters', /entry 1 needs a name/),

	// Message → Get Many
	row('messages: chat internal ID empty', base.messageList, { chatInternalId: '' }, 'Chat', REQUIRED),
	row('messages: chat internal ID from ={{ {a:1} }}', base.messageList, { chatInternalId: '={{ { a: 1 } }}' }, 'Chat', TEXT),
	row('messages: limit from ={{ null }}', base.messageList, { limit: '={{ null }}' }, 'Limit', LIMIT),

	// User → Get Many
	exact('users: limit 0', base.userList, { limit: 0 }, 'Invalid Limit: must be a whole number of 1 or more, got 0'),
	row('users: limit -1', base.userList, { limit: -1 }, 'Limit', LIMIT),
	row('users: limit from ={{ true }}', base.userList, { limit: '={{ true }}' }, 'Limit', LIMIT),
	exact('users: extra query parameter with a blank name', base.userList, { options: { extraQueryParameters: { parameter: [{ name: ' ', value: '1' }] } } }, 'Invalid Extra Query Parameters: entry 1 needs a name'),
];

/**
 * "Invalid|Missing <label>: <rule>", the field by the name the panel shows it under (never its API
 * name); the item named, in n8n's way (" [item 1]"), only when the node received several items.
 */
function expectNamed(message: string, label: string, item: number | undefined, rule: RegExp): void {
	expect(message).toMatch(new RegExp(`^(Invalid|Missing) ${escape(label)}: `));
	expect(message).not.toMatch(/items count/);
	if (item === undefined) expect(message).not.toMatch(/\bitems?\b/i);
	else expect(message).toMatch(new RegExp(` \\[item ${item}\\]$`));
	expect(message.slice(message.indexOf(`${label}: `) + label.length + 2)).toMatch(rule);
}

describe('bad input never reaches the API', () => {
	test('the table covers every operation and at least 40 bad inputs', () => {
		expect(cases.length).toBeGreaterThanOrEqual(40);
		const covered = new Set(cases.map((c) => operationKey(c.parameters)));
		const all = operationsOf(actionDescription()).map(operationKey);
		expect(all.filter((operation) => !covered.has(operation))).toEqual([]);
		// The valid bases, one per operation of the description.
		expect(Object.values(base).map(operationKey).sort()).toEqual([...all].sort());
	});

	test('every base is itself valid: it reaches the API (so each row fails only for what it breaks)', async () => {
		for (const parameters of Object.values(base)) {
			ctx.sandbox.reset();
			await run(ctx.sandbox, { parameters, continueOnFail: true });
			// One request; a list whose first page is shorter than asked confirms its end with a second
			// (the API may cap its pages below what the node asks: issue 12).
			const expected = ctx.sandbox.requests.length === 2 && parameters.operation === 'getAll' ? 2 : 1;
			expect({ operation: parameters.operation, requests: ctx.sandbox.requests.length, ok: ctx.sandbox.requests.every((r) => r.status === 200) }).toEqual({
				operation: parameters.operation,
				requests: expected,
				ok: true,
			});
		}
	});

	test.each(cases.map((c) => [c.name, c] as const))('%s', async (_name, bad) => {
		// 1. One item, the node stops: field, rule and item named; nothing sent.
		const error = await runError(ctx.sandbox, { parameters: bad.parameters });
		if (typeof bad.message === 'string') expect(error.message).toBe(bad.message);
		else if (bad.message) expect(error.message).toMatch(bad.message);
		expectNamed(error.message, bad.field, undefined, bad.rule);
		expect(itemIndexOf(error)).toBe(0);
		expect(String(error.description)).toContain('Nothing was sent to the API');
		// What to do next, for this field: never the generic "change it to meet the rule" alone (issue 26).
		expect(String(error.description)).not.toMatch(/to meet the rule/);
		// RoutingNode may re-wrap the error in a NodeApiError (same message and description); the
		// NodeOperationError is then its cause.
		const original = error instanceof NodeOperationError ? error : (error.cause as Error);
		expect(original).toBeInstanceOf(NodeOperationError);
		expect(original.message).toBe(error.message);
		expect(itemIndexOf(original)).toBe(0);
		expect(ctx.sandbox.requests).toHaveLength(0);

		// 2. Two items under continueOnFail: two error items, in order, each naming its item.
		const items: IDataObject[] = [{ n: 0 }, { n: 1 }];
		const out = await run(ctx.sandbox, { parameters: bad.parameters, items, continueOnFail: true });
		expect(out).toHaveLength(2);
		out.forEach((item, index) => {
			expect(item.pairedItem).toEqual({ item: index });
			expect(item.error).toBeInstanceOf(NodeOperationError);
			expectNamed(String(item.json.error), bad.field, index, bad.rule);
		});
		expect(ctx.sandbox.requests).toHaveLength(0);
	});
});
