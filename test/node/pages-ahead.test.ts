/**
 * Chat → Get Many and Message → Get Many (offset pages, no total) fetch the pages after the first
 * two ahead, `Concurrent Page Requests` at a time (default 4), and stop at the first short or empty
 * page: at most concurrency - 1 requests go past the end. Through n8n-core's real RoutingNode over
 * real HTTP against the sandbox; many small pages come from the sandbox's pageSizeCap variant (the
 * API answers at most that many elements, whatever was asked). What must be on the wire at the same
 * time is arranged with the sandbox's holds, never read from a clock.
 */
import type { INodeExecutionData, INodeParameters } from 'n8n-workflow';

import { DEMO } from '../sandbox';
import { runNode, useSandbox } from '../helpers/node-runner';

const ctx = useSandbox({ latencyMs: 5 });

const LISTS = {
	chats: {
		path: '/inbox/find-all-chats',
		parameters: { resource: 'chat', operation: 'getAll', returnAll: true } as INodeParameters,
		expected: (): string[] => ctx.sandbox.state.chatsIn('attendance').map((chat) => chat.id),
	},
	messages: {
		path: '/inbox/find-messages-from-inbox',
		parameters: { resource: 'message', operation: 'getAll', chatInternalId: DEMO.chats.alice.id, returnAll: true } as INodeParameters,
		expected: (): string[] => [...ctx.sandbox.state.chats.get(DEMO.chats.alice.id)!.messages].reverse().map((message) => message.id),
	},
} as const;
type List = keyof typeof LISTS;

const ids = (out: INodeExecutionData[]): string[] => out.map((item) => String(item.json.id));
/** the offsets asked for, in arrival order */
const offsets = (list: List): number[] =>
	ctx.sandbox.requests.filter((r) => r.path === `/v2${LISTS[list].path}`).map((r) => Number(r.query.offset));

beforeEach(() => ctx.sandbox.setVariants({ pageSizeCap: 1 }));

describe.each<List>(['chats', 'messages'])('%s in pages of one element', (list) => {
	test('Return All, concurrency 4: after the first two pages, four on the wire at once; everything once, in order; at most 3 past the end', async () => {
		const { sandbox } = ctx;
		const expected = LISTS[list].expected();
		// The pages after the first two are held until four of them are on the wire.
		const wave = sandbox.hold({ path: LISTS[list].path, skip: 2 });
		const running = runNode(sandbox, { parameters: LISTS[list].parameters });
		try {
			await wave.waitFor(4);
		} finally {
			wave.release();
		}
		const out = await running;
		expect(ids(out)).toEqual(expected);
		expect(offsets(list).slice(0, 2)).toEqual([0, 1]);
		const asked = [...offsets(list)].sort((a, b) => a - b);
		// Every page once, the empty one at the end included; what went past it is wasted.
		expect(asked.slice(0, expected.length + 1)).toEqual(Array.from({ length: expected.length + 1 }, (_, i) => i));
		const wasted = asked.length - (expected.length + 1);
		expect(wasted).toBeGreaterThanOrEqual(0);
		expect(wasted).toBeLessThanOrEqual(3);
		expect(sandbox.maxInFlight).toBeLessThanOrEqual(4);
	});

	test('a Limit fetches exactly the pages it needs, none past it', async () => {
		const out = await runNode(ctx.sandbox, { parameters: { ...LISTS[list].parameters, returnAll: false, limit: 4 } });
		expect(ids(out)).toEqual(LISTS[list].expected().slice(0, 4));
		expect([...offsets(list)].sort((a, b) => a - b)).toEqual([0, 1, 2, 3]);
	});

	test('concurrency 1: one page after the other, nothing past the end', async () => {
		const out = await runNode(ctx.sandbox, {
			parameters: { ...LISTS[list].parameters, options: { concurrentPageRequests: 1 } },
		});
		const expected = LISTS[list].expected();
		expect(ids(out)).toEqual(expected);
		expect(offsets(list)).toEqual(Array.from({ length: expected.length + 1 }, (_, i) => i));
		expect(ctx.sandbox.maxInFlight).toBe(1);
	});
});

test('a short page ends the list: 12 chats in pages of 5 are pages 0, 5 and 10, nothing is asked after the short one', async () => {
	ctx.sandbox.setVariants({ pageSizeCap: 5 });
	const out = await runNode(ctx.sandbox, { parameters: LISTS.chats.parameters });
	expect(ids(out)).toEqual(LISTS.chats.expected());
	expect(LISTS.chats.expected()).toHaveLength(12);
	const asked = [...offsets('chats')].sort((a, b) => a - b);
	expect(asked.slice(0, 3)).toEqual([0, 5, 10]);
	// Fetched ahead before page 10 came back short: at most 3, all on the planned page grid.
	expect(asked.length).toBeLessThanOrEqual(6);
	expect(asked.every((offset) => offset % 5 === 0)).toBe(true);
});

test('an API that refuses an offset past the end (400): the pages fetched ahead after the short page are dropped, not the list', async () => {
	ctx.sandbox.setVariants({ pageSizeCap: 5 });
	for (const offset of ['15', '20', '25']) {
		ctx.sandbox.addFault({ path: LISTS.chats.path, query: { offset }, kind: 'status', status: 400, message: 'offset out of range', times: Infinity });
	}
	// The round after the offset probe asks for 10, 15, 20 and 25 at once; page 10 (2 chats, the
	// short last page) is held until the three refusals have been answered.
	const page10 = ctx.sandbox.hold({ path: LISTS.chats.path, query: { offset: '10' } });
	const running = runNode(ctx.sandbox, { parameters: LISTS.chats.parameters });
	const refused = () => ctx.sandbox.requests.filter((r) => r.status === 400 && r.answeredSeq !== undefined);
	try {
		await ctx.sandbox.waitForRequests(() => refused().length === 3);
	} finally {
		page10.release();
	}
	const out = await running;
	expect(ids(out)).toEqual(LISTS.chats.expected());
	expect(refused().map((r) => Number(r.query.offset)).sort((a, b) => a - b)).toEqual([15, 20, 25]);
});

test('an API that ignores the offset still costs two requests, not four: the repeat is seen on the second page', async () => {
	ctx.sandbox.setVariants({ pageSizeCap: 1, offsetIgnored: true });
	await expect(runNode(ctx.sandbox, { parameters: LISTS.chats.parameters })).rejects.toThrow(/same page again/);
	expect(offsets('chats')).toEqual([0, 1]);
});
