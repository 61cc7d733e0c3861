import { DEMO } from '../index';
import { ID, ISO, expectError, useSandbox } from './helpers';

const { api, sandbox } = useSandbox();
const T = DEMO.triggers;
const C = DEMO.chats;

describe('POST /automation/edit', () => {
	const full = {
		automationTriggerId: T.firstMessage.id,
		name: 'Welcome v2',
		description: 'Greets new contacts',
		triggerType: 'REMOVE_TAG_FROM_CONTACT',
		automationBotId: DEMO.bots.welcome.id,
		integrations: [DEMO.integrations.whatsapp.id],
		chatType: 'GROUP',
		tagId: DEMO.tags.customer.id,
		inAttendance: true,
		delayMinutes: 15,
		transferType: 'AUTOMATION_AND_API',
		moveToQueue: true,
	};

	it('replaces the trigger with every field given and returns it in data.trigger', async () => {
		const r = await api().post('/automation/edit', full);
		expect(r.status).toBe(200);
		const { automationTriggerId, ...fields } = full;
		expect(r.body.data.trigger).toMatchObject({ ...fields, id: automationTriggerId, specificMessage: null, updatedAt: expect.stringMatching(ISO) });
		expect(sandbox().state.triggers.get(T.firstMessage.id)).toMatchObject(fields);
	});

	it('keeps stored fields not given, and clears what the new type does not use', async () => {
		const r = await api().post('/automation/edit', { automationTriggerId: T.removeVip.id, triggerType: 'RECEIVE_SPECIFIC_MESSAGE', specificMessage: 'price?' });
		expect(r.body.data.trigger).toMatchObject({ name: T.removeVip.name, triggerType: 'RECEIVE_SPECIFIC_MESSAGE', specificMessage: 'price?', tagId: null });
	});

	it.each([
		['automationTriggerId is required', { name: 'x' }],
		['automationTriggerId must be an id matching ^c[a-z0-9]{24}$', { automationTriggerId: 'C'.repeat(25) }],
		['specificMessage is required when triggerType is RECEIVE_SPECIFIC_MESSAGE', { automationTriggerId: T.firstMessage.id, triggerType: 'RECEIVE_SPECIFIC_MESSAGE' }],
		['tagId is required when triggerType is ADD_TAG_TO_CONTACT', { automationTriggerId: T.firstMessage.id, triggerType: 'ADD_TAG_TO_CONTACT' }],
		['tagId is required when triggerType is REMOVE_TAG_FROM_CONTACT', { automationTriggerId: T.firstMessage.id, triggerType: 'REMOVE_TAG_FROM_CONTACT' }],
		['name must be 1-255 characters', { automationTriggerId: T.firstMessage.id, name: '' }],
		['description must be 1-255 characters', { automationTriggerId: T.firstMessage.id, description: 'd'.repeat(256) }],
		['triggerType must be one of RECEIVE_ANY_MESSAGE, RECEIVE_FIRST_MESSAGE', { automationTriggerId: T.firstMessage.id, triggerType: 'ON_MESSAGE' }],
		['chatType must be one of CONTACT, GROUP, ALL', { automationTriggerId: T.firstMessage.id, chatType: 'contact' }],
		['transferType must be one of ALL, USER, AUTOMATION, API, AUTOMATION_AND_API', { automationTriggerId: T.firstMessage.id, transferType: 'BOT' }],
		['automationBotId must be an id', { automationTriggerId: T.firstMessage.id, automationBotId: 'bot-1' }],
		['integrations must be an array', { automationTriggerId: T.firstMessage.id, integrations: DEMO.integrations.whatsapp.id }],
		['integrations[1] must be an id', { automationTriggerId: T.firstMessage.id, integrations: [DEMO.integrations.whatsapp.id, 'x'] }],
		['tagId must be an id', { automationTriggerId: T.firstMessage.id, tagId: 'VIP' }],
		['inAttendance must be a boolean', { automationTriggerId: T.firstMessage.id, inAttendance: 'true' }],
		['moveToQueue must be a boolean', { automationTriggerId: T.firstMessage.id, moveToQueue: 1 }],
		// The spec gives the trigger's delay no lower bound: only integers are required (issue 12).
		['delayMinutes must be an integer', { automationTriggerId: T.firstMessage.id, delayMinutes: 1.5 }],
		['delayMinutes must be an integer', { automationTriggerId: T.firstMessage.id, delayMinutes: '5' }],
		['specificMessage must be', { automationTriggerId: T.firstMessage.id, triggerType: 'RECEIVE_SPECIFIC_MESSAGE', specificMessage: '' }],
	])('400: %s', async (message, body) => {
		expectError(await api().post('/automation/edit', body), 400, message);
		expect(sandbox().state.triggers.get(T.firstMessage.id)?.name).toBe(T.firstMessage.name);
	});

	it.each([
		['automationTriggerId', { automationTriggerId: 'c'.repeat(25) }],
		['automationBotId', { automationTriggerId: T.firstMessage.id, automationBotId: 'c'.repeat(25) }],
		['integrations[0]', { automationTriggerId: T.firstMessage.id, integrations: ['c'.repeat(25)] }],
		['tagId', { automationTriggerId: T.firstMessage.id, triggerType: 'ADD_TAG_TO_CONTACT', tagId: 'c'.repeat(25) }],
	])('404 for an unknown %s', async (field, body) => {
		expectError(await api().post('/automation/edit', body), 404, field);
	});
});

