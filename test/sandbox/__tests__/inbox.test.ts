import { CHAT_CATEGORIES, DEMO } from '../index';
import { ID, ISO, type Json, expectError, useSandbox } from './helpers';

const { api, sandbox } = useSandbox();
const F = DEMO.customFields;
const alice = DEMO.contacts.alice;

describe('GET /inbox/get-custom-fields-from-chat', () => {
	it('answers fields and assigned template ids, wrapped in response.customFields', async () => {
		const r = await api().get('/inbox/get-custom-fields-from-chat', { phoneNumber: alice.phoneNumber });
		expect(r.status).toBe(200);
		const { fields, assignedTemplateIds } = r.body.response.customFields;
		expect(assignedTemplateIds).toEqual([F.profile.id]);
		expect(fields.map((f: Json) => f.key)).toEqual(['cpf', 'birthday', 'plan', 'score', 'favoriteColor']);
		expect(fields[0]).toEqual({
			id: F.profile.fields.cpf,
			key: 'cpf',
			label: 'CPF',
			fieldType: 'TEXT',
			optionsJson: {},
			isRequired: true,
			sortOrder: '1',
			sourceType: 'TEMPLATE_FIELD',
			templateId: F.profile.id,
			value: '123.456.789-00',
		});
		expect(fields[1].value).toBeNull();
		expect(fields[4]).toMatchObject({ sourceType: 'EXTRA_FIELD', value: 'blue' });
	});

	it('finds the same contact by LID', async () => {
		const byLid = await api().get('/inbox/get-custom-fields-from-chat', { phoneNumber: DEMO.contacts.lid.lid });
		expect(byLid.body.response.customFields).toEqual({ fields: [], assignedTemplateIds: [] });
	});

	it('rejects bad phone numbers and unknown contacts', async () => {
		expectError(await api().get('/inbox/get-custom-fields-from-chat', {}), 400, 'phoneNumber is required');
		expectError(await api().get('/inbox/get-custom-fields-from-chat', { phoneNumber: '1234567' }), 400, 'phoneNumber must be 8-30 characters');
		expectError(await api().get('/inbox/get-custom-fields-from-chat', { phoneNumber: '1'.repeat(31) }), 400, 'phoneNumber must be 8-30 characters');
		expectError(await api().get('/inbox/get-custom-fields-from-chat', { phoneNumber: DEMO.unknownPhoneNumber }), 404, 'phoneNumber');
	});
});

describe('POST /inbox/upsert-custom-fields-by-phone-number', () => {
	const upsert = (body: object) => api().post('/inbox/upsert-custom-fields-by-phone-number', body);

	it('writes template fields (assigning the template) and extra fields; read shows them', async () => {
		const phoneNumber = DEMO.contacts.botFlow.phoneNumber;
		const r = await upsert({
			phoneNumber,
			inputs: [
				{ sourceType: 'TEMPLATE_FIELD', templateFieldId: F.delivery.fields.address, valueJson: 'Rua A, 1' },
				{ sourceType: 'TEMPLATE_FIELD', templateFieldId: F.delivery.fields.notes, valueJson: { floor: 3, gate: null } },
				{ sourceType: 'EXTRA_FIELD', key: 'vipSince', label: 'VIP since', valueJson: 2021 },
			],
		});
		expect(r.status).toBe(200);
		const written = r.body.response.customFields;
		expect(written.map((f: Json) => [f.key, f.value])).toEqual([
			['address', 'Rua A, 1'],
			['notes', { floor: 3, gate: null }],
			['vipSince', 2021],
		]);
		expect(written[2]).toMatchObject({ id: expect.stringMatching(ID), label: 'VIP since', sourceType: 'EXTRA_FIELD' });
		const read = await api().get('/inbox/get-custom-fields-from-chat', { phoneNumber });
		expect(read.body.response.customFields.assignedTemplateIds).toEqual([F.delivery.id]);
		expect(read.body.response.customFields.fields).toHaveLength(3);
	});

	it('updates in place: same field, new value (null allowed)', async () => {
		await upsert({ phoneNumber: alice.phoneNumber, inputs: [{ sourceType: 'TEMPLATE_FIELD', templateFieldId: F.profile.fields.plan, valueJson: null }, { sourceType: 'EXTRA_FIELD', key: 'favoriteColor', valueJson: 'green' }] });
		const fields = (await api().get('/inbox/get-custom-fields-from-chat', { phoneNumber: alice.phoneNumber })).body.response.customFields.fields;
		expect(fields).toHaveLength(5);
		expect(fields.find((f: Json) => f.key === 'plan').value).toBeNull();
		expect(fields.find((f: Json) => f.key === 'favoriteColor').value).toBe('green');
	});

	const field = { sourceType: 'TEMPLATE_FIELD', templateFieldId: F.profile.fields.cpf, valueJson: 'x' };
	it.each([
		['phoneNumber is required', { inputs: [field] }],
		['phoneNumber must be 8-30 characters', { phoneNumber: '123', inputs: [field] }],
		['inputs is required', { phoneNumber: alice.phoneNumber }],
		['inputs must be an array', { phoneNumber: alice.phoneNumber, inputs: field }],
		['inputs must have at least 1 item', { phoneNumber: alice.phoneNumber, inputs: [] }],
		['inputs[1] must be an object', { phoneNumber: alice.phoneNumber, inputs: [field, 'x'] }],
		['inputs[0].sourceType is required', { phoneNumber: alice.phoneNumber, inputs: [{ templateFieldId: F.profile.fields.cpf, valueJson: 1 }] }],
		['inputs[0].templateFieldId is required', { phoneNumber: alice.phoneNumber, inputs: [{ sourceType: 'TEMPLATE_FIELD', valueJson: 1 }] }],
		['inputs[0].valueJson is required', { phoneNumber: alice.phoneNumber, inputs: [{ sourceType: 'TEMPLATE_FIELD', templateFieldId: F.profile.fields.cpf }] }],
		['inputs[0].key is required', { phoneNumber: alice.phoneNumber, inputs: [{ sourceType: 'EXTRA_FIELD', valueJson: 1 }] }],
		['inputs[0].label must be 1-255 characters', { phoneNumber: alice.phoneNumber, inputs: [{ sourceType: 'EXTRA_FIELD', key: 'k', label: '', valueJson: 1 }] }],
	])('400: %s', async (message, body) => {
		expectError(await upsert(body), 400, message);
		expect(sandbox().state.contacts.get(alice.phoneNumber)?.customFields.get(F.profile.fields.cpf)?.value).toBe('123.456.789-00');
	});

	it('404 for an unknown contact or template field, writing nothing', async () => {
		expectError(await upsert({ phoneNumber: DEMO.unknownPhoneNumber, inputs: [field] }), 404, 'phoneNumber');
		expectError(await upsert({ phoneNumber: alice.phoneNumber, inputs: [field, { ...field, templateFieldId: 'nope' }] }), 404, 'inputs[1].templateFieldId');
		expect(sandbox().state.contacts.get(alice.phoneNumber)?.customFields.get(F.profile.fields.cpf)?.value).toBe('123.456.789-00');
	});
});

