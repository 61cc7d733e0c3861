import { DEMO } from '../index';
import { ID, ISO, expectError, useSandbox } from './helpers';

const { api, sandbox } = useSandbox();
const ids = (tags: Array<{ id: string }>) => tags.map((t) => t.id).sort();

describe('POST /tag/create', () => {
	it('creates a tag with the default colour and ISO timestamps, wrapped in data', async () => {
		const r = await api().post('/tag/create', { name: 'Hot lead' });
		expect(r.status).toBe(200);
		expect(r.body.success).toBe(true);
		const { tag } = r.body.data;
		expect(tag).toEqual({ id: expect.stringMatching(ID), name: 'Hot lead', color: '#000000', createdAt: expect.stringMatching(ISO), updatedAt: expect.stringMatching(ISO) });
		expect(sandbox().state.tagByName('Hot lead')?.id).toBe(tag.id);
	});

	it('keeps a given colour', async () => {
		const r = await api().post('/tag/create', { name: 'Blue', color: '#12abEF' });
		expect(r.body.data.tag.color).toBe('#12abEF');
	});

	it('answers 409 on a duplicate name, but names are case-sensitive', async () => {
		expectError(await api().post('/tag/create', { name: DEMO.tags.vip.name }), 409, 'name', 'already exists');
		const lower = await api().post('/tag/create', { name: DEMO.tags.vip.name.toLowerCase() });
		expect(lower.status).toBe(200);
		expect(lower.body.data.tag.name).toBe('vip');
	});

	it.each([
		['name is required', {}],
		['name must be 1-255 characters', { name: '' }],
		['name must be 1-255 characters', { name: 'x'.repeat(256) }],
		['name must be a string', { name: 42 }],
		['color must match ^#[0-9a-fA-F]{6}$', { name: 'ok', color: 'red' }],
		['color must match', { name: 'ok', color: '#12345' }],
		['color must match', { name: 'ok', color: '#1234567' }],
	])('400: %s', async (message, body) => {
		expectError(await api().post('/tag/create', body), 400, message);
		expect(sandbox().state.tagByName('ok')).toBeUndefined();
	});

	it('accepts a name of exactly 255 characters (counted as characters, not bytes)', async () => {
		expect((await api().post('/tag/create', { name: 'é'.repeat(255) })).status).toBe(200);
		expect((await api().post('/tag/create', { name: '😀'.repeat(255) })).status).toBe(200);
	});
});

