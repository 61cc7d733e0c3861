/**
 * Bad input, table-driven, through n8n-core's real RoutingNode: every rule and limit of the API
 * spec, on every operation, including wrong types that expressions produce (`={{ 12345 }}`,
 * `={{ {a:1} }}`, lists, booleans, null). For each row:
 *
 * 1. one item, no continueOnFail: the node throws an error naming the field (its API name in
 *    parentheses), the rule and the item, and the sandbox's request log stays EMPTY;
 * 2. two such items under continueOnFail: two error items, in order, paired to items 0 and 1,
 *    each naming its own item, and still zero requests.
 *
 * Labels (display names) are left out of the assertions on purpose: the API name in parentheses is
 * the stable part of the message.
 */
jest.mock('../../nodes/shared/retry', () => jest.requireActual('./fast-retry').fastRetryModule());

import type { IDataObject, INodeParameters } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { useSandbox } from '../helpers/node-runner';
import { DEMO } from '../sandbox';
import { itemIndexOf, run, runError } from './helpers';
import { VALID as base, updateTrigger } from './operations';

const ctx = useSandbox();

const ID = DEMO.tags.vip.id;
const WHATSAPP = DEMO.integrations.whatsapp.id;
const long = (n: number, char = 'x'): string => char.repeat(n);

interface BadInput {
	/** what is broken */
	name: string;
	parameters: INodeParameters;
	/** API name of the field the error must name (as it appears in parentheses) */
	field: string;
	/** the rule, as the message states it */
	rule: RegExp;
}

