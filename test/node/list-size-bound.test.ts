/**
 * The bound on one input item's list (paging/bound.ts), lowered to 1 000 for this file so that the
 * lists without a total (chats: offset pages until a short one; templates: a cursor) reach it with a
 * few pages. The bound is a module of its own, substituted here by jest.mock; the expectations are
 * this file's own figure (1 000). The documented bound itself (100 000) is asserted in
 * test/node/list-size.test.ts on a tag of 200 000 contacts.
 */
jest.mock('../../nodes/ConversationInbox/helpers/paging/bound', () => ({
	...jest.requireActual('../../nodes/ConversationInbox/helpers/paging/bound'),
	MAX_ITEMS_PER_INPUT_ITEM: 1000,
}));

import { DEMO } from '../sandbox';
import { jsonOf, runNode, runNodeError, useSandbox } from '../helpers/node-runner';

const ctx = useSandbox();

const chats = (extra: Record<string, unknown> = {}) => ({ resource: 'chat', operation: 'getAll', returnAll: true, ...extra });
const tagContacts = { resource: 'tag', operation: 'getContacts', tag: { __rl: true, mode: 'id', value: DEMO.tags.big.id }, returnAll: true };
const templates = { resource: 'template', operation: 'getAll', integrationId: DEMO.templates.integrationId, returnAll: true };

describe('a list without a total, longer than the bound', () => {
	beforeEach(() => {
		ctx.sandbox.reset({ chats: 6000, messagesPerChat: 1 });
		// the category holds between 1 000 and 2 000 chats: one page past the bound
		expect(ctx.sandbox.state.chatsIn('attendance').length).toBeGreaterThan(1001);
	});

	test('chats: the error after the element past the bound; the last request asks for that one element only', async () => {
		const error = await runNodeError(ctx.sandbox, { parameters: chats() });
		expect(error.message).toBe('The list has more than 1 000 chats: more than one input item can return as separate items (1 000)');
		expect(String(error.description)).toContain('turn on Options → One Item per Page');
		expect(ctx.sandbox.requests.map((r) => [r.query.offset, r.query.limit])).toEqual([
			['0', '1000'],
			['1000', '1'],
		]);
	});

	test('chats with One Item per Page: every chat, one item per page, no error', async () => {
		const expected = ctx.sandbox.state.chatsIn('attendance').length;
		const out = jsonOf(await runNode(ctx.sandbox, { parameters: chats({ options: { oneItemPerPage: true } }) }));
		expect(out.map((item) => [item.page, (item.chats as unknown[]).length])).toEqual([
			[1, 1000],
			[2, expected - 1000],
		]);
	});

	test('templates (cursor): the error after the element past the bound, no page after it', async () => {
		ctx.sandbox.reset({ templates: 1600 });
		const error = await runNodeError(ctx.sandbox, { parameters: templates });
		expect(error.message).toBe('The list has more than 1 000 templates: more than one input item can return as separate items (1 000)');
		expect(ctx.sandbox.requests.map((r) => r.query.limit)).toEqual(['250', '250', '250', '250', '1']);
	});
});

describe('a list with a total', () => {
	test('exactly at the bound: all 1 000 contacts, no error', async () => {
		ctx.sandbox.reset({ contactsOnBigTag: 1000 });
		const out = await runNode(ctx.sandbox, { parameters: tagContacts });
		expect(out).toHaveLength(1000);
	});

	test('one past the bound: the error after the first page, which gave the total', async () => {
		ctx.sandbox.reset({ contactsOnBigTag: 1001 });
		const error = await runNodeError(ctx.sandbox, { parameters: tagContacts });
		expect(error.message).toBe('The list has 1 001 contacts: more than one input item can return as separate items (1 000)');
		expect(ctx.sandbox.requests).toHaveLength(1);
	});

	test('a Limit at the bound on a longer list: the first 1 000, no error', async () => {
		ctx.sandbox.reset({ contactsOnBigTag: 1500 });
		const out = await runNode(ctx.sandbox, { parameters: { ...tagContacts, returnAll: false, limit: 1000 } });
		expect(out).toHaveLength(1000);
	});
});
