import { DEMO } from '../sandbox';
import { jsonOf, onlyRequest, runNode, useSandbox } from '../helpers/node-runner';

const ctx = useSandbox();

describe('botIntegration create (POST /automation/integration-bot/create)', () => {
	test('sends name and url; returns data.integrationBot', async () => {
		const out = await runNode(ctx.sandbox, {
			parameters: {
				resource: 'botIntegration',
				operation: 'create',
				name: 'Sales Bot',
				url: 'https://bots.example.com/api/v1/bots/sales-bot',
			},
		});
		const request = onlyRequest(ctx.sandbox);
		expect([request.method, request.path]).toEqual(['POST', '/v2/automation/integration-bot/create']);
		expect(request.headers.authorization).toBe(`Bearer ${ctx.sandbox.token}`);
		expect(request.body).toEqual({
			name: 'Sales Bot',
			url: 'https://bots.example.com/api/v1/bots/sales-bot',
		});
		expect(out.map((i) => i.json)).toEqual([
			{
				id: expect.stringMatching(/^c[a-z0-9]{24}$/),
				name: 'Sales Bot',
				createdAt: expect.any(String),
				updatedAt: expect.any(String),
			},
		]);
	});
});

describe('integration getAll (GET /integration/list): whole list', () => {
	test('Return All: one request, one item per integration', async () => {
		const out = await runNode(ctx.sandbox, {
			parameters: { resource: 'integration', operation: 'getAll', returnAll: true },
		});
		const request = onlyRequest(ctx.sandbox);
		expect([request.method, request.path, request.query]).toEqual(['GET', '/v2/integration/list', {}]);
		expect(request.headers.authorization).toBe(`Bearer ${ctx.sandbox.token}`);
		expect(request.body).toBeUndefined();
		expect(jsonOf(out).map((i) => i.id)).toEqual([...ctx.sandbox.state.integrations.keys()]);
		expect(out[0].json).toMatchObject({ id: DEMO.integrations.whatsapp.id, name: 'Support WhatsApp' });
	});

	test('Limit 2 is applied to the list: one request, two items', async () => {
		const out = await runNode(ctx.sandbox, {
			parameters: { resource: 'integration', operation: 'getAll', limit: 2 },
		});
		expect(ctx.sandbox.requests).toHaveLength(1);
		expect(out).toHaveLength(2);
		expect(ctx.sandbox.state.integrations.size).toBeGreaterThan(2);
	});
});

describe('integration disconnect (POST /integration/disconnect)', () => {
	test('sends integrationId; returns response.integration', async () => {
		const out = await runNode(ctx.sandbox, {
			parameters: {
				resource: 'integration',
				operation: 'disconnect',
				integrationId: DEMO.integrations.whatsapp.id,
			},
		});
		const request = onlyRequest(ctx.sandbox);
		expect([request.method, request.path]).toEqual(['POST', '/v2/integration/disconnect']);
		expect(request.body).toEqual({ integrationId: DEMO.integrations.whatsapp.id });
		expect(request.headers.authorization).toBe(`Bearer ${ctx.sandbox.token}`);
		expect(out).toHaveLength(1);
		expect(out[0].json).toMatchObject({
			id: DEMO.integrations.whatsapp.id,
			connectionStatus: 'DISCONNECTED',
		});
	});
});

describe('integration delete (POST /integration/delete)', () => {
	test('sends integrationId; returns { success: true, integrationId }; the integration is DELETING', async () => {
		const out = await runNode(ctx.sandbox, {
			parameters: {
				resource: 'integration',
				operation: 'delete',
				integrationId: DEMO.integrations.disconnected.id,
			},
		});
		const request = onlyRequest(ctx.sandbox);
		expect([request.method, request.path]).toEqual(['POST', '/v2/integration/delete']);
		expect(request.body).toEqual({ integrationId: DEMO.integrations.disconnected.id });
		expect(request.headers.authorization).toBe(`Bearer ${ctx.sandbox.token}`);
		expect(out.map((i) => i.json)).toEqual([
			{ success: true, integrationId: DEMO.integrations.disconnected.id },
		]);
		expect(ctx.sandbox.state.integrations.get(DEMO.integrations.disconnected.id)?.connectionStatus).toBe(
			'DELETING',
		);
	});
});

