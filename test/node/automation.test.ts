import { DEMO } from '../sandbox';
import { onlyRequest, runNode, useSandbox } from '../helpers/node-runner';

const ctx = useSandbox();

const fullTrigger = {
	resource: 'automation',
	operation: 'update',
	automationTriggerId: DEMO.triggers.anyMessage.id,
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

describe('automation update (POST /automation/edit)', () => {
	test('sends the whole trigger and returns data.trigger', async () => {
		const out = await runNode(ctx.sandbox, { parameters: fullTrigger });
		const request = onlyRequest(ctx.sandbox);
		expect(request.method).toBe('POST');
		expect(request.path).toBe('/v2/automation/edit');
		expect(request.query).toEqual({});
		expect(request.headers.authorization).toBe(`Bearer ${ctx.sandbox.token}`);
		expect(request.body).toEqual({
			automationTriggerId: DEMO.triggers.anyMessage.id,
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
		});
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

	test('defaults are sent too: chatType ALL, transferType ALL, delay 0, both switches false', async () => {
		await runNode(ctx.sandbox, {
			parameters: {
				resource: 'automation',
				operation: 'update',
				automationTriggerId: DEMO.triggers.firstMessage.id,
				name: 'Welcome',
				description: 'First contact',
				triggerType: 'RECEIVE_FIRST_MESSAGE',
			},
		});
		expect(onlyRequest(ctx.sandbox).body).toEqual({
			automationTriggerId: DEMO.triggers.firstMessage.id,
			name: 'Welcome',
			description: 'First contact',
			triggerType: 'RECEIVE_FIRST_MESSAGE',
			chatType: 'ALL',
			inAttendance: false,
			delayMinutes: 0,
			transferType: 'ALL',
			moveToQueue: false,
		});
	});

	test('RECEIVE_SPECIFIC_MESSAGE sends specificMessage (and no tagId)', async () => {
		await runNode(ctx.sandbox, {
			parameters: {
				...fullTrigger,
				triggerType: 'RECEIVE_SPECIFIC_MESSAGE',
				specificMessage: 'pricing',
				tagId: DEMO.tags.vip.id,
			},
		});
		const body = onlyRequest(ctx.sandbox).body as Record<string, unknown>;
		expect(body.specificMessage).toBe('pricing');
		expect(body).not.toHaveProperty('tagId');
		expect(ctx.sandbox.state.triggers.get(DEMO.triggers.anyMessage.id)?.specificMessage).toBe('pricing');
	});

	test.each(['ADD_TAG_TO_CONTACT', 'REMOVE_TAG_FROM_CONTACT'])(
		'%s sends tagId (and no specificMessage)',
		async (triggerType) => {
			await runNode(ctx.sandbox, {
				parameters: { ...fullTrigger, triggerType, tagId: DEMO.tags.vip.id, specificMessage: 'ignored' },
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
	test('by phone number narrowed by integration: returns data plus the API message', async () => {
		const out = await runNode(ctx.sandbox, {
			parameters: {
				resource: 'automation',
				operation: 'stopInChat',
				phoneNumber: DEMO.contacts.twoLines.phoneNumber,
				additionalFields: { integrationId: DEMO.integrations.whatsapp.id },
			},
		});
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

	test('by chat internal ID only; a chat with no automation says so', async () => {
		const out = await runNode(ctx.sandbox, {
			parameters: {
				resource: 'automation',
				operation: 'stopInChat',
				chatInternalId: DEMO.chats.alice.id,
			},
		});
		expect(onlyRequest(ctx.sandbox).body).toEqual({ chatInternalId: DEMO.chats.alice.id });
		expect(out[0].json).toMatchObject({ stopped: false, automations: [] });
		expect(out[0].json.message).toEqual(expect.stringContaining('no active automation'));
	});

	test('by channel chat ID', async () => {
		await runNode(ctx.sandbox, {
			parameters: { resource: 'automation', operation: 'stopInChat', chatId: DEMO.chats.botFlow.chatId },
		});
		expect(onlyRequest(ctx.sandbox).body).toEqual({ chatId: DEMO.chats.botFlow.chatId });
		expect(ctx.sandbox.state.chats.get(DEMO.chats.botFlow.id)?.automations).toEqual([]);
	});
});
