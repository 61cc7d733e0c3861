/**
 * Every validation message leads to the fix (issue 26, item 3): for each kind of bad input, through
 * n8n-core's real RoutingNode against the sandbox, the error's message names field, rule and value,
 * its description says what to do next for THAT value, and no request reaches the API.
 * The rules themselves (every limit on every operation) are the table in
 * test/reliability/bad-input.test.ts; this table is about the next step.
 */
import type { INodeParameters } from 'n8n-workflow';
import { actionDescription } from '../helpers/action-node';

import { runNode, runNodeError, useSandbox } from '../helpers/node-runner';
import { updateTrigger, VALID } from '../reliability/operations';
import { DEMO } from '../sandbox';

const ctx = useSandbox();

const TAG = DEMO.tags.vip.id;
const SENT = 'Nothing was sent to the API.';

interface NextStep {
	name: string;
	parameters: INodeParameters;
	/** the whole message (a pattern where it quotes a message of Node.js) */
	message: string | RegExp;
	/** the description: what to do next (followed by "Nothing was sent to the API.") */
	fix: string;
}

const step = (name: string, parameters: INodeParameters, message: string | RegExp, fix: string): NextStep => ({
	name,
	parameters,
	message,
	fix,
});

const cases: NextStep[] = [
	// A name where an ID goes: pointed at the place for names.
	step(
		'a tag name typed into Tag IDs (Tag → Remove From Contact)',
		{ ...VALID.tagRemove, tagIds: ['VIP'] },
		'Invalid Tag IDs, value 1: must be an ID: "c" followed by 24 lowercase letters or digits, got "VIP"',
		'"VIP" looks like a name, not an ID; put tag names under Tag Names. IDs look like clx2v8k1h0000abcd1234efgh.',
	),
	step(
		'a tag name after a valid ID in Tag IDs: the entry is named',
		{ ...VALID.tagRemove, tagIds: `${TAG}, Cliente VIP` },
		'Invalid Tag IDs, value 2: must be an ID: "c" followed by 24 lowercase letters or digits, got "Cliente VIP"',
		'"Cliente VIP" looks like a name, not an ID; put tag names under Tag Names. IDs look like clx2v8k1h0000abcd1234efgh.',
	),
	step(
		'a tag name under Tag By ID (Tag → Get Contacts)',
		{ ...VALID.tagContacts, tag: { __rl: true, mode: 'id', value: 'VIP Customer' } },
		'Invalid Tag: must be an ID: "c" followed by 24 lowercase letters or digits, got "VIP Customer"',
		'"VIP Customer" looks like a name, not an ID; switch Tag to Name to give its name. IDs look like clx2v8k1h0000abcd1234efgh.',
	),
	step(
		'an integration name under Integration By ID (Integration → Delete)',
		{ ...VALID.integrationDelete, integrationId: { __rl: true, mode: 'id', value: 'WhatsApp Vendas' } },
		'Invalid Integration: must be an ID: "c" followed by 24 lowercase letters or digits, got "WhatsApp Vendas"',
		'"WhatsApp Vendas" looks like a name, not an ID; choose the integration From List to find it by its name. IDs look like clx2v8k1h0000abcd1234efgh.',
	),
	step(
		'a contact name under Chat By ID (Message → Get Many)',
		{ ...VALID.messageList, chatInternalId: { __rl: true, mode: 'id', value: 'Alice Souza' } },
		'Invalid Chat: must be an ID: "c" followed by 24 lowercase letters or digits, got "Alice Souza"',
		'"Alice Souza" looks like a name, not an ID; choose the chat From List and type the contact\'s name or number to find it. IDs look like clx2v8k1h0000abcd1234efgh.',
	),
	step(
		'an integration name in the Integration Names or IDs filter (Chat → Get Many)',
		{ ...VALID.chatList, filters: { integrationIds: '={{ ["WhatsApp Vendas"] }}' } },
		'Invalid Integration Names or IDs, value 1: must be an ID: "c" followed by 24 lowercase letters or digits, got "WhatsApp Vendas"',
		'"WhatsApp Vendas" looks like a name, not an ID; choose the integrations by name from the list. IDs look like clx2v8k1h0000abcd1234efgh.',
	),
	step(
		'an integration name in Integration Names or IDs (Automation → Update)',
		updateTrigger({ integrations: '={{ ["WhatsApp Vendas"] }}' }),
		'Invalid Integration Names or IDs, value 1: must be an ID: "c" followed by 24 lowercase letters or digits, got "WhatsApp Vendas"',
		'"WhatsApp Vendas" looks like a name, not an ID; choose the integrations by name from the list. IDs look like clx2v8k1h0000abcd1234efgh.',
	),
	step(
		'an ID field without a place for names (Automation → Delete)',
		{ ...VALID.automationDelete, automationTriggerId: 'Welcome flow' },
		'Invalid Automation Trigger ID: must be an ID: "c" followed by 24 lowercase letters or digits, got "Welcome flow"',
		'"Welcome flow" looks like a name, not an ID; give the ID instead. IDs look like clx2v8k1h0000abcd1234efgh.',
	),
	step(
		'an ID copied in upper case: copy it again',
		{ ...VALID.integrationDelete, integrationId: 'CLX2V8K1H0000ABCD1234EFGH' },
		'Invalid Integration: must be an ID: "c" followed by 24 lowercase letters or digits, got "CLX2V8K1H0000ABCD1234EFGH"',
		'Copy the ID again exactly as the platform shows it: "c" and 24 lowercase letters or digits, 25 characters in all (this one has 25), e.g. clx2v8k1h0000abcd1234efgh.',
	),
	step(
		'an ID cut short: copy it again, with its length',
		{ ...VALID.integrationDelete, integrationId: 'clx2v8k1h0000abcd1234' },
		'Invalid Integration: must be an ID: "c" followed by 24 lowercase letters or digits, got "clx2v8k1h0000abcd1234"',
		'Copy the ID again exactly as the platform shows it: "c" and 24 lowercase letters or digits, 25 characters in all (this one has 21), e.g. clx2v8k1h0000abcd1234efgh.',
	),

	// Phone numbers: the spec's rule (8-30 characters, any format) and nothing stricter.
	// Numbers: a decimal comma is written with a point.
	step(
		'a decimal comma in a Number value (Custom Field → Create or Update)',
		{
			...VALID.customFieldUpsert,
			inputs: { templateField: [{ templateFieldId: DEMO.customFields.profile.fields.plan, valueType: 'number', value: '7,5' }] },
		},
		'Invalid Value of input 1: must be a number (Value Type Number), got "7,5"',
		'Write the decimal with a point: "7.5", not "7,5" (the API reads JSON numbers).',
	),
	step(
		'a word in a Number value: digits, or Value Type Text',
		{
			...VALID.customFieldUpsert,
			inputs: { templateField: [{ templateFieldId: DEMO.customFields.profile.fields.plan, valueType: 'number', value: 'seven' }] },
		},
		'Invalid Value of input 1: must be a number (Value Type Number), got "seven"',
		'Give digits with an optional decimal point, e.g. 42 or 3.5, or choose Value Type Text to send it as text.',
	),

	step(
		'a word in a Boolean value',
		{
			...VALID.customFieldUpsert,
			inputs: { templateField: [{ templateFieldId: DEMO.customFields.profile.fields.plan, valueType: 'boolean', value: 'yes' }] },
		},
		'Invalid Value of input 1: must be true or false (Value Type Boolean), got "yes"',
		'Write true or false, or choose Value Type Text to send the word as text.',
	),
	step(
		'a template field input without its ID',
		{ ...VALID.customFieldUpsert, inputs: { templateField: [{ templateFieldId: ' ', value: 'gold' }] } },
		'Invalid Template Field ID of input 1: a value is required, got ""',
		'Fill in the Template Field ID of input 1, or remove the input.',
	),

	// Lengths, types, choices.
	step(
		'a name too long: shorten it, by how much',
		{ ...VALID.tagCreate, name: 'x'.repeat(300) },
		'Invalid Name: must be 1-255 characters, got 300 characters',
		'Shorten Name to 255 characters or fewer (it has 300) and run again.',
	),
	step(
		'a tag name entry too long (Tag Names)',
		{ ...VALID.tagRemove, tagIds: [], tagNames: ['VIP', 'y'.repeat(256)] },
		'Invalid Tag Names, value 2: must be 1-255 characters, got 256 characters',
		'Shorten value 2 of Tag Names to 255 characters or fewer (it has 256) and run again.',
	),
	step(
		'an expression giving an object where text goes',
		{ ...VALID.tagCreate, name: '={{ { first: "a" } }}' },
		'Invalid Name: must be text, got an object',
		'The expression in Name gives an object: map one text value instead, e.g. {{ $json.name }} rather than {{ $json }}.',
	),
	step(
		'a required field left empty',
		{ ...VALID.tagCreate, name: '' },
		'Missing Name: a value is required',
		'Fill in Name and run again.',
	),
	step(
		'neither of two alternative fields',
		{ ...VALID.tagRemove, tagIds: [], tagNames: [] },
		'Missing Tag IDs or Tag Names: give at least one of them',
		'The API needs at least one of these fields: fill in Tag IDs or Tag Names and run again.',
	),
	step(
		'too many entries: split over items',
		{ ...VALID.tagRemove, tagIds: Array(51).fill(TAG) },
		'Invalid Tag IDs: must have at most 50 values, got 51 values',
		'Remove values down to 50, or split them over several items (each item is one request).',
	),
	step(
		'a whole number given with a decimal comma',
		{ ...VALID.webhookCreate, additionalFields: { delayMinutes: '={{ "2,5" }}' } },
		'Invalid Delay Minutes: must be a whole number of 0 or more, got "2,5"',
		'Give Delay Minutes as digits only, without decimals, units or separators (e.g. 10).',
	),
	step(
		'a whole number below its minimum',
		{ ...VALID.webhookCreate, additionalFields: { delayMinutes: -1 } },
		'Invalid Delay Minutes: must be a whole number of 0 or more, got -1',
		'Use a whole number of 0 or more and run again.',
	),
	step(
		'a Limit of 0, or Return All',
		{ ...VALID.chatList, limit: 0 },
		'Invalid Limit: must be a whole number of 1 or more, got 0',
		'Use a whole number of 1 or more and run again.',
	),
	step(
		'an empty Limit: give one or switch Return All on',
		{ ...VALID.chatList, limit: '' },
		'Invalid Limit: must be a whole number of 1 or more, got ""',
		'Give Limit a number of 1 or more, or switch Return All on.',
	),
	step(
		'true/false given as a word',
		{ ...VALID.tagRemove, additionalFields: { triggerAutomations: '={{ "yes" }}' } },
		'Invalid Trigger Automations: must be true or false, got "yes"',
		'Switch Trigger Automations on or off, or map an expression that gives true or false (the texts "true" and "false" work too).',
	),
	step(
		'an option in the wrong case: the exact value is named',
		updateTrigger({ chatType: '={{ "contact" }}' }),
		'Invalid Chat Type: must be one of ALL, CONTACT, GROUP, got "contact"',
		'Write it exactly as CONTACT (the values are case-sensitive) and run again.',
	),
	step(
		'an option that does not exist',
		updateTrigger({ transferType: '={{ "EVERYONE" }}' }),
		'Invalid Transfer Type: must be one of ALL, USER, AUTOMATION, API, AUTOMATION_AND_API, got "EVERYONE"',
		'Choose Transfer Type from the list, or make the expression give one of these values exactly, and run again.',
	),
	step(
		'a colour as a word',
		{ ...VALID.tagCreate, additionalFields: { color: 'red' } },
		'Invalid Color: must be # followed by six hex digits, like #1A73E8, got "red"',
		'Pick the colour with the colour picker, or type # and six hex digits (a short form like #f00 is written #ff0000).',
	),
	step(
		'a URL without its scheme',
		{ ...VALID.webhookCreate, url: 'example.com/hook' },
		'Invalid URL: must be an absolute http(s) URL, like https://example.com/hook, got "example.com/hook"',
		'Give the full address, starting with https:// or http://, e.g. https://example.com/hook.',
	),
	step(
		'a bot URL of another form',
		{ ...VALID.botCreate, url: 'https://bots.example.com/sales' },
		'Invalid URL: must have the form {origin}/api/v1/bots/{botId}, like https://bots.example.com/api/v1/bots/sales-bot, got "https://bots.example.com/sales"',
		"Give the bot server's address followed by /api/v1/bots/ and the bot's ID, as the bot server shows it.",
	),
	step(
		'a group JID without @g.us',
		{ ...VALID.groupInvite, groupJid: '5511987650001@s.whatsapp.net' },
		'Invalid Group JID: must be a group JID ending in @g.us, like 120363025246125486@g.us, got "5511987650001@s.whatsapp.net"',
		"Copy the group's channel chat ID (it ends in @g.us) from Chat → Get Many with Category Groups.",
	),
	step(
		'attendants with a category that has none',
		{ ...VALID.chatList, category: 'queue', filters: { attendantIds: [DEMO.users.ana.id] } },
		'Invalid Attendant Names or IDs: can only be used with Category attendance or pinned, got Category queue',
		'Set Category to Attendance or Pinned, or remove Attendant Names or IDs from the Filters.',
	),
	step(
		'broken JSON in Extra Body Fields',
		{ ...VALID.tagCreate, options: { extraBodyFields: '{plan: gold}' } },
		/^Invalid Extra Body Fields: must be valid JSON \(text in double quotes, a number, true\/false, a list or an object\) - .+, got "\{plan: gold\}"$/,
		'Correct the JSON in Extra Body Fields: names and texts in double quotes, e.g. {"plan": "gold"}; a plain text value is "gold" with its quotes.',
	),
	step(
		'a list in Extra Body Fields',
		{ ...VALID.tagCreate, options: { extraBodyFields: '[1]' } },
		'Invalid Extra Body Fields: must be a JSON object, like {"field": "value"}, got a list of 1',
		'Put the fields to add between { and }, each as "name": value.',
	),
	step(
		'an extra query parameter without a name',
		{ ...VALID.chatList, options: { extraQueryParameters: { parameter: [{ name: ' ', value: '1' }] } } },
		'Invalid Extra Query Parameters: entry 1 needs a name',
		'Fill in the Name of entry 1, or remove the entry.',
	),
	step(
		'a rename with one name only',
		{ ...VALID.tagCreate, options: { renameFields: { field: [{ from: 'name', to: '' }] } } },
		'Invalid Rename Sent Fields: entry 1 needs both names',
		'Fill in both names of entry 1, or remove the entry.',
	),
	step(
		'a paging parameter name with a space',
		{ ...VALID.chatList, options: { offsetParameter: 'page offset' } },
		'Invalid Offset Parameter Name: must be a query parameter name without spaces, got "page offset"',
		'Give the name exactly as the API spells it (e.g. offset), or leave Offset Parameter Name empty for the assumed name.',
	),
];

