/**
 * The pickers' methods, run in n8n-core's real LoadOptionsContext (what the editor calls when a
 * picker opens, the user types or scrolls) against the sandbox over real HTTP: list searches with
 * the typed-text filter and the pagination-token walk, and the multi-selects' load-options.
 */
import type { IDataObject, INodeListSearchResult } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { DEMO } from '../sandbox';
import type { Chat } from '../sandbox';
import { useSandbox } from '../helpers/node-runner';
import { loadOptionsContext, node, requestsTo } from './helpers';

const ctx = useSandbox();

const messageParameters = { resource: 'message', operation: 'getAll' };
const chatContext = (apiToken?: string) =>
	loadOptionsContext(ctx.sandbox, messageParameters, 'chatInternalId', apiToken);

async function searchChats(filter?: string, token?: string): Promise<INodeListSearchResult> {
	return await node.methods.listSearch.searchChats.call(chatContext(), filter, token);
}

/** Follows the pagination tokens to the end; returns every call's result and request count. */
async function walk(filter?: string) {
	const calls: Array<{ result: INodeListSearchResult; requests: IDataObject[] }> = [];
	let token: string | undefined;
	do {
		const before = ctx.sandbox.requests.length;
		const result = await searchChats(filter, token);
		calls.push({
			result,
			requests: ctx.sandbox.requests.slice(before).map((request) => request.query),
		});
		token = result.paginationToken;
		if (calls.length > 200) throw new Error('the walk does not end');
	} while (token);
	return calls;
}

const allChats = (): Chat[] => [...ctx.sandbox.state.chats.values()];
const valuesOf = (calls: Awaited<ReturnType<typeof walk>>) =>
	calls.flatMap((call) => call.result.results.map((entry) => String(entry.value)));

describe('searchIntegrations (integration pickers of the action node)', () => {
	const context = (apiToken?: string) =>
		loadOptionsContext(ctx.sandbox, { resource: 'integration', operation: 'disconnect' }, 'integrationId', apiToken);

	test('lists every integration, sorted by name, with its connection status; value = id; one request, no token', async () => {
		const result = await node.methods.listSearch.searchIntegrations.call(context());
		expect(result.results).toEqual([
			{ name: 'Official Channel (CONNECTED)', value: DEMO.integrations.official.id },
			{ name: 'Sales WhatsApp (old) (DISCONNECTED)', value: DEMO.integrations.disconnected.id },
			{ name: 'Support WhatsApp (CONNECTED)', value: DEMO.integrations.whatsapp.id },
		]);
		expect(result.paginationToken).toBeUndefined();
		expect(requestsTo(ctx.sandbox, '/integration/list')).toHaveLength(1);
	});

	test('filters by the typed text on name or id, case-insensitive', async () => {
		const search = async (filter: string) =>
			(await node.methods.listSearch.searchIntegrations.call(context(), filter)).results.map((entry) => entry.value);
		expect(await search('WHATSAPP')).toEqual([DEMO.integrations.disconnected.id, DEMO.integrations.whatsapp.id]);
		expect(await search(DEMO.integrations.official.id.slice(0, 10))).toContain(DEMO.integrations.official.id);
		expect(await search('telegram')).toEqual([]);
	});

	test('a rejected token is the shared NodeApiError', async () => {
		await expect(node.methods.listSearch.searchIntegrations.call(context('wrong'))).rejects.toBeInstanceOf(NodeApiError);
	});
});

describe('searchIntegrations in Template → Get Many: only integrations whose templates the API lists', () => {
	const templateContext = () =>
		loadOptionsContext(ctx.sandbox, { resource: 'template', operation: 'getAll' }, 'integrationId');
	const search = async (filter?: string) =>
		await node.methods.listSearch.searchIntegrations.call(templateContext(), filter);
	const checked = () => requestsTo(ctx.sandbox, '/provider-template/list').map((request) => request.query.integrationId);

	test('lists the official channel only; each integration was asked once, for one template', async () => {
		const result = await search();
		expect(result).toEqual({
			results: [{ name: 'Official Channel (CONNECTED)', value: DEMO.integrations.official.id }],
		});
		expect(requestsTo(ctx.sandbox, '/integration/list')).toHaveLength(1);
		expect(checked().sort()).toEqual(Object.values(DEMO.integrations).map((i) => i.id).sort());
		for (const request of requestsTo(ctx.sandbox, '/provider-template/list')) expect(request.query.limit).toBe('1');
		// What it left out really cannot work: the API refuses templates for the other lines.
		const refused = requestsTo(ctx.sandbox, '/provider-template/list').filter((r) => r.query.integrationId !== DEMO.integrations.official.id);
		expect(refused.map((r) => r.status)).toEqual([400, 400]);
	});

	test('the typed text narrows the list first: only the matches are checked', async () => {
		expect((await search('support')).results).toEqual([]);
		expect(checked()).toEqual([DEMO.integrations.whatsapp.id]);
		ctx.sandbox.clearRequests();
		expect((await search('official')).results.map((entry) => entry.value)).toEqual([DEMO.integrations.official.id]);
		expect(checked()).toEqual([DEMO.integrations.official.id]);
	});

	test('an integration the API could not answer for stays, marked "templates not checked"', async () => {
		// A rate limit longer than the node waits for: the check fails without telling anything.
		ctx.sandbox.addFault({
			path: '/provider-template/list',
			match: DEMO.integrations.whatsapp.id,
			kind: 'status',
			status: 429,
			retryAfterSeconds: 3600,
		});
		expect((await search()).results).toEqual([
			{ name: 'Official Channel (CONNECTED)', value: DEMO.integrations.official.id },
			{ name: 'Support WhatsApp (CONNECTED) · templates not checked', value: DEMO.integrations.whatsapp.id },
		]);
	});

	test('the other integration pickers (and the trigger\'s) list every integration and check no templates', async () => {
		await node.methods.listSearch.searchIntegrations.call(
			loadOptionsContext(ctx.sandbox, { resource: 'webhook', operation: 'create' }, 'integrationId'),
		);
		expect(requestsTo(ctx.sandbox, '/provider-template/list')).toEqual([]);
	});
});

