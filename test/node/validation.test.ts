import type { INodeParameters } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { DEMO } from '../sandbox';
import { runNode, runNodeError, useSandbox } from '../helpers/node-runner';
import { updateTrigger, VALID } from '../reliability/operations';

const ctx = useSandbox();

const ID = DEMO.tags.vip.id;
const long = (n: number): string => 'x'.repeat(n);

// The valid parameters the reliability suites use too; each test changes one field.
const removeTags = (extra: INodeParameters): INodeParameters => ({ ...VALID.tagRemove, ...extra });
const createWebhook = (extra: INodeParameters): INodeParameters => ({
	resource: 'webhook',
	operation: 'create',
	integrationId: DEMO.integrations.whatsapp.id,
	url: 'https://example.com/hook',
	...extra,
});

/**
 * [rule, parameters, expected message]: every message names the field (display name and API
 * name), the item and the rule.
 */
const cases: Array<[string, INodeParameters, string | RegExp]> = [
	[
		'<id> pattern',
		{ resource: 'automation', operation: 'delete', automationTriggerId: 'trigger-1' },
		'Invalid Automation Trigger ID: must be an ID: "c" followed by 24 lowercase letters or digits, got "trigger-1"',
	],
	[
		'<id> pattern (upper case)',
		{ resource: 'integration', operation: 'disconnect', integrationId: ID.toUpperCase() },
		/^Invalid Integration: must be an ID/,
	],
	[
		'required id',
		{ resource: 'template', operation: 'getAll', integrationId: '' },
		'Missing Integration: a value is required',
	],
	[
		'phone number at least 8 characters',
		removeTags({ phoneNumber: '12345' }),
		'Invalid Phone Number: must be 8-30 characters, got 5 characters',
	],
	[
		'phone number at most 30 characters',
		{ resource: 'customField', operation: 'get', phoneNumber: '5'.repeat(31) },
		'Invalid Phone Number: must be 8-30 characters, got 31 characters',
	],
	[
		'phone or LID form',
		removeTags({ phoneNumber: '5511999998888@s.whatsapp.net' }),
		'Invalid Phone Number: must be a phone number or a contact LID ending in @lid, like 123456789012345@lid, got "5511999998888@s.whatsapp.net"',
	],
	[
		'no LID where only a number is allowed',
		{ resource: 'customField', operation: 'get', phoneNumber: '123456789012345@lid' },
		/^Invalid Phone Number: must be a phone number/,
	],
	[
		'tag name required',
		{ resource: 'tag', operation: 'create', name: '' },
		'Missing Name: a value is required',
	],
	[
		'tag name at most 255 characters',
		{ resource: 'tag', operation: 'create', name: long(256) },
		'Invalid Name: must be 1-255 characters, got 256 characters',
	],
	[
		'tag colour #RRGGBB',
		{ resource: 'tag', operation: 'create', name: 'Red', additionalFields: { color: 'red' } },
		'Invalid Color: must be # followed by six hex digits, like #1A73E8, got "red"',
	],
	[
		'tag colour with 3 digits',
		{ resource: 'tag', operation: 'create', name: 'Red', additionalFields: { color: '#f00' } },
		/^Invalid Color: must be # followed by six hex digits/,
	],
	[
		'at most 50 tag IDs',
		removeTags({ tagIds: Array(51).fill(ID) }),
		'Invalid Tag IDs: must have at most 50 entries, got 51 entries',
	],
	[
		'tag IDs are IDs',
		removeTags({ tagIds: `${ID},not-an-id` }),
		'Invalid Tag IDs: entry 2 must be an ID: "c" followed by 24 lowercase letters or digits, got "not-an-id"',
	],
	[
		'at most 50 tag names',
		removeTags({ tagIds: [], tagNames: Array.from({ length: 51 }, (_, i) => `Tag ${i}`) }),
		'Invalid Tag Names: must have at most 50 entries, got 51 entries',
	],
	[
		'each tag name 1-255 characters',
		removeTags({ tagIds: [], tagNames: ['VIP', long(256)] }),
		'Invalid Tag Names: entry 2 must be 1-255 characters, got 256 characters',
	],
	[
		'tag IDs and/or tag names',
		removeTags({ tagIds: [], tagNames: [] }),
		'Missing Tag IDs or Tag Names: give at least one of them',
	],
	[
		'the Tag of the contact list (By ID or By Name)',
		{ resource: 'tag', operation: 'getContacts', returnAll: true },
		"Missing Tag: give the tag's ID (By ID) or its exact name (By Name)",
	],
	[
		'specific message for RECEIVE_SPECIFIC_MESSAGE',
		updateTrigger({ triggerType: 'RECEIVE_SPECIFIC_MESSAGE', specificMessage: '' }),
		'Missing Specific Message: required when Trigger Type is RECEIVE_SPECIFIC_MESSAGE',
	],
	[
		'tag ID for ADD_TAG_TO_CONTACT',
		updateTrigger({ triggerType: 'ADD_TAG_TO_CONTACT', tagId: '' }),
		'Missing Tag ID: required when Trigger Type is ADD_TAG_TO_CONTACT or REMOVE_TAG_FROM_CONTACT',
	],
	[
		'tag ID for REMOVE_TAG_FROM_CONTACT is an ID',
		updateTrigger({ triggerType: 'REMOVE_TAG_FROM_CONTACT', tagId: 'vip' }),
		/^Invalid Tag ID: must be an ID/,
	],
	[
		'trigger name 1-255',
		updateTrigger({ name: long(256) }),
		'Invalid Name: must be 1-255 characters, got 256 characters',
	],
	[
		'trigger description 1-255',
		updateTrigger({ description: long(300) }),
		'Invalid Description: must be 1-255 characters, got 300 characters',
	],
	[
		'integrations are IDs',
		updateTrigger({ integrations: ['whatsapp'] }),
		/^Invalid Integration Names or IDs: entry 1 must be an ID/,
	],
	[
		'delay minutes >= 0 (webhook; the spec gives the trigger\'s delay no bound)',
		createWebhook({ additionalFields: { delayMinutes: -1 } }),
		'Invalid Delay Minutes: must be a whole number of 0 or more, got -1',
	],
	[
		'delay minutes is whole',
		createWebhook({ additionalFields: { delayMinutes: 2.5 } }),
		'Invalid Delay Minutes: must be a whole number of 0 or more, got 2.5',
	],
	[
		'delay minutes from an expression must be a number',
		createWebhook({ additionalFields: { delayMinutes: '={{ "soon" }}' } }),
		'Invalid Delay Minutes: must be a whole number of 0 or more, got "soon"',
	],
	[
		'boolean from an expression',
		updateTrigger({ inAttendance: '={{ "yes" }}' }),
		'Invalid In Attendance Only: must be true or false, got "yes"',
	],
	[
		'text from an expression must not be an object',
		{ resource: 'tag', operation: 'create', name: '={{ { first: "a" } }}' },
		'Invalid Name: must be text, got an object',
	],
	[
		'one of chatInternalId, chatId, phoneNumber',
		{ resource: 'automation', operation: 'stopInChat', additionalFields: { integrationId: ID } },
		'Missing Chat, Channel Chat ID or Phone Number: give at least one of them',
	],
	[
		'stop in chat: phone 8-30',
		{ resource: 'automation', operation: 'stopInChat', phoneNumber: '1234' },
		'Invalid Phone Number: must be 8-30 characters, got 4 characters',
	],
	[
		'group JID ends in @g.us',
		{ resource: 'group', operation: 'getInviteUrl', integrationId: ID, groupJid: '5511999998888@s.whatsapp.net' },
		'Invalid Group JID: must be a group JID ending in @g.us, like 120363025246125486@g.us, got "5511999998888@s.whatsapp.net"',
	],
	[
		'Limit at least 1',
		{ resource: 'user', operation: 'getAll', limit: 0 },
		'Invalid Limit: must be a whole number of 1 or more, got 0',
	],
	[
		'Limit from an expression must be a number',
		{ resource: 'chat', operation: 'getAll', limit: '={{ "many" }}' },
		'Invalid Limit: must be a whole number of 1 or more, got "many"',
	],
	[
		'template search at most 255',
		{ resource: 'template', operation: 'getAll', integrationId: ID, filters: { search: long(256) } },
		'Invalid Search: must be at most 255 characters, got 256 characters',
	],
	[
		'template status enum',
		{ resource: 'template', operation: 'getAll', integrationId: ID, filters: { status: '={{ "LIVE" }}' } },
		'Invalid Status: must be one of APPROVED, PENDING, REJECTED, DISABLED, PAUSED, IN_APPEAL, PENDING_DELETION, got "LIVE"',
	],
	[
		'webhook event type enum',
		createWebhook({ type: '={{ "MESSAGE_DELETED" }}' }),
		/^Invalid Event Type: must be one of MESSAGE_SENT_AND_RECEIVED, .*got "MESSAGE_DELETED"$/,
	],
	[
		'webhook method enum',
		createWebhook({ method: '={{ "FETCH" }}' }),
		'Invalid Method: must be one of POST, GET, PUT, PATCH, DELETE, got "FETCH"',
	],
	[
		'chat category enum',
		{ resource: 'chat', operation: 'getAll', category: '={{ "archived" }}' },
		'Invalid Category: must be one of attendance, queue, groups, finalized, pinned, got "archived"',
	],
	[
		'attendant filter only for attendance and pinned',
		{ resource: 'chat', operation: 'getAll', category: 'queue', filters: { attendantIds: [DEMO.users.ana.id] } },
		'Invalid Attendant Names or IDs: can only be used with Category attendance or pinned, got Category queue',
	],
	[
		'chat integration filter holds IDs',
		{ resource: 'chat', operation: 'getAll', filters: { integrationIds: 'whatsapp' } },
		/^Invalid Integration Names or IDs: entry 1 must be an ID/,
	],
	[
		'webhook URL absolute http(s)',
		createWebhook({ url: 'example.com/hook' }),
		'Invalid URL: must be an absolute http(s) URL, like https://example.com/hook, got "example.com/hook"',
	],
	[
		'webhook URL not ftp',
		createWebhook({ url: 'ftp://example.com/hook' }),
		/^Invalid URL: must be an absolute http\(s\) URL/,
	],
	[
		'webhook header names are given',
		createWebhook({ additionalFields: { headers: { header: [{ key: '', value: 'x' }] } } }),
		/^Invalid Headers: entry 1 needs a header name/,
	],
	[
		'bot URL form {origin}/api/v1/bots/{botId}',
		{ resource: 'botIntegration', operation: 'create', name: 'Bot', url: 'https://bots.example.com/bots/sales' },
		'Invalid URL: must have the form {origin}/api/v1/bots/{botId}, like https://bots.example.com/api/v1/bots/sales-bot, got "https://bots.example.com/bots/sales"',
	],
	[
		'bot URL with a path before /api',
		{ resource: 'botIntegration', operation: 'create', name: 'Bot', url: 'https://x.example.com/a/api/v1/bots/b' },
		/^Invalid URL: must have the form \{origin\}\/api\/v1\/bots\/\{botId\}/,
	],
	[
		'custom field value with Value Type JSON is JSON; the error names the input as the user sees it',
		{
			resource: 'customField',
			operation: 'upsert',
			phoneNumber: DEMO.contacts.alice.phoneNumber,
			inputs: { templateField: [{ templateFieldId: 'f1', valueType: 'json', value: 'gold' }] },
		},
		/^Invalid Value of input 1: must be valid JSON/,
	],
	[
		'extra field inputs are a JSON list of objects',
		{
			resource: 'customField',
			operation: 'upsert',
			phoneNumber: DEMO.contacts.alice.phoneNumber,
			additionalFields: { extraFieldInputs: '[1, 2]' },
		},
		/^Invalid Extra Field Inputs: must be a JSON list of objects/,
	],
	[
		'custom fields need at least one input',
		{ resource: 'customField', operation: 'upsert', phoneNumber: DEMO.contacts.alice.phoneNumber },
		'Missing Template Field Inputs: add at least one template field input or extra field input',
	],
	[
		'extra body fields are a JSON object',
		{ resource: 'tag', operation: 'create', name: 'A', options: { extraBodyFields: '[1]' } },
		'Invalid Extra Body Fields: must be a JSON object, like {"field": "value"}, got a list of 1',
	],
	[
		'extra body fields parse',
		{ resource: 'tag', operation: 'create', name: 'A', options: { extraBodyFields: '{oops' } },
		/^Invalid Extra Body Fields: must be valid JSON/,
	],
	[
		'extra query parameters need a name',
		{
			resource: 'user',
			operation: 'getAll',
			options: { extraQueryParameters: { parameter: [{ name: ' ', value: '1' }] } },
		},
		'Invalid Extra Query Parameters: entry 1 needs a name',
	],
];

