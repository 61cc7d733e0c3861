/* eslint-disable -- development tooling, not shipped: n8n's node rules (eslint.config.mjs, n8n-node lint) are for nodes/ and credentials/ */
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { DEMO } from '../sandbox';
import { runNode, runNodeError, useSandbox } from '../helpers/node-runner';

const ctx = useSandbox();

describe('continueOnFail: one error item per failed input item, with pairedItem; the rest go on', () => {
	test('single-result operation: 4 items in (good, API error, invalid, good), 4 results out', async () => {
		const out = await runNode(ctx.sandbox, {
			continueOnFail: true,
			items: [{ name: 'Alpha' }, { name: DEMO.tags.vip.name }, { name: '' }, { name: 'Omega' }],
			parameters: { resource: 'tag', operation: 'create', name: '={{ $json.name }}' },
		});
		expect(out).toHaveLength(4);
		expect(out.map((item) => item.pairedItem)).toEqual([
			{ item: 0 },
			{ item: 1 },
			{ item: 2 },
			{ item: 3 },
		]);
		expect(out[0].json).toMatchObject({ name: 'Alpha' });
		expect(out[3].json).toMatchObject({ name: 'Omega' });
		expect(out[0].error).toBeUndefined();

		expect(out[1].error).toBeInstanceOf(NodeApiError);
		expect(out[1].json).toEqual({
			error: 'The request conflicts with existing data (HTTP 409): Name: a tag named \"VIP\" already exists',
			description: expect.stringContaining('A tag with this exact name already exists'),
			httpCode: '409',
		});
		expect(out[2].error).toBeInstanceOf(NodeOperationError);
		expect(out[2].json.error).toBe('Missing Name: a value is required [item 2]');

		// Item 2 was never sent.
		expect(ctx.sandbox.requests.map((r) => (r.body as { name: string }).name).sort()).toEqual(
			['Alpha', 'Omega', 'VIP'].sort(),
		);
	});

	test('list operation: every element is paired to its input item, failures too', async () => {
		const out = await runNode(ctx.sandbox, {
			continueOnFail: true,
			items: [{ tag: DEMO.tags.big.id }, { tag: 'not-an-id' }, { tag: DEMO.tags.vip.id }, { tag: DEMO.tags.empty.id }],
			parameters: {
				resource: 'tag',
				operation: 'getContacts',
				tag: { __rl: true, mode: 'id', value: '={{ $json.tag }}' },
				limit: 3,
			},
		});
		const vipCount = ctx.sandbox.state.tagMembers(DEMO.tags.vip.id).length;
		const pairs = out.map((item) => (item.pairedItem as { item: number }).item);
		expect(pairs).toEqual([0, 0, 0, 1, ...Array(Math.min(3, vipCount)).fill(2)]);
		expect(out[3].error).toBeInstanceOf(NodeOperationError);
		expect(out[3].json.error).toMatch(/^Invalid Tag: must be an ID.* \[item 1\]$/);
		expect(out.filter((item) => item.error)).toHaveLength(1);
		// Items 0, 2 and 3 were sent once each (limit 3 fits in one page); item 1 never.
		expect(ctx.sandbox.requests.map((r) => r.query.tagId).sort()).toEqual(
			[DEMO.tags.big.id, DEMO.tags.vip.id, DEMO.tags.empty.id].sort(),
		);
	});

	test('list operation: an API failure of one item (404) gives its error item, the others their lists', async () => {
		const out = await runNode(ctx.sandbox, {
			continueOnFail: true,
			items: [{ chat: 'c000000000000000000000000' }, { chat: DEMO.chats.alice.id }],
			parameters: {
				resource: 'message',
				operation: 'getAll',
				chatInternalId: '={{ $json.chat }}',
				returnAll: true,
			},
		});
		const aliceMessages = ctx.sandbox.state.chats.get(DEMO.chats.alice.id)!.messages.length;
		expect(out).toHaveLength(1 + aliceMessages);
		expect(out[0].error).toBeInstanceOf(NodeApiError);
		expect(out[0].json.httpCode).toBe('404');
		expect(out[0].pairedItem).toEqual({ item: 0 });
		expect(out.slice(1).every((item) => (item.pairedItem as { item: number }).item === 1)).toBe(true);
	});

	test('without continueOnFail the first failure stops the node and names its item', async () => {
		const error = await runNodeError(ctx.sandbox, {
			items: [{ name: 'Fine' }, { name: DEMO.tags.lead.name }],
			parameters: { resource: 'tag', operation: 'create', name: '={{ $json.name }}' },
		});
		expect(error).toBeInstanceOf(NodeApiError);
		expect(error.httpCode).toBe('409');
		expect((error.context as { itemIndex: number }).itemIndex).toBe(1);
	});
});
