import { DEMO } from '../index';
import { ID, ISO, expectError, until, useSandbox } from './helpers';

const { api, sandbox } = useSandbox({ asyncDeleteMs: 60 });
const I = DEMO.integrations;

describe('GET /integration/list', () => {
	it('lists every integration, wrapped in response', async () => {
		const r = await api().get('/integration/list');
		expect(r.status).toBe(200);
		const list = r.body.response.integrations;
		expect(list.map((i: { id: string }) => i.id).sort()).toEqual(Object.values(I).map((i) => i.id).sort());
		const wa = list.find((i: { id: string }) => i.id === I.whatsapp.id);
		expect(wa).toEqual({
			id: I.whatsapp.id,
			name: I.whatsapp.name,
			sectorId: DEMO.sectors.support,
			connectionStatus: 'CONNECTED',
			createdAt: expect.stringMatching(ISO),
			updatedAt: expect.stringMatching(ISO),
			chatId: I.whatsapp.chatId,
			color: expect.stringMatching(/^#[0-9A-Fa-f]{6}$/),
			onlyApi: false,
			provider: 'WHATSAPP',
		});
		expect(r.body.data).toBeUndefined();
	});
});

describe('POST /integration/disconnect', () => {
	it('ends the session and leaves the integration DISCONNECTED', async () => {
		expect(sandbox().state.integrations.get(I.whatsapp.id)?.sessionId).not.toBeNull();
		const r = await api().post('/integration/disconnect', { integrationId: I.whatsapp.id });
		expect(r.status).toBe(200);
		expect(r.body.response.integration).toMatchObject({ id: I.whatsapp.id, connectionStatus: 'DISCONNECTED' });
		expect(sandbox().state.integrations.get(I.whatsapp.id)?.sessionId).toBeNull();
	});

	it('400/404 on a bad or unknown id; 400 while DELETING', async () => {
		expectError(await api().post('/integration/disconnect', {}), 400, 'integrationId is required');
		expectError(await api().post('/integration/disconnect', { integrationId: 'abc' }), 400, 'integrationId must be an id');
		expectError(await api().post('/integration/disconnect', { integrationId: 'c'.repeat(25) }), 404, 'integrationId');
		await api().post('/integration/delete', { integrationId: I.disconnected.id });
		expectError(await api().post('/integration/disconnect', { integrationId: I.disconnected.id }), 400, 'being deleted');
	});
});

describe('POST /integration/delete', () => {
	it('marks the integration DELETING, then removes it (with its chats) after asyncDeleteMs', async () => {
		const r = await api().post('/integration/delete', { integrationId: I.official.id });
		expect(r.status).toBe(200);
		expect(r.body).toEqual({ success: true });
		const during = await api().get('/integration/list');
		expect(during.body.response.integrations.find((i: { id: string }) => i.id === I.official.id)?.connectionStatus).toBe('DELETING');
		// deleting again while queued is accepted
		expect((await api().post('/integration/delete', { integrationId: I.official.id })).status).toBe(200);
		// The removal is asynchronous (asyncDeleteMs): wait for it, however long a busy machine takes.
		await until(() => !sandbox().state.integrations.has(I.official.id));
		const after = await api().get('/integration/list');
		expect(after.body.response.integrations.map((i: { id: string }) => i.id)).not.toContain(I.official.id);
		expect(sandbox().state.chats.has(DEMO.chats.finalized.id)).toBe(false);
		expectError(await api().post('/integration/delete', { integrationId: I.official.id }), 404, 'integrationId');
		expectError(await api().get('/provider-template/list', { integrationId: I.official.id }), 404, 'integrationId');
	});

	it('400/404 on a bad or unknown id', async () => {
		expectError(await api().post('/integration/delete', { integrationId: 5 }), 400, 'integrationId must be a string');
		expectError(await api().post('/integration/delete', { integrationId: 'c'.repeat(25) }), 404, 'integrationId');
	});
});

describe('POST /integration/validate-chat-phone-number', () => {
	const validate = (phoneNumber: unknown, integrationId: unknown = I.whatsapp.id) => api().post('/integration/validate-chat-phone-number', { integrationId, phoneNumber });

	it('answers exists and the jid, wrapped in response', async () => {
		const known = await validate('+55 11 98765-0001');
		expect(known.status).toBe(200);
		expect(known.body.response).toEqual({ exists: true, jid: '5511987650001@s.whatsapp.net' });
		expect((await validate(DEMO.unknownPhoneNumber)).body.response.exists).toBe(true);
		expect((await validate(DEMO.notOnChannelPhoneNumber)).body.response).toEqual({ exists: false, jid: `${DEMO.notOnChannelPhoneNumber}@s.whatsapp.net` });
	});

	it('rejects bad input', async () => {
		expectError(await validate(undefined), 400, 'phoneNumber is required');
		expectError(await validate('12-34'), 400, 'phoneNumber must contain 8-15 digits');
		expectError(await validate('1234567890123456'), 400, 'phoneNumber must contain 8-15 digits');
		expectError(await validate(DEMO.unknownPhoneNumber, 'x'), 400, 'integrationId must be an id');
		expectError(await validate(DEMO.unknownPhoneNumber, 'c'.repeat(25)), 404, 'integrationId');
	});
});

describe('POST /integration/webhook/create', () => {
	const valid = {
		integrationId: I.whatsapp.id,
		url: 'https://hooks.example.com/inbox',
		method: 'PUT',
		type: 'MESSAGE_RECEIVED',
		headers: [{ key: 'X-Secret', value: 's3cret' }],
		delayMinutes: 2,
		transferType: 'USER',
	};

	it('stores the webhook and returns it in response.webhook', async () => {
		const r = await api().post('/integration/webhook/create', valid);
		expect(r.status).toBe(200);
		expect(r.body.response.webhook).toEqual({ ...valid, id: expect.stringMatching(ID), createdAt: expect.stringMatching(ISO), updatedAt: expect.stringMatching(ISO) });
		expect(sandbox().state.webhooks.get(r.body.response.webhook.id)?.headers).toEqual(valid.headers);
	});

	it('defaults method POST, headers [], delayMinutes 0, transferType ALL', async () => {
		const r = await api().post('/integration/webhook/create', { integrationId: I.whatsapp.id, url: 'http://localhost:9/x', type: 'MESSAGE_SENT' });
		expect(r.body.response.webhook).toMatchObject({ method: 'POST', headers: [], delayMinutes: 0, transferType: 'ALL' });
	});

	it.each([
		['integrationId is required', { integrationId: undefined }],
		['integrationId must be an id', { integrationId: 'wa-1' }],
		['url is required', { url: undefined }],
		['url must be an absolute http(s) URL', { url: 'hooks.example.com/x' }],
		['url must be an absolute http(s) URL', { url: 'mailto:a@example.com' }],
		['method must be one of GET, POST, PUT, DELETE, PATCH', { method: 'post' }],
		['type is required', { type: undefined }],
		['type must be one of MESSAGE_SENT_AND_RECEIVED, MESSAGE_SENT, MESSAGE_RECEIVED', { type: 'MESSAGE' }],
		['headers must be an array', { headers: { 'X-A': '1' } }],
		['headers[0] must be an object', { headers: ['X-A: 1'] }],
		['headers[0].key is required', { headers: [{ value: '1' }] }],
		['headers[0].value must be a string', { headers: [{ key: 'X-A', value: 1 }] }],
		['headers[1].key must be a valid HTTP header name', { headers: [{ key: 'X-A', value: '1' }, { key: 'X A', value: '1' }] }],
		['headers[0].value must not contain line breaks', { headers: [{ key: 'X-A', value: 'a\r\nb' }] }],
		['delayMinutes must be an integer >= 0', { delayMinutes: -1 }],
		['delayMinutes must be an integer >= 0', { delayMinutes: 0.5 }],
		['transferType must be one of ALL, USER, AUTOMATION, API, AUTOMATION_AND_API', { transferType: 'ANY' }],
	])('400: %s', async (message, patch) => {
		expectError(await api().post('/integration/webhook/create', { ...valid, ...patch }), 400, message);
		expect(sandbox().state.webhooks.size).toBe(0);
	});

	it('404 for an unknown integration', async () => {
		expectError(await api().post('/integration/webhook/create', { ...valid, integrationId: 'c'.repeat(25) }), 404, 'integrationId');
	});
});

describe('GET /group/get-invite-url', () => {
	it('answers the full invite URL, wrapped in response, stable per group', async () => {
		const q = { integrationId: DEMO.group.integrationId, groupJid: DEMO.group.jid };
		const r = await api().get('/group/get-invite-url', q);
		expect(r.status).toBe(200);
		expect(r.body.response.inviteUrl).toMatch(/^https:\/\/chat\.whatsapp\.com\/[A-Za-z0-9]{22}$/);
		expect((await api().get('/group/get-invite-url', q)).body.response.inviteUrl).toBe(r.body.response.inviteUrl);
	});

	it('rejects a JID not ending in @g.us, missing parameters and unknown groups', async () => {
		expectError(await api().get('/group/get-invite-url', { integrationId: DEMO.group.integrationId, groupJid: DEMO.contacts.alice.chatId }), 400, 'groupJid must end with @g.us');
		expectError(await api().get('/group/get-invite-url', { integrationId: DEMO.group.integrationId }), 400, 'groupJid is required');
		expectError(await api().get('/group/get-invite-url', { groupJid: DEMO.group.jid }), 400, 'integrationId is required');
		expectError(await api().get('/group/get-invite-url', { integrationId: 'x', groupJid: DEMO.group.jid }), 400, 'integrationId must be an id');
		expectError(await api().get('/group/get-invite-url', { integrationId: DEMO.group.integrationId, groupJid: '999@g.us' }), 404, 'groupJid');
		expectError(await api().get('/group/get-invite-url', { integrationId: I.official.id, groupJid: DEMO.group.jid }), 404, 'groupJid');
	});
});