describe('validation before sending: NodeOperationError naming field, rule and item; no request', () => {
	test.each(cases)('%s', async (_rule, parameters, expected) => {
		const error = await runNodeError(ctx.sandbox, { parameters });
		if (typeof expected === 'string') expect(error.message).toBe(expected);
		else expect(error.message).toMatch(expected);
		// RoutingNode re-wraps errors from preSend in a NodeApiError (same message and description);
		// the NodeOperationError is its cause.
		const original = error instanceof NodeOperationError ? error : (error.cause as Error);
		expect(original).toBeInstanceOf(NodeOperationError);
		expect(original.message).toBe(error.message);
		expect((original as NodeOperationError).context.itemIndex).toBe(0);
		expect((error.context as { itemIndex: number }).itemIndex).toBe(0);
		expect(String(error.description)).toContain('Nothing was sent to the API');
		expect(ctx.sandbox.requests).toHaveLength(0);
	});

	test('the item is named: item 2 fails, items 0 and 1 are sent, item 2 is not', async () => {
		const error = await runNodeError(ctx.sandbox, {
			items: [
				{ phone: DEMO.contacts.alice.phoneNumber },
				{ phone: DEMO.contacts.lid.phoneNumber },
				{ phone: '12345' },
			],
			parameters: {
				resource: 'customField',
				operation: 'get',
				phoneNumber: '={{ $json.phone }}',
			},
		});
		expect(error.message).toBe(
			'Invalid Phone Number: must be 8-30 characters, got 5 characters [item 2]',
		);
		expect((error.context as { itemIndex: number }).itemIndex).toBe(2);
		expect(ctx.sandbox.requests.map((r) => r.query.phoneNumber).sort()).toEqual(
			[DEMO.contacts.alice.phoneNumber, DEMO.contacts.lid.phoneNumber].sort(),
		);
	});

	test('one item in: one sentence with the display name, the rule and the unit; no item number; the description says what to do', async () => {
		const error = await runNodeError(ctx.sandbox, {
			parameters: { resource: 'customField', operation: 'get', phoneNumber: '12345' },
		});
		expect(error.message).toBe('Invalid Phone Number: must be 8-30 characters, got 5 characters');
		expect(error.description).toBe('Give the number with country and area code, digits only, e.g. 5511987650001. Nothing was sent to the API.');
		expect(`${error.message} ${error.description}`).not.toMatch(/\bitems?\b|phoneNumber|count from/i);
		// n8n still learns the item from the options and shows it its own way.
		expect((error.context as { itemIndex: number }).itemIndex).toBe(0);
		expect(ctx.sandbox.requests).toHaveLength(0);
	});

	test('several items in: the first item is named too, counting from 0 as n8n does ([item 0])', async () => {
		const out = await runNode(ctx.sandbox, {
			continueOnFail: true,
			items: [{ phone: '12345' }, { phone: DEMO.contacts.alice.phoneNumber }],
			parameters: { resource: 'customField', operation: 'get', phoneNumber: '={{ $json.phone }}' },
		});
		expect(out[0].json.error).toBe('Invalid Phone Number: must be 8-30 characters, got 5 characters [item 0]');
		expect(out[0].json.description).toBe(
			'Give the number with country and area code, digits only, e.g. 5511987650001. Nothing was sent to the API for this item.',
		);
		expect(out[1].error).toBeUndefined();
		expect(ctx.sandbox.requests).toHaveLength(1);
	});

	test('under continueOnFail the error item carries the NodeOperationError itself', async () => {
		const out = await runNode(ctx.sandbox, {
			continueOnFail: true,
			parameters: { resource: 'tag', operation: 'create', name: long(256) },
		});
		expect(out).toHaveLength(1);
		expect(out[0].error).toBeInstanceOf(NodeOperationError);
		expect(out[0].json.error).toBe('Invalid Name: must be 1-255 characters, got 256 characters');
		expect(ctx.sandbox.requests).toHaveLength(0);
	});

	test('values are normalised before sending: spaces around IDs and phone numbers are trimmed', async () => {
		await runNode(ctx.sandbox, {
			parameters: removeTags({ phoneNumber: ` ${DEMO.contacts.alice.phoneNumber} `, tagIds: [` ${ID} `] }),
		});
		expect(ctx.sandbox.requests[0].body).toEqual({
			phoneNumber: DEMO.contacts.alice.phoneNumber,
			tagIds: [ID],
		});
	});

	test('numbers and booleans given as text by expressions are sent as JSON numbers and booleans', async () => {
		await runNode(ctx.sandbox, {
			parameters: updateTrigger({ delayMinutes: '={{ "7" }}', moveToQueue: '={{ "true" }}' }),
		});
		expect(ctx.sandbox.requests[0].body).toMatchObject({ delayMinutes: 7, moveToQueue: true });
	});
});
