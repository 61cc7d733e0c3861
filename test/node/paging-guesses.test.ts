/**
 * Issue 12, defects 3 and 4: Return All must not trust the paging names and sizes the node assumes.
 * The sandbox answers as an API that differs (test/sandbox/variants.ts); every walk either returns
 * exactly the sandbox's list or stops with an error naming the parameter and the option that fixes
 * it, after at most one repeated request. Through n8n-core's real RoutingNode over real HTTP.
 */
import type { INodeExecutionData, INodeParameters } from 'n8n-workflow';

import { runNode, runNodeError, useSandbox } from '../helpers/node-runner';
import { DEMO } from '../sandbox';

const ctx = useSandbox();

const chats = (extra: INodeParameters = {}): INodeParameters => ({
	resource: 'chat',
	operation: 'getAll',
	category: 'attendance',
	returnAll: true,
	...extra,
});
const contacts = (tagId: string, extra: INodeParameters = {}): INodeParameters => ({
	resource: 'tag',
	operation: 'getContacts',
	tagId,
	returnAll: true,
	...extra,
});
const templates = (extra: INodeParameters = {}): INodeParameters => ({
	resource: 'template',
	operation: 'getAll',
	integrationId: DEMO.integrations.official.id,
	returnAll: true,
	...extra,
});
const ids = (out: INodeExecutionData[]): string[] => out.map((item) => String(item.json.id));
const attendanceChats = (): string[] => ctx.sandbox.state.chatsIn('attendance').map((chat) => chat.id);
const bigTag = (): string[] => ctx.sandbox.state.tagMembers(DEMO.tags.big.id).map((m) => m.phoneNumber);

describe('offset ignored: a repeated page stops the walk with an error naming offset and its option', () => {
	test('chats: 2 requests (one repeated), no output', async () => {
		ctx.sandbox.setVariants({ offsetIgnored: true, pageSizeCap: 10 });
		const error = await runNodeError(ctx.sandbox, { parameters: chats() });
		expect(error.message).toMatch(/The API sent the same page again \(offset=10\): it seems to ignore the query parameter "offset"/);
		expect(String(error.description)).toContain('Options → Offset Parameter Name');
		expect(ctx.sandbox.requests).toHaveLength(2);
	});

	test('tag contacts with 4 concurrent pages: still 2 requests, never a wave of repeats', async () => {
		ctx.sandbox.setVariants({ offsetIgnored: true });
		const error = await runNodeError(ctx.sandbox, { parameters: contacts(DEMO.tags.big.id) });
		expect(error.message).toMatch(/ignore the query parameter "offset"/);
		expect(ctx.sandbox.requests.map((r) => r.query.offset)).toEqual(['0', '100']);
	});

	test('messages: the same', async () => {
		ctx.sandbox.setVariants({ offsetIgnored: true, pageSizeCap: 2 });
		const error = await runNodeError(ctx.sandbox, {
			parameters: { resource: 'message', operation: 'getAll', chatInternalId: DEMO.chats.alice.id, returnAll: true },
		});
		expect(error.message).toMatch(/ignore the query parameter "offset"/);
		expect(ctx.sandbox.requests).toHaveLength(2);
	});
});

describe('page size capped below what the node asks: the walk advances by what it received', () => {
	test('chats capped at 7 (the node asks 1000): every chat once, in order', async () => {
		ctx.sandbox.setVariants({ pageSizeCap: 7 });
		const out = await runNode(ctx.sandbox, { parameters: chats() });
		expect(ids(out)).toEqual(attendanceChats());
		expect(attendanceChats().length).toBeGreaterThan(7);
		// offsets 0, 7, 14, …: each page starts where the previous one ended
		const offsets = ctx.sandbox.requests.map((r) => Number(r.query.offset));
		offsets.slice(1).forEach((offset, i) => expect(offset - offsets[i]).toBe(7));
	});

	test('tag contacts capped at 30 (the node asks 100), 4 at a time: all 150 once, in order', async () => {
		ctx.sandbox.setVariants({ pageSizeCap: 30 });
		const out = await runNode(ctx.sandbox, { parameters: contacts(DEMO.tags.big.id) });
		expect(out.map((item) => item.json.phoneNumber)).toEqual(bigTag());
		expect(out).toHaveLength(150);
	});

	test('templates capped at 25 (the node asks 250): every template once', async () => {
		ctx.sandbox.setVariants({ pageSizeCap: 25 });
		const out = await runNode(ctx.sandbox, { parameters: templates() });
		const all = ctx.sandbox.state.templates.get(DEMO.integrations.official.id)!.list.map((t) => t.id);
		expect(ids(out)).toEqual(all);
	});

	test('Limit 12 with a cap of 5: exactly 12', async () => {
		ctx.sandbox.setVariants({ pageSizeCap: 5 });
		const out = await runNode(ctx.sandbox, { parameters: chats({ returnAll: false, limit: 12 }) });
		expect(ids(out)).toEqual(attendanceChats().slice(0, 12));
	});
});