describe('POST /tag/remove-from-contact', () => {
	const lid = DEMO.contacts.lid;

	it('removes tags, lists those the contact did not have, and returns the remaining tags with addedAt', async () => {
		const r = await api().post('/tag/remove-from-contact', { phoneNumber: DEMO.contacts.alice.phoneNumber, tagIds: [DEMO.tags.vip.id], tagNames: ['Newsletter'] });
		expect(r.status).toBe(200);
		const d = r.body.data;
		expect(d.contact).toEqual({ chatId: DEMO.contacts.alice.chatId, phoneNumber: DEMO.contacts.alice.phoneNumber, chatInternalId: DEMO.chats.alice.id, name: 'Alice Martins' });
		expect(ids(d.removedTags)).toEqual([DEMO.tags.vip.id]);
		expect(ids(d.notInContact)).toEqual([DEMO.tags.big.id]);
		expect(ids(d.tags)).toEqual([DEMO.tags.lead.id, DEMO.tags.customer.id].sort());
		for (const t of d.tags) expect(t.addedAt).toMatch(ISO);
		expect(d.automations).toMatchObject({ requested: false, triggered: false, results: [] });
		expect(sandbox().state.contacts.get(DEMO.contacts.alice.phoneNumber)?.tags.has(DEMO.tags.vip.id)).toBe(false);
	});

	it('resolves a LID and its number to the same contact and chat', async () => {
		const byLid = await api().post('/tag/remove-from-contact', { phoneNumber: lid.lid, tagIds: [DEMO.tags.vip.id] });
		const byNumber = await api().post('/tag/remove-from-contact', { phoneNumber: `+55 (11) 98765-0002`, tagIds: [DEMO.tags.vip.id] });
		expect(byLid.body.data.contact).toEqual(byNumber.body.data.contact);
		expect(byLid.body.data.contact.chatId).toBe(lid.chatId);
		expect(byLid.body.data.contact.chatInternalId).toBe(DEMO.chats.lid.id);
		// the second call sees the first call's removal: same contact
		expect(ids(byLid.body.data.removedTags)).toEqual([DEMO.tags.vip.id]);
		expect(ids(byNumber.body.data.notInContact)).toEqual([DEMO.tags.vip.id]);
	});

	it('starts one system automation per removed tag on the most recent chat; bot flows are not started', async () => {
		const r = await api().post('/tag/remove-from-contact', { phoneNumber: lid.lid, tagNames: ['VIP', 'Lead', 'Customer'], triggerAutomations: true });
		const a = r.body.data.automations;
		expect(a).toMatchObject({ requested: true, triggered: true, chatInternalId: DEMO.chats.lid.id });
		expect(ids(r.body.data.notInContact)).toEqual([DEMO.tags.customer.id]);
		const byTag = Object.fromEntries(a.results.map((x: { tagId: string }) => [x.tagId, x]));
		expect(Object.keys(byTag).sort()).toEqual([DEMO.tags.vip.id, DEMO.tags.lead.id].sort());
		expect(byTag[DEMO.tags.vip.id]).toMatchObject({ started: true, automationTriggerId: DEMO.triggers.removeVip.id });
		expect(byTag[DEMO.tags.lead.id]).toMatchObject({ started: false, error: expect.stringContaining('bot-flow') });
		const chat = sandbox().state.chats.get(DEMO.chats.lid.id);
		expect(chat?.automations).toEqual([expect.objectContaining({ type: 'SYSTEM', id: DEMO.triggers.removeVip.id })]);
	});

	it('runs on the most recent of several chats', async () => {
		// twoLines has lead (bot only) and customer (none): give it VIP first through the state
		const state = sandbox().state;
		const contact = state.contacts.get(DEMO.contacts.twoLines.phoneNumber);
		if (!contact) throw new Error('demo contact missing');
		state.tagContact(contact, DEMO.tags.vip.id, Date.now());
		const r = await api().post('/tag/remove-from-contact', { phoneNumber: contact.phoneNumber, tagIds: [DEMO.tags.vip.id], triggerAutomations: true });
		expect(r.body.data.automations.chatInternalId).toBe(DEMO.chats.twoLinesOfficial.id);
		expect(state.chats.get(DEMO.chats.twoLinesOfficial.id)?.automations.map((x) => x.id)).toContain(DEMO.triggers.removeVip.id);
		expect(state.chats.get(DEMO.chats.twoLinesWhatsapp.id)?.automations.map((x) => x.id)).not.toContain(DEMO.triggers.removeVip.id);
	});

	it('starts nothing when the contact has no chat', async () => {
		const r = await api().post('/tag/remove-from-contact', { phoneNumber: DEMO.contacts.noChat.phoneNumber, tagIds: [DEMO.tags.vip.id], triggerAutomations: true });
		expect(r.status).toBe(200);
		expect(ids(r.body.data.removedTags)).toEqual([DEMO.tags.vip.id]);
		expect(r.body.data.contact.chatInternalId).toBeNull();
		expect(r.body.data.automations).toMatchObject({ requested: true, triggered: false, chatInternalId: null, reason: expect.stringContaining('no chat') });
		expect(r.body.data.automations.results).toEqual([{ tagId: DEMO.tags.vip.id, started: false, error: 'the contact has no chat' }]);
	});

	it('starts nothing when no tag was actually removed', async () => {
		const r = await api().post('/tag/remove-from-contact', { phoneNumber: DEMO.contacts.alice.phoneNumber, tagIds: [DEMO.tags.empty.id], triggerAutomations: true });
		expect(r.body.data.automations).toMatchObject({ requested: true, triggered: false, results: [] });
		expect(sandbox().state.chats.get(DEMO.chats.alice.id)?.automations).toEqual([]);
	});

	it.each([
		['phoneNumber is required', { tagIds: [DEMO.tags.vip.id] }],
		['phoneNumber must be 8-30 characters', { phoneNumber: '1234567', tagIds: [DEMO.tags.vip.id] }],
		['phoneNumber must be 8-30 characters', { phoneNumber: '1'.repeat(31), tagIds: [DEMO.tags.vip.id] }],
		['tagIds and/or tagNames is required', { phoneNumber: DEMO.contacts.alice.phoneNumber }],
		['tagIds and/or tagNames is required', { phoneNumber: DEMO.contacts.alice.phoneNumber, tagIds: [], tagNames: [] }],
		['tagIds[0] must be an id matching ^c[a-z0-9]{24}$', { phoneNumber: DEMO.contacts.alice.phoneNumber, tagIds: ['nope'] }],
		['tagIds must be an array', { phoneNumber: DEMO.contacts.alice.phoneNumber, tagIds: 'c'.repeat(25) }],
		['tagIds must have at most 50 items', { phoneNumber: DEMO.contacts.alice.phoneNumber, tagIds: Array(51).fill(DEMO.tags.vip.id) }],
		['tagNames must have at most 50 items', { phoneNumber: DEMO.contacts.alice.phoneNumber, tagNames: Array(51).fill('VIP') }],
		['tagNames[1] must be 1-255 characters', { phoneNumber: DEMO.contacts.alice.phoneNumber, tagNames: ['VIP', ''] }],
		['tagNames[0] must be 1-255 characters', { phoneNumber: DEMO.contacts.alice.phoneNumber, tagNames: ['x'.repeat(256)] }],
		['tagNames[0] must be a string', { phoneNumber: DEMO.contacts.alice.phoneNumber, tagNames: [7] }],
		['triggerAutomations must be a boolean', { phoneNumber: DEMO.contacts.alice.phoneNumber, tagNames: ['VIP'], triggerAutomations: 'yes' }],
	])('400: %s', async (message, body) => {
		expectError(await api().post('/tag/remove-from-contact', body), 400, message);
		expect(sandbox().state.contacts.get(DEMO.contacts.alice.phoneNumber)?.tags.size).toBe(3);
	});

	it('accepts exactly 50 tagIds', async () => {
		const r = await api().post('/tag/remove-from-contact', { phoneNumber: DEMO.contacts.alice.phoneNumber, tagIds: Array(50).fill(DEMO.tags.vip.id) });
		expect(r.status).toBe(200);
		expect(r.body.data.removedTags).toHaveLength(1);
	});

	it('answers 404 for an unknown tag or contact, and changes nothing', async () => {
		expectError(await api().post('/tag/remove-from-contact', { phoneNumber: DEMO.contacts.alice.phoneNumber, tagIds: [DEMO.tags.vip.id, 'c'.repeat(25)] }), 404, 'tagIds[1]');
		expectError(await api().post('/tag/remove-from-contact', { phoneNumber: DEMO.contacts.alice.phoneNumber, tagNames: ['vip'] }), 404, 'tagNames[0]', 'vip');
		expectError(await api().post('/tag/remove-from-contact', { phoneNumber: DEMO.unknownPhoneNumber, tagIds: [DEMO.tags.vip.id] }), 404, 'phoneNumber');
		expectError(await api().post('/tag/remove-from-contact', { phoneNumber: '999999999999@lid', tagIds: [DEMO.tags.vip.id] }), 404, 'phoneNumber');
		expect(sandbox().state.contacts.get(DEMO.contacts.alice.phoneNumber)?.tags.has(DEMO.tags.vip.id)).toBe(true);
	});
});