describe('GET /inbox/find-all-chats', () => {
	const find = (query: Record<string, string | number> = {}) => api().get('/inbox/find-all-chats', query);
	const idsOf = (r: Json): string[] => r.body.response.chats.map((c: Json) => c.id);

	it('defaults to attendance, most recent message first, wrapped in response.chats', async () => {
		const r = await find();
		expect(r.status).toBe(200);
		const chats = r.body.response.chats;
		expect(chats.length).toBe(sandbox().state.chatsIn('attendance').length);
		expect(chats.every((c: Json) => c.category === 'attendance')).toBe(true);
		const times = chats.map((c: Json) => Date.parse(c.lastMessageAt));
		expect(new Set(times).size).toBe(times.length);
		expect([...times].sort((a, b) => b - a)).toEqual(times);
		expect(chats[0]).toMatchObject({ id: expect.stringMatching(ID), chatId: expect.any(String), integrationId: expect.stringMatching(ID), lastMessage: expect.objectContaining({ text: expect.any(String) }), createdAt: expect.stringMatching(ISO) });
	});

	it.each(CHAT_CATEGORIES.map((c) => [c]))('has chats in category %s', async (category) => {
		const r = await find({ category, limit: 1000 });
		expect(r.body.response.chats.length).toBeGreaterThan(0);
		expect(r.body.response.chats.every((c: Json) => c.category === category)).toBe(true);
		if (category === 'groups') expect(r.body.response.chats.every((c: Json) => c.chatId.endsWith('@g.us'))).toBe(true);
	});

	it('pages with offset/limit and a short last page', async () => {
		const all = idsOf(await find({ category: 'queue', limit: 1000 }));
		expect(all.length).toBeGreaterThan(4);
		const pages: string[][] = [];
		for (let offset = 0; offset < all.length; offset += 4) pages.push(idsOf(await find({ category: 'queue', offset, limit: 4 })));
		expect(pages.flat()).toEqual(all);
		expect(pages[pages.length - 1].length).toBe(all.length % 4 || 4);
		expect(idsOf(await find({ category: 'queue', offset: all.length }))).toEqual([]);
	});

	it('filters by integrationIds, sectorIds, attendantIds and tagIds (comma-separated), also with paging', async () => {
		const state = sandbox().state;
		const expected = (pred: (c: Json) => boolean) => state.chatsIn('attendance').filter(pred).map((c) => c.id);
		const official = DEMO.integrations.official.id;
		expect(idsOf(await find({ integrationIds: official }))).toEqual(expected((c) => c.integrationId === official));
		expect(idsOf(await find({ sectorIds: `${DEMO.sectors.support}` }))).toEqual(expected((c) => c.sectorId === DEMO.sectors.support));
		const two = `${DEMO.users.ana.id}, ${DEMO.users.carla.id}`;
		const byAttendant = idsOf(await find({ attendantIds: two }));
		expect(byAttendant).toEqual(expected((c) => c.attendantId === DEMO.users.ana.id || c.attendantId === DEMO.users.carla.id));
		expect(byAttendant).toContain(DEMO.chats.alice.id);
		const byTag = idsOf(await find({ tagIds: DEMO.tags.vip.id }));
		expect(byTag).toEqual(expected((c) => !!state.contacts.get(c.phoneNumber ?? '')?.tags.has(DEMO.tags.vip.id)));
		expect(byTag.length).toBeGreaterThan(0);
		const paged = idsOf(await find({ attendantIds: two, offset: 1, limit: 1 }));
		expect(paged).toEqual(byAttendant.slice(1, 2));
		expect(idsOf(await find({ category: 'pinned', attendantIds: DEMO.users.bruno.id }))).toContain(DEMO.chats.pinned.id);
	});

	it.each([
		['category must be one of attendance, queue, groups, finalized, pinned', { category: 'open' }],
		['offset must be an integer >= 0', { offset: '-1' }],
		['limit must be an integer between 1 and 1000', { limit: '0' }],
		['limit must be an integer between 1 and 1000', { limit: '1001' }],
		['integrationIds must be a comma-separated list of ids', { integrationIds: `${DEMO.integrations.whatsapp.id},wa` }],
		['sectorIds must be a comma-separated list of ids', { sectorIds: 'support' }],
		['tagIds must be a comma-separated list of ids', { tagIds: 'VIP' }],
		['attendantIds is only valid for categories attendance and pinned', { category: 'queue', attendantIds: DEMO.users.ana.id }],
		['attendantIds is only valid for categories attendance and pinned', { category: 'finalized', attendantIds: DEMO.users.ana.id }],
		['attendantIds is only valid for categories attendance and pinned', { category: 'groups', attendantIds: DEMO.users.ana.id }],
	])('400: %s', async (message, query) => {
		expectError(await find(query), 400, message);
	});

	it('accepts limit 1000 on a big seed', async () => {
		sandbox().reset({ chats: 5000, messagesPerChat: 1 });
		const r = await find({ limit: 1000 });
		expect(r.body.response.chats).toHaveLength(1000);
	});
});