describe('paging names different: an error naming the parameter, then right with the option set', () => {
	test('chats paged by skip/take: error naming "offset", then the whole list with the names set', async () => {
		ctx.sandbox.setVariants({ pagingNames: { offset: 'skip', limit: 'take' }, pageSizeCap: 10 });
		const error = await runNodeError(ctx.sandbox, { parameters: chats() });
		expect(error.message).toMatch(/"offset"/);
		expect(String(error.description)).toContain('Offset Parameter Name');
		ctx.sandbox.clearRequests();
		const out = await runNode(ctx.sandbox, {
			parameters: chats({ options: { offsetParameter: 'skip', pageSizeParameter: 'take' } }),
		});
		expect(ids(out)).toEqual(attendanceChats());
		expect(ctx.sandbox.requests[1].query).toMatchObject({ skip: '10', take: '1000' });
	});

	test('templates with the cursor named "cursor": error naming "after", then right with the option set', async () => {
		ctx.sandbox.setVariants({ pagingNames: { cursor: 'cursor', limit: 'pageSize' } });
		const error = await runNodeError(ctx.sandbox, { parameters: templates() });
		expect(error.message).toMatch(/ignore the query parameter "after"/);
		expect(String(error.description)).toContain('Options → Cursor Parameter Name');
		expect(ctx.sandbox.requests).toHaveLength(2);
		ctx.sandbox.clearRequests();
		const out = await runNode(ctx.sandbox, {
			parameters: templates({ options: { cursorParameter: 'cursor', pageSizeParameter: 'pageSize' } }),
		});
		expect(ids(out)).toEqual(ctx.sandbox.state.templates.get(DEMO.integrations.official.id)!.list.map((t) => t.id));
	});

	test('a paging name with a space is refused before anything is sent', async () => {
		const error = await runNodeError(ctx.sandbox, { parameters: chats({ options: { offsetParameter: 'page offset' } }) });
		expect(error.message).toMatch(/Invalid Offset Parameter Name/);
		expect(ctx.sandbox.requests).toHaveLength(0);
	});
});

describe('cursor ignored: a repeated page stops the walk', () => {
	test('templates: 2 requests, error naming "after" and its option', async () => {
		ctx.sandbox.setVariants({ cursorIgnored: true, pageSizeCap: 25 });
		const error = await runNodeError(ctx.sandbox, { parameters: templates() });
		expect(error.message).toMatch(/ignore the query parameter "after"/);
		expect(String(error.description)).toContain('Cursor Parameter Name');
		expect(ctx.sandbox.requests).toHaveLength(2);
	});
});

describe('a list that never ends: the last-resort cap', () => {
	// README and docs/reliability.md: no list walk sends more than 1 000 pages.
	test('stops after 1 000 pages with a clear error, never a flood', async () => {
		ctx.sandbox.setVariants({ endlessChats: true, pageSizeCap: 1 });
		const error = await runNodeError(ctx.sandbox, { parameters: chats() });
		expect(error.message).toBe('The list did not end after 1000 pages');
		expect(String(error.description)).toMatch(/Limit/);
		expect(ctx.sandbox.requests).toHaveLength(1000);
	}, 60_000);
});

describe('Tag → Get Contacts drops nothing the API returns (defect 4)', () => {
	test('one number on two chats and two LID-only contacts without a number: every entry comes out', async () => {
		ctx.sandbox.setVariants({ sharedPhones: true });
		const out = await runNode(ctx.sandbox, { parameters: contacts(DEMO.tags.lead.id) });
		const answered = ctx.sandbox.requests.map((r) => r.status);
		expect(answered.every((status) => status === 200)).toBe(true);
		const phones = out.map((item) => item.json.phoneNumber);
		expect(phones.filter((phone) => phone === DEMO.contacts.twoLines.phoneNumber)).toHaveLength(2);
		expect(phones.filter((phone) => phone === '')).toHaveLength(2);
		// as many as the API's total
		expect(out).toHaveLength(ctx.sandbox.state.tagMembers(DEMO.tags.lead.id).length + 3);
	});
});