describe('every validation message says what to do next; nothing is sent', () => {
	test.each(cases.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
		const error = await runNodeError(ctx.sandbox, { parameters: c.parameters });
		expect(error.message).toEqual(typeof c.message === 'string' ? c.message : expect.stringMatching(c.message));
		expect(error.description).toBe(`${c.fix} ${SENT}`);
		expect(ctx.sandbox.requests).toHaveLength(0);
	});
});

describe('phone numbers: what the hint says is what the check accepts and what is sent', () => {
	test('"+55 11 98765-0003" (spaces, dash, plus) passes and is sent exactly as typed', async () => {
		const typed = '+55 11 98765-0003';
		await runNode(ctx.sandbox, { parameters: { ...VALID.tagRemove, phoneNumber: typed } });
		expect(ctx.sandbox.requests).toHaveLength(1);
		expect(ctx.sandbox.requests[0].body).toEqual({ phoneNumber: typed, tagIds: [TAG] });
	});

	/** The words every phone field's check says (shared/checks.ts `phone`), written here from the spec. */
	const NUMBER_FIX = "Give the contact's number with country and area code, e.g. 5511987650001 or +55 11 98765-0001 (8-30 characters: digits, with an optional +, spaces, dashes, dots or parentheses)";

	test('a short number is refused in the spec\'s terms (8-30 characters), never "digits only"', async () => {
		const error = await runNodeError(ctx.sandbox, { parameters: { ...VALID.customFieldGet, phoneNumber: '+55 11' } });
		expect(error.message).toBe('Invalid Phone Number: must be 8-30 characters, got 6 characters');
		expect(error.description).toBe(`${NUMBER_FIX}. Nothing was sent to the API.`);
		expect(error.description).not.toMatch(/digits only/);
		expect(ctx.sandbox.requests).toHaveLength(0);
	});

	test('Remove From Contact adds the LID to the same words', async () => {
		const error = await runNodeError(ctx.sandbox, { parameters: { ...VALID.tagRemove, phoneNumber: '5511' } });
		expect(error.description).toBe(`${NUMBER_FIX}, or the contact's LID (ending in @lid). Nothing was sent to the API.`);
		expect(ctx.sandbox.requests).toHaveLength(0);
	});

	// Issue 43, row 5: every operation that takes a phone number checks it, in the same words.
	test.each([
		['Custom Field → Get', { ...VALID.customFieldGet }, 2, ''],
		['Custom Field → Create or Update', { ...VALID.customFieldUpsert }, 2, ''],
		['Validate Phone Number', { ...VALID.validatePhone }, 2, ''],
		['Remove From Contact', { ...VALID.tagRemove }, 2, ', or a contact LID ending in @lid, like 123456789012345@lid'],
		['Custom Field → Get, version 1', { ...VALID.customFieldGet }, 1, ''],
		['Validate Phone Number, version 1', { ...VALID.validatePhone }, 1, ''],
		['Stop in Chat, version 1', { resource: 'automation', operation: 'stopInChat' }, 1, ", or the contact's LID or JID (ending in @lid or @s.whatsapp.net)"],
	] as const)('%s: "Alice phone" is refused before sending, in the words of every phone field', async (_name, parameters, typeVersion, alternatives) => {
		const error = await runNodeError(ctx.sandbox, { parameters: { ...parameters, phoneNumber: 'Alice phone' }, typeVersion });
		expect(error.message).toBe(
			`Invalid Phone Number: must be a phone number with country and area code (at least 8 digits, with an optional +, spaces, dashes, dots or parentheses)${alternatives}, got "Alice phone"`,
		);
		expect(ctx.sandbox.requests).toHaveLength(0);
	});

	test('the edges of the one check: 8 digits pass, spaces around are dropped, a LID or JID must end the value', async () => {
		const sent = () => ctx.sandbox.requests.map((request) => (request.body as { phoneNumber?: string } | undefined)?.phoneNumber ?? request.query.phoneNumber);
		// Exactly 8 digits is a number (country and area code and the number are never fewer).
		await runNode(ctx.sandbox, { parameters: { ...VALID.customFieldGet, phoneNumber: '1234-5678' }, continueOnFail: true });
		// Spaces around a number or a LID are not part of it.
		await runNode(ctx.sandbox, { parameters: { ...VALID.customFieldGet, phoneNumber: '  5511987650001  ' }, continueOnFail: true });
		await runNode(ctx.sandbox, { parameters: { ...VALID.tagRemove, phoneNumber: ` ${DEMO.contacts.lid.lid} ` }, continueOnFail: true });
		expect(sent()).toEqual(['1234-5678', '5511987650001', DEMO.contacts.lid.lid]);
		// Something after the LID or JID, or before it with a space, is not one.
		for (const [parameters, value] of [
			[VALID.tagRemove, '123456789012345@lidx'],
			[VALID.tagRemove, 'a 123456789012345@lid'],
			[{ resource: 'automation', operation: 'stopInChat' }, '5511987650001@s.whatsapp.netx'],
			[{ resource: 'automation', operation: 'stopInChat' }, 'a 5511987650001@s.whatsapp.net'],
		] as const) {
			const error = await runNodeError(ctx.sandbox, { parameters: { ...parameters, phoneNumber: value }, typeVersion: parameters.resource === 'automation' ? 1 : 2 });
			expect(error.message).toMatch(/^Invalid Phone Number: must be a phone number with country and area code/);
		}
		expect(sent()).toHaveLength(3);
	});

	test('an ID pasted with spaces around it is the ID: sent without them', async () => {
		const id = VALID.automationDelete.automationTriggerId;
		await runNode(ctx.sandbox, { parameters: { ...VALID.automationDelete, automationTriggerId: `  ${id} ` } });
		expect(ctx.sandbox.requests.map((request) => request.body)).toEqual([{ automationTriggerId: id }]);
	});

	test('Stop in Chat, version 2: the Chat field in mode Phone says the same words under its own name', async () => {
		const error = await runNodeError(ctx.sandbox, {
			parameters: { resource: 'automation', operation: 'stopInChat', chat: { __rl: true, mode: 'phoneNumber', value: 'Alice phone' } },
		});
		expect(error.message).toBe(
			'Invalid Chat (Phone): must be a phone number with country and area code (at least 8 digits, with an optional +, spaces, dashes, dots or parentheses), or the contact\'s LID or JID (ending in @lid or @s.whatsapp.net), got "Alice phone"',
		);
		expect(error.description).toBe(`${NUMBER_FIX}, or the contact's LID or JID (ending in @lid or @s.whatsapp.net). Nothing was sent to the API.`);
		expect(ctx.sandbox.requests).toHaveLength(0);
	});
});

