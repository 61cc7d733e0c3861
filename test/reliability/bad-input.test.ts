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
	/** the field as the error must name it: its display name in the panel */
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
	row('tag name empty', base.tagCreate, { name: '' }, 'Name', REQUIRED),
	row('tag name only spaces', base.tagCreate, { name: '   ' }, 'Name', REQUIRED),
	row('tag name 256 characters', base.tagCreate, { name: long(256) }, 'Name', /must be 1-255 characters, got 256/),
	row('tag name 256 emoji (code points, not UTF-16 units)', base.tagCreate, { name: long(256, '😀') }, 'Name', /must be 1-255 characters, got 256/),
	row('tag name from ={{ {a:1} }}', base.tagCreate, { name: '={{ { a: 1 } }}' }, 'Name', TEXT),
	row('tag name from ={{ ["a","b"] }}', base.tagCreate, { name: '={{ ["a", "b"] }}' }, 'Name', TEXT),
	row('tag name from ={{ true }}', base.tagCreate, { name: '={{ true }}' }, 'Name', TEXT),
	row('tag colour a word', base.tagCreate, { additionalFields: { color: 'blue' } }, 'Color', /must be # followed by six hex digits/),
	row('tag colour with a non-hex digit', base.tagCreate, { additionalFields: { color: '#12345G' } }, 'Color', /six hex digits/),
	row('tag colour #RGB', base.tagCreate, { additionalFields: { color: '#fff' } }, 'Color', /six hex digits/),
	row('tag colour from ={{ 123456 }}', base.tagCreate, { additionalFields: { color: '={{ 123456 }}' } }, 'Color', /six hex digits/),
	row('extra body fields malformed JSON', base.tagCreate, { options: { extraBodyFields: '{"a":' } }, 'Extra Body Fields', JSON_RULE),
	row('extra body fields a list', base.tagCreate, { options: { extraBodyFields: '[1,2]' } }, 'Extra Body Fields', /must be a JSON object/),

	// Tag → Remove From Contact
	row('phone 7 characters', base.tagRemove, { phoneNumber: '1234567' }, 'Phone Number', /must be 8-30 characters, got 7/),
	row('phone 31 characters', base.tagRemove, { phoneNumber: long(31, '5') }, 'Phone Number', /must be 8-30 characters, got 31/),
	row('phone a channel chat id, not a LID', base.tagRemove, { phoneNumber: '5511987650001@s.whatsapp.net' }, 'Phone Number', /contact LID ending in @lid/),
	row('LID with a space', base.tagRemove, { phoneNumber: '2073 91204857@lid' }, 'Phone Number', /contact LID ending in @lid/),
	row('LID with two @', base.tagRemove, { phoneNumber: '2073@91204857@lid' }, 'Phone Number', /contact LID ending in @lid/),
	row('phone from ={{ {a:1} }}', base.tagRemove, { phoneNumber: '={{ { a: 1 } }}' }, 'Phone Number', TEXT),
	row('phone from ={{ 1234567 }} (7 digits)', base.tagRemove, { phoneNumber: '={{ 1234567 }}' }, 'Phone Number', PHONE_LENGTH),
	row('51 tag IDs', base.tagRemove, { tagIds: Array(51).fill(ID) }, 'Tag IDs', /must have at most 50 entries, got 51/),
	row('51 tag IDs as one comma-separated text', base.tagRemove, { tagIds: Array(51).fill(ID).join(',') }, 'Tag IDs', /at most 50 entries/),
	row('tag ID from ={{ 12345 }}', base.tagRemove, { tagIds: '={{ 12345 }}' }, 'Tag IDs', /entry 1 must be an ID/),
	row('tag IDs from ={{ [{a:1}] }}', base.tagRemove, { tagIds: '={{ [{ a: 1 }] }}' }, 'Tag IDs', /must be a list of text values/),
	row('tag IDs as a JSON text with a bad entry', base.tagRemove, { tagIds: `["${ID}", "vip"]` }, 'Tag IDs', /entry 2 must be an ID/),
	row('51 tag names', base.tagRemove, { tagIds: [], tagNames: Array.from({ length: 51 }, (_, i) => `T${i}`) }, 'Tag Names', /at most 50 entries, got 51/),
	row('tag name entry 256 characters', base.tagRemove, { tagIds: [], tagNames: ['VIP', long(256)] }, 'Tag Names', /entry 2 must be 1-255 characters, got 256/),
	row('no tag IDs and no tag names', base.tagRemove, { tagIds: [], tagNames: [] }, 'Tag IDs or Tag Names', /give at least one of them/),
	row('trigger automations from ={{ "yes" }}', base.tagRemove, { additionalFields: { triggerAutomations: '={{ "yes" }}' } }, 'Trigger Automations', BOOLEAN),

	// Tag → Get Contacts
	row('tag By ID upper case', base.tagContacts, { tag: { __rl: true, mode: 'id', value: ID.toUpperCase() } }, 'Tag', ID_RULE),
	row('tag By ID 24 characters', base.tagContacts, { tag: { __rl: true, mode: 'id', value: ID.slice(0, 24) } }, 'Tag', ID_RULE),
	row('tag By ID given a name', base.tagContacts, { tag: { __rl: true, mode: 'id', value: 'VIP' } }, 'Tag', ID_RULE),
	row('tag By Name 256 characters', base.tagContacts, { tag: { __rl: true, mode: 'name', value: long(256) } }, 'Tag', /must be 1-255 characters/),
	row('tag empty', base.tagContacts, { tag: { __rl: true, mode: 'name', value: '' } }, 'Tag', /give the tag's ID \(By ID\) or its exact name \(By Name\)/),
	row('former Tag ID parameter upper case', base.tagContacts, { tag: { __rl: true, mode: 'id', value: '' }, tagId: ID.toUpperCase() }, 'Tag', ID_RULE),
	row('limit 0', base.tagContacts, { limit: 0 }, 'Limit', LIMIT),
	row('limit from ={{ 2.5 }}', base.tagContacts, { limit: '={{ 2.5 }}' }, 'Limit', LIMIT),
	row('limit from ={{ "ten" }}', base.tagContacts, { limit: '={{ "ten" }}' }, 'Limit', LIMIT),

	// Automation → Update
	row('trigger ID from ={{ {a:1} }}', base.automationUpdate, { automationTriggerId: '={{ { a: 1 } }}' }, 'Automation Trigger ID', TEXT),
	row('trigger name empty', updateTrigger({ name: '' }), {}, 'Name', REQUIRED),
	row('trigger description 256', updateTrigger({ description: long(256) }), {}, 'Description', /must be 1-255 characters, got 256/),
	row('specific message missing for RECEIVE_SPECIFIC_MESSAGE', updateTrigger({ triggerType: 'RECEIVE_SPECIFIC_MESSAGE', specificMessage: '' }), {}, 'Specific Message', /required when Trigger Type is RECEIVE_SPECIFIC_MESSAGE/),
	row('tag ID missing for ADD_TAG_TO_CONTACT', updateTrigger({ triggerType: 'ADD_TAG_TO_CONTACT', tagId: '' }), {}, 'Tag ID', /required when Trigger Type is ADD_TAG_TO_CONTACT or REMOVE_TAG_FROM_CONTACT/),
	row('tag ID not an ID for REMOVE_TAG_FROM_CONTACT', updateTrigger({ triggerType: 'REMOVE_TAG_FROM_CONTACT', tagId: 'vip' }), {}, 'Tag ID', ID_RULE),
	row('trigger type unknown', updateTrigger({ triggerType: 'ON_FULL_MOON' }), {}, 'Trigger Type', ONE_OF),
	row('chat type lower case', updateTrigger({ chatType: '={{ "contact" }}' }), {}, 'Chat Type', ONE_OF),
	row('transfer type unknown', updateTrigger({ transferType: '={{ "EVERYONE" }}' }), {}, 'Transfer Type', ONE_OF),
	// The spec gives the trigger's delay no lower bound (only the webhook's, >= 0; see Webhook below).
	row('delay minutes 2^60 (not a safe integer)', updateTrigger({ delayMinutes: '={{ 2 ** 60 }}' }), {}, 'Delay Minutes', /must be a whole number/),
	row('delay minutes from ={{ NaN }}', updateTrigger({ delayMinutes: '={{ NaN }}' }), {}, 'Delay Minutes', /must be a whole number/),
	row('in attendance from ={{ 1 }}', updateTrigger({ inAttendance: '={{ 1 }}' }), {}, 'In Attendance Only', BOOLEAN),
	row('move to queue from ={{ null }}', updateTrigger({ moveToQueue: '={{ null }}' }), {}, 'Move to Queue', REQUIRED),
	row('integrations from ={{ {a:1} }}', updateTrigger({ integrations: '={{ { a: 1 } }}' }), {}, 'Integration Names or IDs', /must be a list of text values/),
	row('integration entry not an ID', updateTrigger({ integrations: [WHATSAPP, 'whatsapp'] }), {}, 'Integration Names or IDs', /entry 2 must be an ID/),
	row('bot ID not an ID', updateTrigger({ automationBotId: 'bot-1' }), {}, 'Automation Bot ID', ID_RULE),

	// Automation → Delete
	row('trigger ID from ={{ 12345 }}', base.automationDelete, { automationTriggerId: '={{ 12345 }}' }, 'Automation Trigger ID', ID_RULE),
	row('trigger ID empty', base.automationDelete, { automationTriggerId: '' }, 'Automation Trigger ID', REQUIRED),

	// Automation → Stop in Chat
	row('none of chat internal ID, chat ID, phone', base.stopInChat, { chatInternalId: '' }, 'Chat, Channel Chat ID or Phone Number', /give at least one of them/),
	row('stop: phone 3 characters', base.stopInChat, { chatInternalId: '', phoneNumber: '123' }, 'Phone Number', PHONE_LENGTH),
	row('stop: chat internal ID not an ID', base.stopInChat, { chatInternalId: 'chat-1' }, 'Chat', ID_RULE),
	row('stop: chat ID from ={{ {a:1} }}', base.stopInChat, { chatInternalId: '', chatId: '={{ { a: 1 } }}' }, 'Channel Chat ID', TEXT),
	row('stop: integration ID not an ID', base.stopInChat, { additionalFields: { integrationId: 'line-1' } }, 'Integration', ID_RULE),

	// Bot Integration → Create
	row('bot URL without bot id', base.botCreate, { url: 'https://bots.example.com/api/v1/bots/' }, 'URL', /\{origin\}\/api\/v1\/bots\/\{botId\}/),
	row('bot URL with a query', base.botCreate, { url: 'https://bots.example.com/api/v1/bots/x?y=1' }, 'URL', /\{origin\}\/api\/v1\/bots\/\{botId\}/),
	row('bot URL ftp', base.botCreate, { url: 'ftp://bots.example.com/api/v1/bots/x' }, 'URL', /absolute http\(s\) URL/),
	row('bot name empty', base.botCreate, { name: '' }, 'Name', REQUIRED),
	row('bot URL from ={{ {a:1} }}', base.botCreate, { url: '={{ { a: 1 } }}' }, 'URL', TEXT),

	// Integration → Get Many / Disconnect / Delete / Validate Phone Number
	row('integrations limit -5', base.integrationList, { limit: -5 }, 'Limit', LIMIT),
	row('disconnect: integration ID blank', base.integrationDisconnect, { integrationId: '   ' }, 'Integration', REQUIRED),
	row('delete: integration ID upper case', base.integrationDelete, { integrationId: WHATSAPP.toUpperCase() }, 'Integration', ID_RULE),
	row('validate: integration ID not an ID', base.validatePhone, { integrationId: 'whatsapp' }, 'Integration', ID_RULE),
	row('validate: phone from ={{ {a:1} }}', base.validatePhone, { phoneNumber: '={{ { a: 1 } }}' }, 'Phone Number', TEXT),
	row('validate: phone empty', base.validatePhone, { phoneNumber: '' }, 'Phone Number', REQUIRED),

	// Webhook → Create
	row('webhook URL not a URL', base.webhookCreate, { url: 'not a url' }, 'URL', /absolute http\(s\) URL/),
	row('webhook URL javascript:', base.webhookCreate, { url: 'javascript:alert(1)' }, 'URL', /absolute http\(s\) URL/),
	row('webhook URL relative', base.webhookCreate, { url: '/hooks/inbox' }, 'URL', /absolute http\(s\) URL/),
	row('webhook event type unknown', base.webhookCreate, { type: '={{ "MESSAGE_DELETED" }}' }, 'Event Type', ONE_OF),
	row('webhook method lower case', base.webhookCreate, { method: '={{ "post" }}' }, 'Method', ONE_OF),
	row('webhook delay -1', base.webhookCreate, { additionalFields: { delayMinutes: -1 } }, 'Delay Minutes', /whole number of 0 or more/),
	row('webhook delay from ={{ "1.5" }}', base.webhookCreate, { additionalFields: { delayMinutes: '={{ "1.5" }}' } }, 'Delay Minutes', /whole number of 0 or more/),
	row('webhook transfer type unknown', base.webhookCreate, { additionalFields: { transferType: '={{ "NOBODY" }}' } }, 'Transfer Type', ONE_OF),
	row('webhook integration ID from ={{ 12345 }}', base.webhookCreate, { integrationId: '={{ 12345 }}' }, 'Integration', ID_RULE),

	// Template → Get Many
	row('templates: integration ID empty', base.templateList, { integrationId: '' }, 'Integration', REQUIRED),
	row('templates: search 256 characters', base.templateList, { filters: { search: long(256) } }, 'Search', /at most 255 characters, got 256/),
	row('templates: status lower case', base.templateList, { filters: { status: '={{ "approved" }}' } }, 'Status', ONE_OF),
	row('templates: search from ={{ {a:1} }}', base.templateList, { filters: { search: '={{ { a: 1 } }}' } }, 'Search', TEXT),
	row('templates: limit from ={{ [] }}', base.templateList, { limit: '={{ [] }}' }, 'Limit', LIMIT),

	// Group → Get Invite URL
	row('group JID of a contact', base.groupInvite, { groupJid: '5511987650001@s.whatsapp.net' }, 'Group JID', /ending in @g.us/),
	row('webhook header without a name', base.webhookCreate, { additionalFields: { headers: { header: [{ key: ' ', value: '1' }] } } }, 'Headers', /entry 1 needs a header name/),
	row('group JID only the suffix', base.groupInvite, { groupJid: '@g.us' }, 'Group JID', /ending in @g.us/),
	row('group: integration ID not an ID', base.groupInvite, { integrationId: 'c123' }, 'Integration', ID_RULE),

	// Custom Field → Get / Create or Update
	row('custom fields: phone 7 characters', base.customFieldGet, { phoneNumber: '5511987' }, 'Phone Number', PHONE_LENGTH),
	row('custom fields: a LID where only numbers are allowed', base.customFieldGet, { phoneNumber: DEMO.contacts.lid.lid }, 'Phone Number', /must be a phone number/),
	row('custom fields: phone from ={{ [1, 2] }}', base.customFieldGet, { phoneNumber: '={{ [1, 2] }}' }, 'Phone Number', TEXT),
	row('upsert: value malformed JSON (Value Type JSON)', base.customFieldUpsert, { inputs: { templateField: [{ templateFieldId: DEMO.customFields.profile.fields.plan, valueType: 'json', value: '{"a":' }] } }, 'Value of input 1', JSON_RULE),
	row('upsert: value not a number (Value Type Number)', base.customFieldUpsert, { inputs: { templateField: [{ templateFieldId: DEMO.customFields.profile.fields.plan, valueType: 'number', value: '12a' }] } }, 'Value of input 1', /must be a number/),
	row('upsert: value not true/false (Value Type Boolean)', base.customFieldUpsert, { inputs: { templateField: [{ templateFieldId: DEMO.customFields.profile.fields.plan, valueType: 'boolean', value: 'yes' }] } }, 'Value of input 1', /must be true or false/),
	row('upsert: template field ID empty', base.customFieldUpsert, { inputs: { templateField: [{ templateFieldId: '', value: '1' }] } }, 'Template Field ID of input 1', REQUIRED),
	row('upsert: phone 5 digits', base.customFieldUpsert, { phoneNumber: '12345' }, 'Phone Number', PHONE_LENGTH),
	row('upsert: extra field inputs a JSON text', base.customFieldUpsert, { inputs: {}, additionalFields: { extraFieldInputs: '"text"' } }, 'Extra Field Inputs', /JSON list of objects/),
	row('upsert: extra field inputs with a number', base.customFieldUpsert, { inputs: {}, additionalFields: { extraFieldInputs: '[{"key":"a","valueJson":1}, 2]' } }, 'Extra Field Inputs', /JSON list of objects/),
	row('upsert: extra field inputs malformed JSON', base.customFieldUpsert, { inputs: {}, additionalFields: { extraFieldInputs: '[{' } }, 'Extra Field Inputs', JSON_RULE),
	row('upsert: no inputs at all', base.customFieldUpsert, { inputs: {} }, 'Template Field Inputs', /add at least one template field input or extra field input/),
	row('upsert: phone empty', base.customFieldUpsert, { phoneNumber: '' }, 'Phone Number', REQUIRED),

	// Chat → Get Many
	row('chats: category unknown', base.chatList, { category: '={{ "archived" }}' }, 'Category', ONE_OF),
	row('chats: attendants with category queue', base.chatList, { category: 'queue', filters: { attendantIds: [DEMO.users.ana.id] } }, 'Attendant Names or IDs', /only be used with Category attendance or pinned/),
	row('chats: integration filter not IDs', base.chatList, { filters: { integrationIds: 'whatsapp' } }, 'Integration Names or IDs', /entry 1 must be an ID/),
	row('chats: tag filter from ={{ [123] }}', base.chatList, { filters: { tagIds: '={{ [123] }}' } }, 'Tag IDs', /entry 1 must be an ID/),
	row('chats: limit 0', base.chatList, { limit: 0 }, 'Limit', LIMIT),
	row('chats: extra query parameter without a name', base.chatList, { options: { extraQueryParameters: { parameter: [{ name: '', value: 'x' }] } } }, 'Extra Query Parameters', /entry 1 needs a name/),

	// Message → Get Many
	row('messages: chat internal ID empty', base.messageList, { chatInternalId: '' }, 'Chat', REQUIRED),
	row('messages: chat internal ID from ={{ {a:1} }}', base.messageList, { chatInternalId: '={{ { a: 1 } }}' }, 'Chat', TEXT),
	row('messages: limit from ={{ null }}', base.messageList, { limit: '={{ null }}' }, 'Limit', LIMIT),

	// User → Get Many
	row('users: limit -1', base.userList, { limit: -1 }, 'Limit', LIMIT),
	row('users: limit from ={{ true }}', base.userList, { limit: '={{ true }}' }, 'Limit', LIMIT),
];

const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

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
		expectNamed(error.message, bad.field, undefined, bad.rule);
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