describe('GET /inbox/find-messages-from-inbox', () => {
	const chat = DEMO.chats.alice;

	it('lists the messages of a chat, newest first, with offset/limit, wrapped in response.messages', async () => {
		const r = await api().get('/inbox/find-messages-from-inbox', { chatInternalId: chat.id });
		expect(r.status).toBe(200);
		const messages = r.body.response.messages;
		expect(messages).toHaveLength(DEMO.defaults.messagesPerChat);
		expect(messages[0]).toEqual({
			id: expect.stringMatching(ID),
			chatInternalId: chat.id,
			chatId: chat.chatId,
			integrationId: chat.integrationId,
			direction: expect.stringMatching(/^(inbound|outbound)$/),
			fromMe: expect.any(Boolean),
			type: 'text',
			text: expect.any(String),
			transferType: expect.stringMatching(/^(USER|AUTOMATION|API)$/),
			createdAt: expect.stringMatching(ISO),
		});
		const times = messages.map((m: Json) => Date.parse(m.createdAt));
		expect([...times].sort((a, b) => b - a)).toEqual(times);
		const page = await api().get('/inbox/find-messages-from-inbox', { chatInternalId: chat.id, offset: 3, limit: 10 });
		expect(page.body.response.messages.map((m: Json) => m.id)).toEqual(messages.slice(3).map((m: Json) => m.id));
	});

	it('rejects bad parameters and unknown chats', async () => {
		expectError(await api().get('/inbox/find-messages-from-inbox', {}), 400, 'chatInternalId is required');
		expectError(await api().get('/inbox/find-messages-from-inbox', { chatInternalId: chat.id, limit: '0' }), 400, 'limit must be an integer between 1 and 1000');
		expectError(await api().get('/inbox/find-messages-from-inbox', { chatInternalId: chat.id, offset: 'x' }), 400, 'offset must be');
		expectError(await api().get('/inbox/find-messages-from-inbox', { chatInternalId: 'c'.repeat(25) }), 404, 'chatInternalId');
	});
});

describe('GET /user/list', () => {
	it('lists the three company users, wrapped in data, one ONLINE', async () => {
		const r = await api().get('/user/list');
		expect(r.status).toBe(200);
		const users = r.body.data.users;
		expect(users).toHaveLength(3);
		expect(users.filter((u: Json) => u.online === 'ONLINE').map((u: Json) => u.id)).toEqual([DEMO.users.ana.id]);
		expect(users[0]).toEqual({
			id: DEMO.users.ana.id,
			signature: 'Ana',
			online: 'ONLINE',
			createdAt: expect.stringMatching(ISO),
			updatedAt: expect.stringMatching(ISO),
			user: { id: DEMO.users.ana.userId, name: 'Ana Souza', email: 'ana.souza@example.com' },
		});
		expect(r.body.response).toBeUndefined();
	});
});
