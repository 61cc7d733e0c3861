import type { INodeParameters } from 'n8n-workflow';

import { DEMO } from '../sandbox';
import { onlyRequest, runNode, runNodeError, useSandbox } from '../helpers/node-runner';

const ctx = useSandbox();

const updateFields = {
	name: 'Greet everybody',
	description: 'Says hello to every message',
	triggerType: 'RECEIVE_ANY_MESSAGE',
	automationBotId: DEMO.bots.faq.id,
	integrations: [DEMO.integrations.whatsapp.id, DEMO.integrations.official.id],
	chatType: 'CONTACT',
	inAttendance: true,
	delayMinutes: 5,
	transferType: 'AUTOMATION_AND_API',
	moveToQueue: true,
};
const fullTrigger = {
	resource: 'automation',
	operation: 'update',
	automationTriggerId: DEMO.triggers.anyMessage.id,
	updateFields,
};
const update = (automationTriggerId: string, fields: INodeParameters): INodeParameters => ({
	resource: 'automation',
	operation: 'update',
	automationTriggerId,
	updateFields: fields,
});

describe('automation update (POST /automation/edit)', () => {
	test('every field added under Update Fields is sent; returns data.trigger', async () => {
		const out = await runNode(ctx.sandbox, { parameters: fullTrigger });
		const request = onlyRequest(ctx.sandbox);
		expect(request.method).toBe('POST');
		expect(request.path).toBe('/v2/automation/edit');
		expect(request.query).toEqual({});
		expect(request.headers.authorization).toBe(`Bearer ${ctx.sandbox.token}`);
		// Each Update Field under its own name, with its value and type as given (no renames, no defaults).
		expect(request.body).toEqual({ automationTriggerId: DEMO.triggers.anyMessage.id, ...updateFields });
		expect(out).toHaveLength(1);
		expect(out[0].json).toMatchObject({
			id: DEMO.triggers.anyMessage.id,
			name: 'Greet everybody',
			chatType: 'CONTACT',
			transferType: 'AUTOMATION_AND_API',
			delayMinutes: 5,
		});
		expect(ctx.sandbox.state.triggers.get(DEMO.triggers.anyMessage.id)?.moveToQueue).toBe(true);
	});

	// Defect 1 of issue 12: a rename used to send triggerType RECEIVE_ANY_MESSAGE, chatType ALL, ...
	test('a rename sends only the ID and the name: a Specific Message trigger keeps its type and text', async () => {
		const id = DEMO.triggers.specificMessage.id;
		const before = { ...ctx.sandbox.state.triggers.get(id) };
		await runNode(ctx.sandbox, { parameters: update(id, { name: 'Pricing (renamed)' }) });
		expect(onlyRequest(ctx.sandbox).body).toEqual({ automationTriggerId: id, name: 'Pricing (renamed)' });
		expect(ctx.sandbox.state.triggers.get(id)).toEqual({
			...before,
			name: 'Pricing (renamed)',
			updatedAt: expect.any(String),
		});
		expect(ctx.sandbox.state.triggers.get(id)).toMatchObject({
			triggerType: 'RECEIVE_SPECIFIC_MESSAGE',
			specificMessage: 'pricing',
		});
	});

	test('only the ID: nothing else is sent (no defaults for untouched fields)', async () => {
		await runNode(ctx.sandbox, { parameters: update(DEMO.triggers.firstMessage.id, {}) });
		expect(onlyRequest(ctx.sandbox).body).toEqual({ automationTriggerId: DEMO.triggers.firstMessage.id });
	});

	// Issue 26: a beginner added Automation Bot ID and Integrations, left them empty, ran, and the
	// trigger lost its bot and its lines. Empty is refused; clearing is chosen under Fields to Clear.
	const CLEARABLE = [
		['Automation Bot ID', 'automationBotId', '', 'add an ID', null],
		['Integration Names or IDs', 'integrations', [] as string[], 'add at least one integration', []],
		['Specific Message', 'specificMessage', '', 'add the message text', null],
		['Tag ID', 'tagId', '', 'add an ID', null],
	] as const;

	test.each(CLEARABLE)('%s added but left empty is refused before sending, saying how to clear it', async (label, key, empty, give) => {
		const id = DEMO.triggers.anyMessage.id;
		const before = { ...ctx.sandbox.state.triggers.get(id) };
		const error = await runNodeError(ctx.sandbox, { parameters: update(id, { name: 'Renamed', [key]: empty as string | string[] }) });
		expect(error.message).toBe(`Missing ${label}: ${give}, or choose ${label} under Fields to Clear to remove it`);
		expect(error.description).toBe(
			`An empty field is not sent and clears nothing. To remove the setting, take ${label} out of Update Fields and choose it under Fields to Clear. Nothing was sent to the API.`,
		);
		expect(ctx.sandbox.requests).toHaveLength(0);
		expect(ctx.sandbox.state.triggers.get(id)).toEqual(before);
	});

	test.each(CLEARABLE)('%s chosen under Fields to Clear sends exactly its clearing value', async (_label, key, _empty, _give, clearing) => {
		const id = DEMO.triggers.anyMessage.id;
		await runNode(ctx.sandbox, { parameters: update(id, { fieldsToClear: [key] }) });
		expect(onlyRequest(ctx.sandbox)).toMatchObject({ status: 200, body: { automationTriggerId: id, [key]: clearing } });
		expect(Object.keys(onlyRequest(ctx.sandbox).body as object).sort()).toEqual(['automationTriggerId', key].sort());
	});

	test('clearing the bot and the integrations: the trigger then runs a system automation on no line', async () => {
		const id = DEMO.triggers.anyMessage.id;
		await runNode(ctx.sandbox, { parameters: update(id, { fieldsToClear: ['automationBotId', 'integrations'] }) });
		expect(onlyRequest(ctx.sandbox).body).toEqual({ automationTriggerId: id, automationBotId: null, integrations: [] });
		expect(ctx.sandbox.state.triggers.get(id)).toMatchObject({ integrations: [], automationBotId: null });
	});

	test('a field both given a value and chosen under Fields to Clear is refused', async () => {
		const error = await runNodeError(ctx.sandbox, {
			parameters: update(DEMO.triggers.anyMessage.id, { automationBotId: DEMO.bots.faq.id, fieldsToClear: ['automationBotId'] }),
		});
		expect(error.message).toBe('Invalid Fields to Clear: Automation Bot ID is both given a value and chosen to clear');
		expect(error.description).toMatch(/^Remove Automation Bot ID from Update Fields to clear it, or from Fields to Clear to set it\./);
		expect(ctx.sandbox.requests).toHaveLength(0);
	});

	test('Fields to Clear added with nothing chosen is refused', async () => {
		const error = await runNodeError(ctx.sandbox, { parameters: update(DEMO.triggers.anyMessage.id, { fieldsToClear: [] }) });
		expect(error.message).toBe('Missing Fields to Clear: choose the settings to clear, or remove Fields to Clear from Update Fields');
		expect(ctx.sandbox.requests).toHaveLength(0);
	});

	test('another field added but left empty is refused too (Name)', async () => {
		const error = await runNodeError(ctx.sandbox, { parameters: update(DEMO.triggers.anyMessage.id, { name: '' }) });
		expect(error.message).toBe('Missing Name: add a value, or remove Name from Update Fields');
		expect(ctx.sandbox.requests).toHaveLength(0);
	});

	test('version 1 (as saved with 0.1.0): an empty Automation Bot ID and no integrations are not sent, as 0.1.0 did', async () => {
		const id = DEMO.triggers.anyMessage.id;
		await runNode(ctx.sandbox, {
			typeVersion: 1,
			parameters: { resource: 'automation', operation: 'update', automationTriggerId: id, name: 'Renamed', description: 'Kept', automationBotId: '', integrations: [] },
		});
		expect(onlyRequest(ctx.sandbox).body).toEqual({
			automationTriggerId: id,
			name: 'Renamed',
			description: 'Kept',
			triggerType: 'RECEIVE_ANY_MESSAGE',
			chatType: 'ALL',
			inAttendance: false,
			delayMinutes: 0,
			transferType: 'ALL',
			moveToQueue: false,
		});
	});

	test('Trigger Type may come from an expression; its conditional field is then required', async () => {
		const id = DEMO.triggers.firstMessage.id;
		await runNode(ctx.sandbox, {
			parameters: update(id, { triggerType: '={{ "ADD_TAG_TO_CONTACT" }}', tagId: DEMO.tags.vip.id }),
		});
		expect(onlyRequest(ctx.sandbox).body).toEqual({
			automationTriggerId: id,
			triggerType: 'ADD_TAG_TO_CONTACT',
			tagId: DEMO.tags.vip.id,
		});
		ctx.sandbox.clearRequests();
		const error = await runNodeError(ctx.sandbox, {
			parameters: update(id, { triggerType: '={{ "RECEIVE_SPECIFIC_MESSAGE" }}' }),
		});
		expect(error.message).toMatch(/Specific Message: required when Trigger Type is Receive Specific Message/);
		expect(ctx.sandbox.requests).toHaveLength(0);
	});

	test('RECEIVE_SPECIFIC_MESSAGE sends specificMessage', async () => {
		await runNode(ctx.sandbox, {
			parameters: { ...fullTrigger, updateFields: { ...updateFields, triggerType: 'RECEIVE_SPECIFIC_MESSAGE', specificMessage: 'pricing' } },
		});
		const body = onlyRequest(ctx.sandbox).body as Record<string, unknown>;
		expect(body.specificMessage).toBe('pricing');
		expect(body).not.toHaveProperty('tagId');
		expect(ctx.sandbox.state.triggers.get(DEMO.triggers.anyMessage.id)?.specificMessage).toBe('pricing');
	});

	test.each(['ADD_TAG_TO_CONTACT', 'REMOVE_TAG_FROM_CONTACT'])(
		'%s sends tagId',
		async (triggerType) => {
			await runNode(ctx.sandbox, {
				parameters: { ...fullTrigger, updateFields: { ...updateFields, triggerType, tagId: DEMO.tags.vip.id } },
			});
			const body = onlyRequest(ctx.sandbox).body as Record<string, unknown>;
			expect(body.tagId).toBe(DEMO.tags.vip.id);
			expect(body).not.toHaveProperty('specificMessage');
		},
	);
});