describe('POST /automation/delete', () => {
	it('deletes a trigger; it is gone afterwards (404)', async () => {
		const r = await api().post('/automation/delete', { automationTriggerId: T.webhook.id });
		expect(r.status).toBe(200);
		expect(r.body).toEqual({ success: true });
		expect(sandbox().state.triggers.has(T.webhook.id)).toBe(false);
		expectError(await api().post('/automation/delete', { automationTriggerId: T.webhook.id }), 404, 'automationTriggerId');
		expectError(await api().post('/automation/edit', { automationTriggerId: T.webhook.id, name: 'x' }), 404, 'automationTriggerId');
	});

	it('400 on a missing or malformed id', async () => {
		expectError(await api().post('/automation/delete', {}), 400, 'automationTriggerId is required');
		expectError(await api().post('/automation/delete', { automationTriggerId: 12 }), 400, 'automationTriggerId must be a string');
	});
});

describe('POST /automation/stop-automation-in-chat', () => {
	const stop = (body: object) => api().post('/automation/stop-automation-in-chat', body);

	it('stops a bot flow by chatInternalId and reports it as BOT; a second call finds nothing active', async () => {
		const r = await stop({ chatInternalId: C.botFlow.id });
		expect(r.status).toBe(200);
		expect(r.body.message).toMatch(/stopped/i);
		expect(r.body.data).toEqual({
			stopped: true,
			chat: { chatInternalId: C.botFlow.id, chatId: C.botFlow.chatId, name: DEMO.contacts.botFlow.name, integrationId: DEMO.integrations.whatsapp.id },
			automations: [{ type: 'BOT', id: T.anyMessage.id, name: T.anyMessage.name, sessionId: expect.stringMatching(ID) }],
		});
		const again = await stop({ chatInternalId: C.botFlow.id });
		expect(again.body.success).toBe(true);
		expect(again.body.data).toMatchObject({ stopped: false, automations: [] });
		expect(again.body.message).toMatch(/no active automation/i);
	});

	it('reports a system automation as SYSTEM (by chatId)', async () => {
		const r = await stop({ chatId: C.systemAutomation.chatId });
		expect(r.body.data.automations).toEqual([expect.objectContaining({ type: 'SYSTEM', id: T.firstMessage.id })]);
		expect(sandbox().state.chats.get(C.systemAutomation.id)?.automations).toEqual([]);
	});

	it('by phone number picks the chat with the most recent message; integrationId narrows', async () => {
		const phone = DEMO.contacts.twoLines.phoneNumber;
		const narrowed = await stop({ phoneNumber: phone, integrationId: DEMO.integrations.whatsapp.id });
		expect(narrowed.body.data.chat.chatInternalId).toBe(C.twoLinesWhatsapp.id);
		expect(narrowed.body.data.automations[0].type).toBe('BOT');
		const latest = await stop({ phoneNumber: phone });
		expect(latest.body.data.chat.chatInternalId).toBe(C.twoLinesOfficial.id);
		expect(latest.body.data.automations[0].type).toBe('SYSTEM');
	});

	it('matches the phone number approximately (digits only, without the country code)', async () => {
		const r = await stop({ phoneNumber: '(11) 98765-0004' });
		expect(r.body.data.chat.chatInternalId).toBe(C.botFlow.id);
		expect(r.body.data.stopped).toBe(true);
	});

	it('resolves a LID to its number', async () => {
		const r = await stop({ phoneNumber: DEMO.contacts.lid.lid });
		expect(r.body.data.chat.chatInternalId).toBe(C.lid.id);
	});

	it.each([
		['one of chatInternalId, chatId or phoneNumber is required', {}],
		['one of chatInternalId, chatId or phoneNumber is required', { integrationId: DEMO.integrations.whatsapp.id }],
		['chatInternalId must be an id', { chatInternalId: '123' }],
		['chatId must be', { chatId: '' }],
		['phoneNumber must be 8-30 characters', { phoneNumber: '1234567' }],
		['phoneNumber must be 8-30 characters', { phoneNumber: '1'.repeat(31) }],
		['integrationId must be an id', { chatId: C.alice.chatId, integrationId: 'wa' }],
	])('400: %s', async (message, body) => {
		expectError(await stop(body), 400, message);
	});

	it('404 when no chat matches or the integration is unknown', async () => {
		// "8-30, any format": a value without digits is read, and matches no chat.
		expectError(await stop({ phoneNumber: '+55-11-abc' }), 404, 'no chat');
		expectError(await stop({ chatInternalId: 'c'.repeat(25) }), 404, 'no chat');
		expectError(await stop({ phoneNumber: DEMO.unknownPhoneNumber }), 404, 'no chat');
		expectError(await stop({ chatInternalId: C.botFlow.id, integrationId: DEMO.integrations.official.id }), 404, 'no chat');
		expectError(await stop({ chatId: C.alice.chatId, integrationId: 'c'.repeat(25) }), 404, 'integrationId');
		expect(sandbox().state.chats.get(C.botFlow.id)?.automations).toHaveLength(1);
	});
});