const row = (
	name: string,
	operation: INodeParameters,
	overrides: INodeParameters,
	field: string,
	rule: RegExp,
): BadInput => ({ name, parameters: { ...operation, ...overrides }, field, rule });

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
	row('tag name empty', base.tagCreate, { name: '' }, 'name', REQUIRED),
	row('tag name only spaces', base.tagCreate, { name: '   ' }, 'name', REQUIRED),
	row('tag name 256 characters', base.tagCreate, { name: long(256) }, 'name', /must be 1-255 characters, got 256/),
	row('tag name 256 emoji (code points, not UTF-16 units)', base.tagCreate, { name: long(256, '😀') }, 'name', /must be 1-255 characters, got 256/),
	row('tag name from ={{ {a:1} }}', base.tagCreate, { name: '={{ { a: 1 } }}' }, 'name', TEXT),
	row('tag name from ={{ ["a","b"] }}', base.tagCreate, { name: '={{ ["a", "b"] }}' }, 'name', TEXT),
	row('tag name from ={{ true }}', base.tagCreate, { name: '={{ true }}' }, 'name', TEXT),
	row('tag colour a word', base.tagCreate, { additionalFields: { color: 'blue' } }, 'color', /must be # followed by six hex digits/),
	row('tag colour with a non-hex digit', base.tagCreate, { additionalFields: { color: '#12345G' } }, 'color', /six hex digits/),
	row('tag colour #RGB', base.tagCreate, { additionalFields: { color: '#fff' } }, 'color', /six hex digits/),
	row('tag colour from ={{ 123456 }}', base.tagCreate, { additionalFields: { color: '={{ 123456 }}' } }, 'color', /six hex digits/),
	row('extra body fields malformed JSON', base.tagCreate, { options: { extraBodyFields: '{"a":' } }, 'options.extraBodyFields', JSON_RULE),
	row('extra body fields a list', base.tagCreate, { options: { extraBodyFields: '[1,2]' } }, 'options.extraBodyFields', /must be a JSON object/),

	// Tag → Remove From Contact
	row('phone 7 characters', base.tagRemove, { phoneNumber: '1234567' }, 'phoneNumber', /must be 8-30 characters, got 7/),
	row('phone 31 characters', base.tagRemove, { phoneNumber: long(31, '5') }, 'phoneNumber', /must be 8-30 characters, got 31/),
	row('phone a channel chat id, not a LID', base.tagRemove, { phoneNumber: '5511987650001@s.whatsapp.net' }, 'phoneNumber', /contact LID ending in @lid/),
	row('LID with a space', base.tagRemove, { phoneNumber: '2073 91204857@lid' }, 'phoneNumber', /contact LID ending in @lid/),
	row('LID with two @', base.tagRemove, { phoneNumber: '2073@91204857@lid' }, 'phoneNumber', /contact LID ending in @lid/),
	row('phone from ={{ {a:1} }}', base.tagRemove, { phoneNumber: '={{ { a: 1 } }}' }, 'phoneNumber', TEXT),
	row('phone from ={{ 1234567 }} (7 digits)', base.tagRemove, { phoneNumber: '={{ 1234567 }}' }, 'phoneNumber', PHONE_LENGTH),
	row('51 tag IDs', base.tagRemove, { tagIds: Array(51).fill(ID) }, 'tagIds', /must have at most 50 entries, got 51/),
	row('51 tag IDs as one comma-separated text', base.tagRemove, { tagIds: Array(51).fill(ID).join(',') }, 'tagIds', /at most 50 entries/),
	row('tag ID from ={{ 12345 }}', base.tagRemove, { tagIds: '={{ 12345 }}' }, 'tagIds', /entry 1 must be an ID/),
	row('tag IDs from ={{ [{a:1}] }}', base.tagRemove, { tagIds: '={{ [{ a: 1 }] }}' }, 'tagIds', /must be a list of text values/),
	row('tag IDs as a JSON text with a bad entry', base.tagRemove, { tagIds: `["${ID}", "vip"]` }, 'tagIds', /entry 2 must be an ID/),
	row('51 tag names', base.tagRemove, { tagIds: [], tagNames: Array.from({ length: 51 }, (_, i) => `T${i}`) }, 'tagNames', /at most 50 entries, got 51/),
	row('tag name entry 256 characters', base.tagRemove, { tagIds: [], tagNames: ['VIP', long(256)] }, 'tagNames', /entry 2 must be 1-255 characters, got 256/),
	row('no tag IDs and no tag names', base.tagRemove, { tagIds: [], tagNames: [] }, 'tagIds', /give at least one of them/),
	row('trigger automations from ={{ "yes" }}', base.tagRemove, { additionalFields: { triggerAutomations: '={{ "yes" }}' } }, 'triggerAutomations', BOOLEAN),

	// Tag → Get Contacts
	row('tag ID upper case', base.tagContacts, { tagId: ID.toUpperCase() }, 'tagId', ID_RULE),
	row('tag ID 24 characters', base.tagContacts, { tagId: ID.slice(0, 24) }, 'tagId', ID_RULE),
	row('tag name 256 characters', base.tagContacts, { tagId: '', tagName: long(256) }, 'tagName', /must be 1-255 characters/),
	row('neither tag ID nor tag name', base.tagContacts, { tagId: '' }, 'tagName', /give at least one of them/),
	row('limit 0', base.tagContacts, { limit: 0 }, 'limit', LIMIT),
	row('limit from ={{ 2.5 }}', base.tagContacts, { limit: '={{ 2.5 }}' }, 'limit', LIMIT),
	row('limit from ={{ "ten" }}', base.tagContacts, { limit: '={{ "ten" }}' }, 'limit', LIMIT),

	// Automation → Update
	row('trigger ID from ={{ {a:1} }}', base.automationUpdate, { automationTriggerId: '={{ { a: 1 } }}' }, 'automationTriggerId', TEXT),
	row('trigger name empty', updateTrigger({ name: '' }), {}, 'name', REQUIRED),
	row('trigger description 256', updateTrigger({ description: long(256) }), {}, 'description', /must be 1-255 characters, got 256/),
	row('specific message missing for RECEIVE_SPECIFIC_MESSAGE', updateTrigger({ triggerType: 'RECEIVE_SPECIFIC_MESSAGE', specificMessage: '' }), {}, 'specificMessage', /required when Trigger Type is RECEIVE_SPECIFIC_MESSAGE/),
	row('tag ID missing for ADD_TAG_TO_CONTACT', updateTrigger({ triggerType: 'ADD_TAG_TO_CONTACT', tagId: '' }), {}, 'tagId', /required when Trigger Type is ADD_TAG_TO_CONTACT or REMOVE_TAG_FROM_CONTACT/),
	row('tag ID not an ID for REMOVE_TAG_FROM_CONTACT', updateTrigger({ triggerType: 'REMOVE_TAG_FROM_CONTACT', tagId: 'vip' }), {}, 'tagId', ID_RULE),
	row('trigger type unknown', updateTrigger({ triggerType: 'ON_FULL_MOON' }), {}, 'triggerType', ONE_OF),
	row('chat type lower case', updateTrigger({ chatType: '={{ "contact" }}' }), {}, 'chatType', ONE_OF),
	row('transfer type unknown', updateTrigger({ transferType: '={{ "EVERYONE" }}' }), {}, 'transferType', ONE_OF),
	// The spec gives the trigger's delay no lower bound (only the webhook's, >= 0; see Webhook below).
	row('delay minutes 2^60 (not a safe integer)', updateTrigger({ delayMinutes: '={{ 2 ** 60 }}' }), {}, 'delayMinutes', /must be a whole number/),
	row('delay minutes from ={{ NaN }}', updateTrigger({ delayMinutes: '={{ NaN }}' }), {}, 'delayMinutes', /must be a whole number/),
	row('in attendance from ={{ 1 }}', updateTrigger({ inAttendance: '={{ 1 }}' }), {}, 'inAttendance', BOOLEAN),
	row('move to queue from ={{ null }}', updateTrigger({ moveToQueue: '={{ null }}' }), {}, 'moveToQueue', REQUIRED),
	row('integrations from ={{ {a:1} }}', updateTrigger({ integrations: '={{ { a: 1 } }}' }), {}, 'integrations', /must be a list of text values/),
	row('integration entry not an ID', updateTrigger({ integrations: [WHATSAPP, 'whatsapp'] }), {}, 'integrations', /entry 2 must be an ID/),
	row('bot ID not an ID', updateTrigger({ automationBotId: 'bot-1' }), {}, 'automationBotId', ID_RULE),

	// Automation → Delete
	row('trigger ID from ={{ 12345 }}', base.automationDelete, { automationTriggerId: '={{ 12345 }}' }, 'automationTriggerId', ID_RULE),
	row('trigger ID empty', base.automationDelete, { automationTriggerId: '' }, 'automationTriggerId', REQUIRED),

	// Automation → Stop in Chat
	row('none of chat internal ID, chat ID, phone', base.stopInChat, { chatInternalId: '' }, 'chatId', /give at least one of them/),
	row('stop: phone 3 characters', base.stopInChat, { chatInternalId: '', phoneNumber: '123' }, 'phoneNumber', PHONE_LENGTH),
	row('stop: chat internal ID not an ID', base.stopInChat, { chatInternalId: 'chat-1' }, 'chatInternalId', ID_RULE),
	row('stop: chat ID from ={{ {a:1} }}', base.stopInChat, { chatInternalId: '', chatId: '={{ { a: 1 } }}' }, 'chatId', TEXT),
	row('stop: integration ID not an ID', base.stopInChat, { additionalFields: { integrationId: 'line-1' } }, 'integrationId', ID_RULE),

	// Bot Integration → Create
	row('bot URL without bot id', base.botCreate, { url: 'https://bots.example.com/api/v1/bots/' }, 'url', /\{origin\}\/api\/v1\/bots\/\{botId\}/),
	row('bot URL with a query', base.botCreate, { url: 'https://bots.example.com/api/v1/bots/x?y=1' }, 'url', /\{origin\}\/api\/v1\/bots\/\{botId\}/),
	row('bot URL ftp', base.botCreate, { url: 'ftp://bots.example.com/api/v1/bots/x' }, 'url', /absolute http\(s\) URL/),
	row('bot name empty', base.botCreate, { name: '' }, 'name', REQUIRED),
	row('bot URL from ={{ {a:1} }}', base.botCreate, { url: '={{ { a: 1 } }}' }, 'url', TEXT),

	// Integration → Get Many / Disconnect / Delete / Validate Phone Number
	row('integrations limit -5', base.integrationList, { limit: -5 }, 'limit', LIMIT),
	row('disconnect: integration ID blank', base.integrationDisconnect, { integrationId: '   ' }, 'integrationId', REQUIRED),
	row('delete: integration ID upper case', base.integrationDelete, { integrationId: WHATSAPP.toUpperCase() }, 'integrationId', ID_RULE),
	row('validate: integration ID not an ID', base.validatePhone, { integrationId: 'whatsapp' }, 'integrationId', ID_RULE),
	row('validate: phone from ={{ {a:1} }}', base.validatePhone, { phoneNumber: '={{ { a: 1 } }}' }, 'phoneNumber', TEXT),
	row('validate: phone empty', base.validatePhone, { phoneNumber: '' }, 'phoneNumber', REQUIRED),

	// Webhook → Create
	row('webhook URL not a URL', base.webhookCreate, { url: 'not a url' }, 'url', /absolute http\(s\) URL/),
	row('webhook URL javascript:', base.webhookCreate, { url: 'javascript:alert(1)' }, 'url', /absolute http\(s\) URL/),
	row('webhook URL relative', base.webhookCreate, { url: '/hooks/inbox' }, 'url', /absolute http\(s\) URL/),
	row('webhook event type unknown', base.webhookCreate, { type: '={{ "MESSAGE_DELETED" }}' }, 'type', ONE_OF),
	row('webhook method lower case', base.webhookCreate, { method: '={{ "post" }}' }, 'method', ONE_OF),
	row('webhook delay -1', base.webhookCreate, { additionalFields: { delayMinutes: -1 } }, 'delayMinutes', /whole number of 0 or more/),
	row('webhook delay from ={{ "1.5" }}', base.webhookCreate, { additionalFields: { delayMinutes: '={{ "1.5" }}' } }, 'delayMinutes', /whole number of 0 or more/),
	row('webhook transfer type unknown', base.webhookCreate, { additionalFields: { transferType: '={{ "NOBODY" }}' } }, 'transferType', ONE_OF),
	row('webhook integration ID from ={{ 12345 }}', base.webhookCreate, { integrationId: '={{ 12345 }}' }, 'integrationId', ID_RULE),

	// Template → Get Many
	row('templates: integration ID empty', base.templateList, { integrationId: '' }, 'integrationId', REQUIRED),
	row('templates: search 256 characters', base.templateList, { filters: { search: long(256) } }, 'search', /at most 255 characters, got 256/),
	row('templates: status lower case', base.templateList, { filters: { status: '={{ "approved" }}' } }, 'status', ONE_OF),
	row('templates: search from ={{ {a:1} }}', base.templateList, { filters: { search: '={{ { a: 1 } }}' } }, 'search', TEXT),
	row('templates: limit from ={{ [] }}', base.templateList, { limit: '={{ [] }}' }, 'limit', LIMIT),

	// Group → Get Invite URL
	row('group JID of a contact', base.groupInvite, { groupJid: '5511987650001@s.whatsapp.net' }, 'groupJid', /ending in @g.us/),
	row('webhook header without a name', base.webhookCreate, { additionalFields: { headers: { header: [{ key: ' ', value: '1' }] } } }, 'headers', /entry 1 needs a header name/),
	row('group JID only the suffix', base.groupInvite, { groupJid: '@g.us' }, 'groupJid', /ending in @g.us/),
	row('group: integration ID not an ID', base.groupInvite, { integrationId: 'c123' }, 'integrationId', ID_RULE),

	// Custom Field → Get / Create or Update
	row('custom fields: phone 7 characters', base.customFieldGet, { phoneNumber: '5511987' }, 'phoneNumber', PHONE_LENGTH),
	row('custom fields: a LID where only numbers are allowed', base.customFieldGet, { phoneNumber: DEMO.contacts.lid.lid }, 'phoneNumber', /must be a phone number/),
	row('custom fields: phone from ={{ [1, 2] }}', base.customFieldGet, { phoneNumber: '={{ [1, 2] }}' }, 'phoneNumber', TEXT),
	row('upsert: value malformed JSON (Value Type JSON)', base.customFieldUpsert, { inputs: { templateField: [{ templateFieldId: DEMO.customFields.profile.fields.plan, valueType: 'json', value: '{"a":' }] } }, 'value', JSON_RULE),
	row('upsert: value not a number (Value Type Number)', base.customFieldUpsert, { inputs: { templateField: [{ templateFieldId: DEMO.customFields.profile.fields.plan, valueType: 'number', value: '12a' }] } }, 'value', /must be a number/),
	row('upsert: value not true/false (Value Type Boolean)', base.customFieldUpsert, { inputs: { templateField: [{ templateFieldId: DEMO.customFields.profile.fields.plan, valueType: 'boolean', value: 'yes' }] } }, 'value', /must be true or false/),
	row('upsert: template field ID empty', base.customFieldUpsert, { inputs: { templateField: [{ templateFieldId: '', value: '1' }] } }, 'templateFieldId', REQUIRED),
	row('upsert: phone 5 digits', base.customFieldUpsert, { phoneNumber: '12345' }, 'phoneNumber', PHONE_LENGTH),
	row('upsert: extra field inputs a JSON text', base.customFieldUpsert, { inputs: {}, additionalFields: { extraFieldInputs: '"text"' } }, 'extraFieldInputs', /JSON list of objects/),
	row('upsert: extra field inputs with a number', base.customFieldUpsert, { inputs: {}, additionalFields: { extraFieldInputs: '[{"key":"a","valueJson":1}, 2]' } }, 'extraFieldInputs', /JSON list of objects/),
	row('upsert: extra field inputs malformed JSON', base.customFieldUpsert, { inputs: {}, additionalFields: { extraFieldInputs: '[{' } }, 'extraFieldInputs', JSON_RULE),
	row('upsert: no inputs at all', base.customFieldUpsert, { inputs: {} }, 'inputs', /add at least one template field input or extra field input/),
	row('upsert: phone empty', base.customFieldUpsert, { phoneNumber: '' }, 'phoneNumber', REQUIRED),

	// Chat → Get Many
	row('chats: category unknown', base.chatList, { category: '={{ "archived" }}' }, 'category', ONE_OF),
	row('chats: attendants with category queue', base.chatList, { category: 'queue', filters: { attendantIds: [DEMO.users.ana.id] } }, 'attendantIds', /only be used with Category attendance or pinned/),
	row('chats: integration filter not IDs', base.chatList, { filters: { integrationIds: 'whatsapp' } }, 'integrationIds', /entry 1 must be an ID/),
	row('chats: tag filter from ={{ [123] }}', base.chatList, { filters: { tagIds: '={{ [123] }}' } }, 'tagIds', /entry 1 must be an ID/),
	row('chats: limit 0', base.chatList, { limit: 0 }, 'limit', LIMIT),
	row('chats: extra query parameter without a name', base.chatList, { options: { extraQueryParameters: { parameter: [{ name: '', value: 'x' }] } } }, 'options.extraQueryParameters', /entry 1 needs a name/),

	// Message → Get Many
	row('messages: chat internal ID empty', base.messageList, { chatInternalId: '' }, 'chatInternalId', REQUIRED),
	row('messages: chat internal ID from ={{ {a:1} }}', base.messageList, { chatInternalId: '={{ { a: 1 } }}' }, 'chatInternalId', TEXT),
	row('messages: limit from ={{ null }}', base.messageList, { limit: '={{ null }}' }, 'limit', LIMIT),

	// User → Get Many
	row('users: limit -1', base.userList, { limit: -1 }, 'limit', LIMIT),
	row('users: limit from ={{ true }}', base.userList, { limit: '={{ true }}' }, 'limit', LIMIT),
];

const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** "Invalid|Missing … (<field>) … in item <n>: <rule>" */
function expectNamed(message: string, field: string, item: number, rule: RegExp): void {
	expect(message).toMatch(new RegExp(`^(Invalid|Missing) .*\\(${escape(field)}\\).* in item ${item}: `));
	expect(message.slice(message.indexOf(`in item ${item}: `))).toMatch(rule);
}

describe('bad input never reaches the API', () => {
	test('the table covers every operation and at least 40 bad inputs', () => {
		expect(cases.length).toBeGreaterThanOrEqual(40);
		const covered = new Set(cases.map((c) => `${c.parameters.resource}.${c.parameters.operation}`));
		const all = new Set(Object.values(base).map((p) => `${p.resource}.${p.operation}`));
		expect([...all].filter((operation) => !covered.has(operation))).toEqual([]);
		expect(all.size).toBe(19);
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
		expectNamed(error.message, bad.field, 0, bad.rule);
		expect(itemIndexOf(error)).toBe(0);
		expect(String(error.description)).toContain('Nothing was sent to the API');
		const original = error instanceof NodeOperationError ? error : (error.cause as Error);
		expect(original).toBeInstanceOf(NodeOperationError);
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