describe('automation delete (POST /automation/delete)', () => {
	test('sends the id and returns { success: true, automationTriggerId }', async () => {
		const out = await runNode(ctx.sandbox, {
			parameters: {
				resource: 'automation',
				operation: 'delete',
				automationTriggerId: DEMO.triggers.webhook.id,
			},
		});
		const request = onlyRequest(ctx.sandbox);
		expect([request.method, request.path]).toEqual(['POST', '/v2/automation/delete']);
		expect(request.body).toEqual({ automationTriggerId: DEMO.triggers.webhook.id });
		expect(request.headers.authorization).toBe(`Bearer ${ctx.sandbox.token}`);
		expect(out.map((i) => i.json)).toEqual([
			{ success: true, automationTriggerId: DEMO.triggers.webhook.id },
		]);
		expect(ctx.sandbox.state.triggers.has(DEMO.triggers.webhook.id)).toBe(false);
	});
});

describe('automation stopInChat (POST /automation/stop-automation-in-chat)', () => {
	/**
	 * The chat by phone, by internal ID or by channel chat ID: version 2's one Chat field in the
	 * mode that says which; version 1's (0.1.0) three fields, one of them filled.
	 */
	const FIND = {
		phone: { v2: { chat: { __rl: true, mode: 'phoneNumber', value: DEMO.contacts.twoLines.phoneNumber } }, v1: { phoneNumber: DEMO.contacts.twoLines.phoneNumber } },
		id: { v2: { chat: { __rl: true, mode: 'id', value: DEMO.chats.alice.id } }, v1: { chatInternalId: DEMO.chats.alice.id } },
		list: { v2: { chat: { __rl: true, mode: 'list', value: DEMO.chats.alice.id } }, v1: { chatInternalId: { __rl: true, mode: 'list', value: DEMO.chats.alice.id } } },
		jid: { v2: { chat: { __rl: true, mode: 'jid', value: DEMO.chats.botFlow.chatId } }, v1: { chatId: DEMO.chats.botFlow.chatId } },
	} as const;
	const stop = (version: 1 | 2, how: keyof typeof FIND, more: INodeParameters = {}) => ({
		typeVersion: version,
		parameters: { resource: 'automation', operation: 'stopInChat', ...FIND[how][`v${version}`], ...more } as INodeParameters,
	});

	test.each([2, 1] as const)('version %s, by phone number narrowed by integration: returns data plus the API message', async (version) => {
		const out = await runNode(ctx.sandbox, stop(version, 'phone', { additionalFields: { integrationId: DEMO.integrations.whatsapp.id } }));
		const request = onlyRequest(ctx.sandbox);
		expect([request.method, request.path]).toEqual(['POST', '/v2/automation/stop-automation-in-chat']);
		expect(request.headers.authorization).toBe(`Bearer ${ctx.sandbox.token}`);
		// Empty optional fields are not sent.
		expect(request.body).toEqual({
			phoneNumber: DEMO.contacts.twoLines.phoneNumber,
			integrationId: DEMO.integrations.whatsapp.id,
		});
		expect(out).toHaveLength(1);
		expect(out[0].json).toMatchObject({
			stopped: true,
			chat: { chatInternalId: DEMO.chats.twoLinesWhatsapp.id },
			automations: [expect.objectContaining({ type: 'BOT' })],
			message: expect.any(String),
		});
	});

	test.each([[2, 'id'], [2, 'list'], [1, 'id'], [1, 'list']] as const)('version %s, by chat internal ID (%s) only; a chat with no automation says so', async (version, how) => {
		const out = await runNode(ctx.sandbox, stop(version, how));
		expect(onlyRequest(ctx.sandbox).body).toEqual({ chatInternalId: DEMO.chats.alice.id });
		expect(out[0].json).toMatchObject({ stopped: false, automations: [] });
		expect(out[0].json.message).toEqual(expect.stringContaining('no active automation'));
	});

	test.each([2, 1] as const)('version %s, by channel chat ID', async (version) => {
		await runNode(ctx.sandbox, stop(version, 'jid'));
		expect(onlyRequest(ctx.sandbox).body).toEqual({ chatId: DEMO.chats.botFlow.chatId });
		expect(ctx.sandbox.state.chats.get(DEMO.chats.botFlow.id)?.automations).toEqual([]);
	});

	test('version 1 (0.1.0) sends every chat identifier a saved workflow gives', async () => {
		await runNode(ctx.sandbox, { typeVersion: 1, parameters: { resource: 'automation', operation: 'stopInChat', chatInternalId: DEMO.chats.alice.id, phoneNumber: DEMO.contacts.alice.phoneNumber }, continueOnFail: true });
		expect(onlyRequest(ctx.sandbox).body).toEqual({ chatInternalId: DEMO.chats.alice.id, phoneNumber: DEMO.contacts.alice.phoneNumber });
	});

	test('version 2: an empty Chat, or a value its mode refuses, sends nothing and names the field and what to do', async () => {
		const empty = await runNodeError(ctx.sandbox, { parameters: { resource: 'automation', operation: 'stopInChat', chat: { __rl: true, mode: 'list', value: '' } } });
		expect(empty.message).toBe("Missing Chat: pick the chat, or give its internal ID, the contact's phone number or the chat's JID");
		const phoneAsId = await runNodeError(ctx.sandbox, stop(2, 'id', { chat: { __rl: true, mode: 'id', value: '5511987650001' } }));
		expect(phoneAsId.message).toBe('Invalid Chat: must be an ID: "c" followed by 24 lowercase letters or digits, got "5511987650001"');
		expect(phoneAsId.description).toMatch(/^"5511987650001" looks like a phone number, not an ID; switch Chat to From List to find it by name, or to Phone to give a number\./);
		const name = await runNodeError(ctx.sandbox, stop(2, 'phone', { chat: { __rl: true, mode: 'phoneNumber', value: 'Alice phone' } }));
		expect(name.message).toMatch(/^Invalid Chat \(Phone\): must be a phone number with country and area code \(at least 8 digits, with an optional \+, spaces, dashes, dots or parentheses\), or the contact's LID or JID/);
		expect(ctx.sandbox.requests).toEqual([]);
	});
});