describe('GET /tag/list-contacts', () => {
	const big = DEMO.tags.big;
	const total = DEMO.defaults.contactsOnBigTag;

	it('lists contacts most recently added first, with total, by tagId or tagName', async () => {
		const r = await api().get('/tag/list-contacts', { tagId: big.id, limit: 3 });
		expect(r.status).toBe(200);
		expect(r.body.data.tag).toMatchObject({ id: big.id, name: big.name });
		expect(r.body.data.total).toBe(total);
		const contacts = r.body.data.contacts;
		expect(contacts).toHaveLength(3);
		expect(contacts[0]).toEqual({ chatId: expect.stringMatching(/@s\.whatsapp\.net$/), phoneNumber: expect.any(String), name: expect.any(String), params: expect.any(Object), addedAt: expect.stringMatching(ISO) });
		const times = contacts.map((c: { addedAt: string }) => Date.parse(c.addedAt));
		expect([...times].sort((a, b) => b - a)).toEqual(times);
		const byName = await api().get('/tag/list-contacts', { tagName: big.name, limit: 3 });
		expect(byName.body.data.contacts).toEqual(contacts);
	});

	it('pages through every contact exactly once, with a short last page', async () => {
		const seen: string[] = [];
		let pages = 0;
		for (let offset = 0; offset < total; offset += 100) {
			const r = await api().get('/tag/list-contacts', { tagId: big.id, offset, limit: 100 });
			pages++;
			seen.push(...r.body.data.contacts.map((c: { phoneNumber: string }) => c.phoneNumber));
			expect(r.body.data.contacts).toHaveLength(Math.min(100, total - offset));
		}
		expect(pages).toBe(2);
		expect(new Set(seen).size).toBe(total);
		const past = await api().get('/tag/list-contacts', { tagId: big.id, offset: total, limit: 100 });
		expect(past.body.data).toMatchObject({ total, contacts: [] });
	});

	it('reflects removals at once', async () => {
		const first = (await api().get('/tag/list-contacts', { tagId: big.id, limit: 1 })).body.data.contacts[0];
		await api().post('/tag/remove-from-contact', { phoneNumber: first.phoneNumber, tagIds: [big.id] });
		const after = await api().get('/tag/list-contacts', { tagId: big.id, limit: 1 });
		expect(after.body.data.total).toBe(total - 1);
		expect(after.body.data.contacts[0].phoneNumber).not.toBe(first.phoneNumber);
	});

	it.each([
		['tagId or tagName is required', {}],
		['tagId must be an id matching', { tagId: 'abc' }],
		['tagName must be 1-255 characters', { tagName: 'x'.repeat(256) }],
		['limit must be an integer between 1 and 100', { tagId: big.id, limit: '0' }],
		['limit must be an integer between 1 and 100', { tagId: big.id, limit: '101' }],
		['limit must be an integer between 1 and 100 (a string of digits)', { tagId: big.id, limit: '1.5' }],
		['limit must be', { tagId: big.id, limit: '-1' }],
		['offset must be an integer >= 0 (a string of digits)', { tagId: big.id, offset: '-1' }],
		['offset must be', { tagId: big.id, offset: '1e3' }],
		['tagName', { tagId: big.id, tagName: 'VIP' }],
	])('400: %s', async (message, query) => {
		expectError(await api().get('/tag/list-contacts', query), 400, message);
	});

	it('accepts the page-size bounds 1 and 100', async () => {
		expect((await api().get('/tag/list-contacts', { tagId: big.id, limit: '1' })).body.data.contacts).toHaveLength(1);
		expect((await api().get('/tag/list-contacts', { tagId: big.id, limit: '100' })).body.data.contacts).toHaveLength(100);
	});

	it('answers 404 for an unknown tag', async () => {
		expectError(await api().get('/tag/list-contacts', { tagId: 'c'.repeat(25) }), 404, 'tagId');
		expectError(await api().get('/tag/list-contacts', { tagName: 'newsletter' }), 404, 'tagName');
	});

	it('serves a tag with 10 000 contacts page by page', async () => {
		sandbox().reset({ contactsOnBigTag: 10_000 });
		const last = await api().get('/tag/list-contacts', { tagId: big.id, offset: 9_990, limit: 100 });
		expect(last.body.data.total).toBe(10_000);
		expect(last.body.data.contacts).toHaveLength(10);
		// the earliest added contact comes last
		expect(last.body.data.contacts[9].phoneNumber).toBe('5521900000001');
	});
});
