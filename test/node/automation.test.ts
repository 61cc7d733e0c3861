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

	test('Integrations and Automation Bot ID added but empty are sent as [] and null: they clear', async () => {
		const id = DEMO.triggers.anyMessage.id;
		await runNode(ctx.sandbox, { parameters: update(id, { integrations: [], automationBotId: '' }) });
		expect(onlyRequest(ctx.sandbox).body).toEqual({ automationTriggerId: id, integrations: [], automationBotId: null });
		expect(ctx.sandbox.state.triggers.get(id)).toMatchObject({ integrations: [], automationBotId: null });
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
		expect(error.message).toMatch(/Specific Message: required when Trigger Type is RECEIVE_SPECIFIC_MESSAGE/);
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