describe('searchChats (chat pickers): GET /inbox/find-all-chats across categories, filtered, with a pagination token', () => {
	test('the seeded inbox (49 chats) fits one call: every chat once, categories in order, no token', async () => {
		const result = await searchChats();
		expect(result.paginationToken).toBeUndefined();
		const values = result.results.map((entry) => entry.value);
		expect(new Set(values).size).toBe(values.length);
		expect([...values].sort()).toEqual(allChats().map((chat) => chat.id).sort());
		expect(ctx.sandbox.requests.filter((request) => request.path.endsWith('/inbox/find-all-chats')).map((request) => request.query)).toEqual(
			['attendance', 'queue', 'pinned', 'groups', 'finalized'].map((category) => ({
				category,
				offset: '0',
				limit: '100',
			})),
		);
		// Fabio's two chats read alike: the line names are asked for once.
		expect(requestsTo(ctx.sandbox, '/integration/list')).toHaveLength(1);
		expect(result.results.find((entry) => entry.value === DEMO.chats.alice.id)?.name).toBe(
			'Alice Martins · 5511987650001 · Attendance',
		);
		expect(result.results.find((entry) => entry.value === DEMO.chats.group.id)?.name).toBe(
			`Support team · ${DEMO.group.jid} · Groups`,
		);
		// Within a category, the API's order (most recent first) is kept.
		const attendance = result.results.filter((entry) => String(entry.name).endsWith('· Attendance'));
		expect(attendance.map((entry) => entry.value)).toEqual(
			ctx.sandbox.state.chatsIn('attendance').map((chat) => chat.id),
		);
	});

	test('filters by name, by phone number typed with formatting, by group JID and by internal ID', async () => {
		const search = async (filter: string) => (await searchChats(filter)).results.map((entry) => entry.value);
		expect(await search('alice')).toEqual([DEMO.chats.alice.id]);
		expect(await search('+55 (11) 98765-0002')).toEqual([DEMO.chats.lid.id]);
		// Fabio has a chat on each line: both are listed.
		expect((await search(DEMO.contacts.twoLines.phoneNumber)).sort()).toEqual(
			[DEMO.chats.twoLinesWhatsapp.id, DEMO.chats.twoLinesOfficial.id].sort(),
		);
		expect(await search(DEMO.group.jid)).toEqual([DEMO.chats.group.id]);
		expect(await search(DEMO.chats.pinned.id)).toEqual([DEMO.chats.pinned.id]);
		const none = await searchChats('nobody by this name');
		expect(none).toEqual({ results: [], paginationToken: undefined });
	});

	test('the same contact on two lines: each entry shows its line (integration name), one integration list asked', async () => {
		const result = await searchChats(DEMO.contacts.twoLines.phoneNumber);
		expect(result.results).toEqual([
			{ name: 'Fabio Reis · 5511987650006 · Support WhatsApp · Attendance', value: DEMO.chats.twoLinesWhatsapp.id },
			{ name: 'Fabio Reis · 5511987650006 · Official Channel · Queue', value: DEMO.chats.twoLinesOfficial.id },
		]);
		expect(requestsTo(ctx.sandbox, '/integration/list')).toHaveLength(1);
	});

	test('a contact on one line reads as before, and the integration list is not asked for', async () => {
		const result = await searchChats('alice');
		expect(result.results).toEqual([{ name: 'Alice Martins · 5511987650001 · Attendance', value: DEMO.chats.alice.id }]);
		expect(requestsTo(ctx.sandbox, '/integration/list')).toEqual([]);
	});

	test('the integration list failing: the two entries still differ, by the line\'s ID', async () => {
		ctx.sandbox.addFault({ path: '/integration/list', kind: 'status', status: 400, times: Infinity });
		const result = await searchChats(DEMO.contacts.twoLines.phoneNumber);
		expect(result.results.map((entry) => entry.name)).toEqual([
			`Fabio Reis · 5511987650006 · ${DEMO.integrations.whatsapp.id} · Attendance`,
			`Fabio Reis · 5511987650006 · ${DEMO.integrations.official.id} · Queue`,
		]);
	});

	test('token walk over 1000 more chats: every chat exactly once, pages of 100, each call ≥ 50 results or the end', async () => {
		ctx.sandbox.reset({ chats: 1000 });
		const calls = await walk();
		const values = valuesOf(calls);
		expect(new Set(values).size).toBe(values.length);
		expect([...values].sort()).toEqual(allChats().map((chat) => chat.id).sort());
		expect(values.length).toBe(1009);
		for (const [index, call] of calls.entries()) {
			expect(call.requests.length).toBeGreaterThanOrEqual(1);
			expect(call.requests.length).toBeLessThanOrEqual(10);
			for (const query of call.requests) expect(query.limit).toBe('100');
			const last = index === calls.length - 1;
			if (!last) {
				expect(call.result.results.length).toBeGreaterThanOrEqual(50);
				expect(call.result.paginationToken).toMatch(/^(attendance|queue|pinned|groups|finalized):\d+$/);
			}
		}
		// The first call: one full page of attendance, then "attendance:100".
		expect(calls[0].requests).toEqual([{ category: 'attendance', offset: '0', limit: '100' }]);
		expect(calls[0].result.paginationToken).toBe('attendance:100');
		// The walk asks for each category's pages in order, each offset once.
		const asked = calls.flatMap((call) => call.requests.map((query) => `${query.category}:${query.offset}`));
		expect(new Set(asked).size).toBe(asked.length);
		expect(asked.slice(0, 3)).toEqual(['attendance:0', 'attendance:100', 'attendance:200']);
	});

	test('a rare text: each call stops after 10 requests, the token carries on, every match is found once', async () => {
		ctx.sandbox.reset({ chats: 3000 });
		const expected = allChats()
			.filter((chat) => chat.name.toLowerCase().includes('customer 29'))
			.map((chat) => chat.id)
			.sort();
		expect(expected.length).toBeGreaterThan(0);
		const calls = await walk('Customer 29');
		const values = valuesOf(calls);
		expect(new Set(values).size).toBe(values.length);
		expect([...values].sort()).toEqual(expected);
		const budgetLimited = calls.filter(
			(call) => call.requests.length === 10 && call.result.results.length < 50,
		);
		expect(budgetLimited.length).toBeGreaterThan(0);
		for (const call of budgetLimited) expect(call.result.paginationToken).toBeDefined();
		for (const call of calls) expect(call.requests.length).toBeLessThanOrEqual(10);
	});

	test('a token from elsewhere starts from the beginning; a rejected API token is the shared NodeApiError', async () => {
		const fresh = await searchChats(undefined, 'not-a-token');
		expect(fresh.results).toHaveLength(allChats().length);
		await expect(
			node.methods.listSearch.searchChats.call(chatContext('wrong'), 'alice'),
		).rejects.toBeInstanceOf(NodeApiError);
	});
});