describe('POST /automation/integration-bot/create', () => {
	it('creates a bot-flow integration wrapped in data.integrationBot', async () => {
		const r = await api().post('/automation/integration-bot/create', { name: 'Sales bot', url: 'https://bots.example.com:8443/api/v1/bots/sales-1' });
		expect(r.status).toBe(200);
		expect(r.body.data.integrationBot).toEqual({ id: expect.stringMatching(ID), name: 'Sales bot', createdAt: expect.stringMatching(ISO), updatedAt: expect.stringMatching(ISO) });
		expect(sandbox().state.bots.get(r.body.data.integrationBot.id)?.url).toBe('https://bots.example.com:8443/api/v1/bots/sales-1');
	});

	it.each([
		['name is required', { url: 'https://b.example.com/api/v1/bots/x' }],
		['name must be 1-255 characters', { name: '', url: 'https://b.example.com/api/v1/bots/x' }],
		['url is required', { name: 'b' }],
		['url must be an absolute http(s) URL', { name: 'b', url: '/api/v1/bots/x' }],
		['url must be an absolute http(s) URL', { name: 'b', url: 'ftp://b.example.com/api/v1/bots/x' }],
		['url must have the form {origin}/api/v1/bots/{botId}', { name: 'b', url: 'https://b.example.com/api/v1/bots/' }],
		['url must have the form {origin}/api/v1/bots/{botId}', { name: 'b', url: 'https://b.example.com/api/v2/bots/x' }],
		['url must have the form {origin}/api/v1/bots/{botId}', { name: 'b', url: 'https://b.example.com/x/api/v1/bots/x' }],
		['url must have the form {origin}/api/v1/bots/{botId}', { name: 'b', url: 'https://b.example.com/api/v1/bots/x/extra' }],
		['url must have the form {origin}/api/v1/bots/{botId}', { name: 'b', url: 'https://b.example.com/api/v1/bots/x?token=1' }],
	])('400: %s', async (message, body) => {
		expectError(await api().post('/automation/integration-bot/create', body), 400, message);
		expect(sandbox().state.bots.size).toBe(Object.keys(DEMO.bots).length);
	});
});