describe('the Phone Number texts say what the checks accept, and nothing stricter', () => {
	// One Phone Number property per version for every operation that takes one (helpers/sharing.ts:
	// n8n evaluates each property per item), so its texts speak for all of them.
	const phoneFields = (version: number) => actionDescription(version).properties.filter((p) => p.name === 'phoneNumber');

	test('version 2: one property, required, for each operation that takes a phone number (Stop in Chat has its own Chat field)', () => {
		expect(phoneFields(2)).toHaveLength(1);
		const [field] = phoneFields(2);
		expect(field.required).toBe(true);
		expect(field.displayOptions?.show?.resource).toEqual(['customField', 'integration', 'tag']);
		expect(field.displayOptions?.show?.operation).toEqual(['get', 'upsert', 'validatePhoneNumber', 'removeFromContact']);
	});

	test('version 1: one property, shared with Stop in Chat, where it is optional: not marked required', () => {
		expect(phoneFields(1)).toHaveLength(1);
		const [field] = phoneFields(1);
		expect(field.required).toBeUndefined();
		expect(field.displayOptions?.show?.operation).toEqual(['stopInChat', 'get', 'upsert', 'validatePhoneNumber', 'removeFromContact']);
	});

	test('the texts hold for every operation that shows them: no operation named, the forms and the length the checks take', () => {
		for (const version of [1, 2]) {
			const [field] = phoneFields(version);
			expect(field.hint).toBe('With country and area code: 5511987650001 and +55 11 98765-0001 both work.');
			expect(field.description).toBe("The contact's phone number with country and area code, 8-30 characters, e.g. 5511999998888 or +55 11 99999-8888");
			expect(`${field.hint} ${field.description}`).not.toMatch(/Stop in Chat|Remove From|Validate|Custom Field|digits only|8-30 digits/i);
		}
	});
});