describe('load-options of the multi-selects', () => {
	const context = () =>
		loadOptionsContext(ctx.sandbox, { resource: 'chat', operation: 'getAll', filters: {} }, 'filters.attendantIds');

	test('getUsers: the company users by name; value = company user id (the attendant id); e-mail and status', async () => {
		const options = await node.methods.loadOptions.getUsers.call(context());
		expect(options).toEqual([
			{ name: 'Ana Souza', value: DEMO.users.ana.id, description: 'ana.souza@example.com · ONLINE' },
			{ name: 'Bruno Lima', value: DEMO.users.bruno.id, description: 'bruno.lima@example.com · OFFLINE' },
			{ name: 'Carla Dias', value: DEMO.users.carla.id, description: 'carla.dias@example.com · OFFLINE' },
		]);
		expect(requestsTo(ctx.sandbox, '/user/list')).toHaveLength(1);
	});

	test('getIntegrations: the integrations by name; value = id; status and id', async () => {
		const options = await node.methods.loadOptions.getIntegrations.call(context());
		expect(options.map((option) => option.name)).toEqual(['Official Channel', 'Sales WhatsApp (old)', 'Support WhatsApp']);
		expect(options[2]).toEqual({
			name: 'Support WhatsApp',
			value: DEMO.integrations.whatsapp.id,
			description: `CONNECTED · ${DEMO.integrations.whatsapp.id}`,
		});
	});

	test('the values they offer are what the chat filters send', async () => {
		const users = await node.methods.loadOptions.getUsers.call(context());
		const attendants = users.map((user) => String(user.value));
		// Every seeded chat in attendance with an attendant names one of the offered users (and
		// the seed has such chats, so the comparison is made).
		const assigned = ctx.sandbox.state
			.chatsIn('attendance')
			.flatMap((chat) => (chat.attendantId ? [chat.attendantId] : []));
		expect(assigned.length).toBeGreaterThan(0);
		expect(attendants).toEqual(expect.arrayContaining([...new Set(assigned)]));
	});
});