describe('integration validatePhoneNumber (POST /integration/validate-chat-phone-number)', () => {
	test('sends integrationId and phoneNumber; returns { exists, jid }', async () => {
		const out = await runNode(ctx.sandbox, {
			items: [{ phone: DEMO.contacts.alice.phoneNumber }, { phone: DEMO.notOnChannelPhoneNumber }],
			parameters: {
				resource: 'integration',
				operation: 'validatePhoneNumber',
				integrationId: DEMO.integrations.whatsapp.id,
				phoneNumber: '={{ $json.phone }}',
			},
		});
		expect(ctx.sandbox.requests.map((r) => [r.method, r.path])).toEqual([
			['POST', '/v2/integration/validate-chat-phone-number'],
			['POST', '/v2/integration/validate-chat-phone-number'],
		]);
		expect(ctx.sandbox.requests[0].body).toEqual({
			integrationId: DEMO.integrations.whatsapp.id,
			phoneNumber: DEMO.contacts.alice.phoneNumber,
		});
		expect(ctx.sandbox.requests[0].headers.authorization).toBe(`Bearer ${ctx.sandbox.token}`);
		expect(jsonOf(out)).toEqual([
			{ exists: true, jid: `${DEMO.contacts.alice.phoneNumber}@s.whatsapp.net` },
			{ exists: false, jid: `${DEMO.notOnChannelPhoneNumber}@s.whatsapp.net` },
		]);
		expect(out.map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
	});
});

describe('webhook create (POST /integration/webhook/create)', () => {
	test('sends every field, headers as [{key, value}]; returns response.webhook', async () => {
		const out = await runNode(ctx.sandbox, {
			parameters: {
				resource: 'webhook',
				operation: 'create',
				integrationId: DEMO.integrations.whatsapp.id,
				url: 'https://example.com/hooks/inbox',
				type: 'MESSAGE_SENT',
				method: 'PUT',
				additionalFields: {
					delayMinutes: 3,
					transferType: 'USER',
					headers: {
						header: [
							{ key: 'X-Api-Key', value: 'abc123' },
							{ key: 'X-Source', value: 'n8n' },
						],
					},
				},
			},
		});
		const request = onlyRequest(ctx.sandbox);
		expect([request.method, request.path]).toEqual(['POST', '/v2/integration/webhook/create']);
		expect(request.headers.authorization).toBe(`Bearer ${ctx.sandbox.token}`);
		expect(request.body).toEqual({
			integrationId: DEMO.integrations.whatsapp.id,
			url: 'https://example.com/hooks/inbox',
			type: 'MESSAGE_SENT',
			method: 'PUT',
			delayMinutes: 3,
			transferType: 'USER',
			headers: [
				{ key: 'X-Api-Key', value: 'abc123' },
				{ key: 'X-Source', value: 'n8n' },
			],
		});
		expect(out).toHaveLength(1);
		expect(out[0].json).toMatchObject({
			id: expect.any(String),
			integrationId: DEMO.integrations.whatsapp.id,
			method: 'PUT',
			type: 'MESSAGE_SENT',
			transferType: 'USER',
			delayMinutes: 3,
			headers: [
				{ key: 'X-Api-Key', value: 'abc123' },
				{ key: 'X-Source', value: 'n8n' },
			],
		});
		expect(ctx.sandbox.state.webhooks.size).toBe(1);
	});

	test('with only the required fields sends integrationId, url, type and method', async () => {
		await runNode(ctx.sandbox, {
			parameters: {
				resource: 'webhook',
				operation: 'create',
				integrationId: DEMO.integrations.official.id,
				url: 'http://hooks.example.com/x',
			},
		});
		expect(onlyRequest(ctx.sandbox).body).toEqual({
			integrationId: DEMO.integrations.official.id,
			url: 'http://hooks.example.com/x',
			type: 'MESSAGE_RECEIVED',
			method: 'POST',
		});
	});
});

describe('group getInviteUrl (GET /group/get-invite-url)', () => {
	test('sends integrationId and groupJid as query; returns { inviteUrl }', async () => {
		const out = await runNode(ctx.sandbox, {
			parameters: {
				resource: 'group',
				operation: 'getInviteUrl',
				integrationId: DEMO.group.integrationId,
				groupJid: DEMO.group.jid,
			},
		});
		const request = onlyRequest(ctx.sandbox);
		expect([request.method, request.path]).toEqual(['GET', '/v2/group/get-invite-url']);
		expect(request.query).toEqual({ integrationId: DEMO.group.integrationId, groupJid: DEMO.group.jid });
		expect(request.body).toBeUndefined();
		expect(request.headers.authorization).toBe(`Bearer ${ctx.sandbox.token}`);
		expect(out.map((i) => i.json)).toEqual([
			{ inviteUrl: expect.stringMatching(/^https:\/\/chat\.whatsapp\.com\/\w+$/) },
		]);
	});
});
