/**
 * Tag → Get Contacts fetches the pages after the first one concurrently (Options → Concurrent Page
 * Requests, default 4), through n8n-core's real RoutingNode over real HTTP against the sandbox with
 * latency. Order and completeness are compared with the sandbox's state; the number of requests in
 * flight is measured on the sandbox's side, with the concurrent pages held by the sandbox until as
 * many as the setting allows are on the wire (so a busy machine cannot make the count smaller). No
 * assertion here is about speed or clock order (scripts/bench/pagination.ts prints the figures).
 */
import type { INodeExecutionData, INodeParameters, INodeProperties } from 'n8n-workflow';
import { actionDescription } from '../helpers/action-node';
import { NodeHelpers, NodeOperationError } from 'n8n-workflow';

import { DEMO } from '../sandbox';
import { runNode, runNodeError, useSandbox } from '../helpers/node-runner';
import { operationsOf, panelOf } from '../helpers/operations';

const CONTACTS = 1050;
const ctx = useSandbox({ latencyMs: 30, seed: { contactsOnBigTag: CONTACTS } });

const BIG = DEMO.tags.big.id;
const getContacts = (extra: INodeParameters): INodeParameters => ({
	resource: 'tag',
	operation: 'getContacts',
	tagId: BIG,
	...extra,
});
const withConcurrency = (n: unknown): INodeParameters => ({ options: { concurrentPageRequests: n } as INodeParameters });
const members = (): string[] => ctx.sandbox.state.tagMembers(BIG).map((member) => member.phoneNumber);
const phones = (out: INodeExecutionData[]): string[] => out.map((item) => String(item.json.phoneNumber));
/** `offset/limit` of every page request, in arrival order */
const pagesSent = (): string[] => ctx.sandbox.requests.map((r) => `${r.query.offset}/${r.query.limit}`);
const sorted = (pages: string[]): string[] => [...pages].sort((a, b) => parseInt(a) - parseInt(b));
const wholePages = (count: number): string[] => Array.from({ length: count }, (_, i) => `${i * 100}/100`);

/**
 * Runs the node while the sandbox holds the pages after the first two (the offset probe) until
 * `wave` of them are on the wire at once, then lets everything through.
 */
async function runWithWave(wave: number, parameters: INodeParameters): Promise<INodeExecutionData[]> {
	const hold = ctx.sandbox.hold({ path: '/tag/list-contacts', skip: 2 });
	const out = runNode(ctx.sandbox, { parameters });
	try {
		await hold.waitFor(wave);
	} finally {
		hold.release();
	}
	return await out;
}

describe('Return All: every contact once, in the API\'s order, whatever the concurrency', () => {
	test.each([1, 4, 10])('concurrency %i: 1 050 contacts in 11 pages; at most that many requests in flight', async (n) => {
		const out = await runWithWave(Math.min(n, 9), getContacts({ returnAll: true, ...withConcurrency(n) }));
		expect(phones(out)).toEqual(members());
		expect(out).toHaveLength(CONTACTS);
		expect(new Set(phones(out)).size).toBe(CONTACTS);
		expect(out.every((item) => (item.pairedItem as { item: number }).item === 0)).toBe(true);
		// One request per page, no page twice or missing: 0, 100, …, 1000 (each asks a whole page).
		expect(sorted(pagesSent())).toEqual(wholePages(11));
		expect(pagesSent()[0]).toBe('0/100');
		expect(ctx.sandbox.maxInFlight).toBeLessThanOrEqual(n);
		// The first two pages go one after the other (the second proves the API honours the offset,
		// issue 12); 9 pages follow, held until as many as allowed are in flight: the setting is reached.
		expect(ctx.sandbox.maxInFlight).toBe(Math.min(n, 9));
	});

	test('default (no option set): 4 pages at a time', async () => {
		const out = await runWithWave(4, getContacts({ returnAll: true }));
		expect(phones(out)).toEqual(members());
		expect(ctx.sandbox.maxInFlight).toBe(4);
	});

	test('concurrency 1 is the old sequential walk: pages in order, each sent after the previous answer', async () => {
		const out = await runNode(ctx.sandbox, { parameters: getContacts({ returnAll: true, ...withConcurrency(1) }) });
		expect(phones(out)).toEqual(members());
		expect(pagesSent()).toEqual(wholePages(11));
		const requests = ctx.sandbox.requests;
		// Sandbox sequence numbers, not clock readings: each page arrived after the previous answer.
		for (let i = 1; i < requests.length; i++) {
			expect(requests[i].seq).toBeGreaterThan(requests[i - 1].answeredSeq!);
		}
		expect(ctx.sandbox.maxInFlight).toBe(1);
	});

	test('a list that fits in the first page: one request, nothing concurrent', async () => {
		ctx.sandbox.reset({ contactsOnBigTag: 100 });
		const out = await runNode(ctx.sandbox, { parameters: getContacts({ returnAll: true, ...withConcurrency(10) }) });
		expect(pagesSent()).toEqual(['0/100']);
		expect(phones(out)).toEqual(members());
	});

	test('two input items: each walks its own tag, output grouped per item and paired', async () => {
		const out = await runNode(ctx.sandbox, {
			items: [{ tag: BIG }, { tag: DEMO.tags.vip.id }],
			parameters: getContacts({ tagId: '={{ $json.tag }}', returnAll: true, ...withConcurrency(3) }),
		});
		const vip = ctx.sandbox.state.tagMembers(DEMO.tags.vip.id).map((member) => member.phoneNumber);
		expect(phones(out)).toEqual([...members(), ...vip]);
		expect(out.map((item) => (item.pairedItem as { item: number }).item)).toEqual([
			...members().map(() => 0),
			...vip.map(() => 1),
		]);
	});
});

describe('Limit: exactly that many, no page it does not need, the last page asks only for what is missing', () => {
	test.each<[number, string[]]>([
		[30, ['0/30']],
		[100, ['0/100']],
		[101, ['0/100', '100/1']],
		[250, ['0/100', '100/100', '200/50']],
		[1001, [...wholePages(10), '1000/1']],
		// More than the tag has: the total caps the plan; the last page asks for the 50 that exist.
		[5000, [...wholePages(10), '1000/50']],
	])('Limit %i (concurrency 4)', async (limit, expected) => {
		const out = await runNode(ctx.sandbox, { parameters: getContacts({ returnAll: false, limit, ...withConcurrency(4) }) });
		expect(sorted(pagesSent())).toEqual(expected);
		expect(phones(out)).toEqual(members().slice(0, limit));
	});

	test('Limit 350 with concurrency 10: still 4 requests, the 2 after the offset probe at once', async () => {
		const out = await runWithWave(2, getContacts({ limit: 350, ...withConcurrency(10) }));
		expect(sorted(pagesSent())).toEqual(['0/100', '100/100', '200/100', '300/50']);
		expect(pagesSent().slice(0, 2)).toEqual(['0/100', '100/100']);
		expect(ctx.sandbox.maxInFlight).toBe(2);
		expect(out).toHaveLength(350);
	});
});

describe('a big tag: its total, not the last-resort cap, bounds the walk', () => {
	test(`1 050 contacts in pages of one (the API caps the page size): all of them, in ${CONTACTS} requests, past the 1 000-page cap`, async () => {
		ctx.sandbox.setVariants({ pageSizeCap: 1 });
		const out = await runNode(ctx.sandbox, { parameters: getContacts({ returnAll: true, ...withConcurrency(10) }) });
		expect(phones(out)).toEqual(members());
		expect(ctx.sandbox.requests).toHaveLength(CONTACTS);
		// README: no walk sends more than 1 000 pages, except a list with a total.
		expect(CONTACTS).toBeGreaterThan(1000);
	}, 60_000);
});

describe('the tag changes while it is paged', () => {
	const EXTRA = [DEMO.contacts.alice, DEMO.contacts.noChat, DEMO.contacts.pinned].map((c) => c.phoneNumber);

	/** Tags three more contacts (newest first in the list) just before the second page is handled. */
	function addThreeAfterFirstPage(): void {
		let done = false;
		ctx.sandbox.beforeHandle = (request, state) => {
			if (done || request.query.offset === '0') return;
			done = true;
			const newest = state.tagMembers(BIG)[0].addedAtMs;
			EXTRA.forEach((phone, i) => state.tagContact(state.contacts.get(phone)!, BIG, newest + (i + 1) * 60_000));
		};
	}

	test('Return All, 3 contacts added: the shifted copies are dropped, nothing duplicated, nothing missing', async () => {
		const before = members().slice();
		addThreeAfterFirstPage();
		const out = await runNode(ctx.sandbox, { parameters: getContacts({ returnAll: true, ...withConcurrency(4) }) });
		// The new contacts sit before the first page's end (the list is newest first): this run had
		// read past them already. Every contact that was on the tag at the start comes once, in order.
		expect(members()).toHaveLength(CONTACTS + 3);
		expect(phones(out)).toEqual(before);
		expect(sorted(pagesSent())).toEqual(wholePages(11));
	});

	test('Limit 250, 3 contacts added: exactly 250, no copies; the last page asks for the 3 the copies left missing', async () => {
		const before = members().slice();
		addThreeAfterFirstPage();
		const out = await runNode(ctx.sandbox, { parameters: getContacts({ limit: 250, ...withConcurrency(4) }) });
		expect(phones(out)).toEqual(before.slice(0, 250));
		// The second page (the offset probe) held the 3 copies, so the plan already asks for 53.
		expect(pagesSent()).toEqual(['0/100', '100/100', '200/53']);
	});

	test('contacts removed while paging: no copies and nothing invented (a contact shifted across a page boundary can be missed: documented)', async () => {
		const before = members().slice();
		let done = false;
		ctx.sandbox.beforeHandle = (request, state) => {
			if (done || request.query.offset === '0') return;
			done = true;
			for (const phone of before.slice(10, 13)) state.untagContact(state.contacts.get(phone)!, BIG);
		};
		const out = await runNode(ctx.sandbox, { parameters: getContacts({ returnAll: true, ...withConcurrency(4) }) });
		const got = phones(out);
		expect(new Set(got).size).toBe(got.length);
		const known = new Set(before);
		expect(got.every((phone) => known.has(phone))).toBe(true);
		// The 3 removed ones came with the first page; later pages moved up by 3: 3 are missed.
		expect(got).toHaveLength(CONTACTS - 3);
		expect(got.slice(0, 100)).toEqual(before.slice(0, 100));
	});
});

describe('Options → Concurrent Page Requests', () => {
	const description = actionDescription();
	const options = panelOf(description, 'tag', 'getContacts').find((p) => p.name === 'options')!;
	const entries = (options.options as INodeProperties[]).filter((o) => o.name === 'concurrentPageRequests');

	test('a number 1-10, default 4, on the offset lists only (Tag → Get Contacts, Chat → Get Many, Message → Get Many)', () => {
		expect(entries).toHaveLength(2);
		for (const entry of entries) {
			expect(entry).toMatchObject({
				displayName: 'Concurrent Page Requests',
				type: 'number',
				default: 4,
				typeOptions: { minValue: 1, maxValue: 10 },
			});
		}
		const withOption = [1, 2].flatMap((version) =>
			operationsOf(description)
				.filter(({ resource, operation }) =>
					panelOf(description, resource, operation, version).some(
						(p) => p.name === 'options' && (p.options as INodeProperties[]).some((o) => o.name === 'concurrentPageRequests'),
					),
				)
				.map(({ resource, operation }) => `${resource}.${operation} v${version}`),
		);
		expect(withOption.sort()).toEqual([
			'chat.getAll v1',
			'chat.getAll v2',
			'message.getAll v1',
			'message.getAll v2',
			'tag.getContacts v1',
			'tag.getContacts v2',
		]);
		expect((options.options as INodeProperties[]).map((o) => o.displayName)).toEqual([
			'Concurrent Page Requests',
			'Concurrent Page Requests',
			'Extra Query Parameters',
			'Offset Parameter Name',
			'One Item per Page',
			'Page Size Parameter Name',
			'Rename Sent Fields',
		]);
	});

	test.each<[string, boolean, INodeParameters]>([
		['Return All', true, { returnAll: true }],
		['Return All (a Limit left from before)', true, { returnAll: true, limit: 20 }],
		['Limit 101 (two pages)', true, { returnAll: false, limit: 101 }],
		['Limit from an expression', true, { returnAll: false, limit: '={{ 500 }}' }],
		['Limit 100 (one page)', false, { returnAll: false, limit: 100 }],
		['Limit 50 (the default)', false, { returnAll: false }],
	])('%s: the option is shown (and its value kept by n8n): %s', (_label, shown, list) => {
		const stored: INodeParameters = {
			resource: 'tag',
			operation: 'getContacts',
			tagId: BIG,
			...list,
			options: { concurrentPageRequests: 7 },
		};
		// What the editor and the workflow loader keep of the parameters (hidden values are dropped).
		const kept = NodeHelpers.getNodeParameters(description.properties, stored, false, false, { typeVersion: 2 }, description);
		const value = (kept?.options as INodeParameters | undefined)?.concurrentPageRequests;
		expect(value).toBe(shown ? 7 : undefined);
	});

	test.each<[unknown, string]>([
		[0, '0'],
		[11, '11'],
		[2.5, '2.5'],
		['many', '"many"'],
	])('%p is refused before anything is sent: error naming the field and the item', async (value, shown) => {
		const error = await runNodeError(ctx.sandbox, { parameters: getContacts({ returnAll: true, ...withConcurrency(value) }) });
		expect(error.message).toBe(
			`Invalid Concurrent Page Requests: must be a whole number from 1 to 10, got ${shown}`,
		);
		// RoutingNode may re-wrap the error in a NodeApiError; ours is then its cause.
		const original = error instanceof NodeOperationError ? error : (error.cause as Error);
		expect(original).toBeInstanceOf(NodeOperationError);
		expect((original as NodeOperationError).context.itemIndex).toBe(0);
		expect(String(error.description)).toContain('Nothing was sent to the API');
		expect(ctx.sandbox.requests).toHaveLength(0);
	});

	test('from an expression: "3" is read as 3; under continueOnFail a bad value gives one paired error item', async () => {
		const out = await runWithWave(3, getContacts({ returnAll: true, ...withConcurrency('={{ "3" }}') }));
		expect(out).toHaveLength(CONTACTS);
		expect(ctx.sandbox.maxInFlight).toBe(3);

		ctx.sandbox.clearRequests();
		const failed = await runNode(ctx.sandbox, {
			continueOnFail: true,
			items: [{ n: 99 }, { n: 2 }],
			parameters: getContacts({ returnAll: true, ...withConcurrency('={{ $json.n }}') }),
		});
		expect(failed[0]).toMatchObject({ json: { error: expect.stringContaining('Concurrent Page Requests') }, pairedItem: { item: 0 } });
		expect(failed.slice(1)).toHaveLength(CONTACTS);
		expect(failed.slice(1).every((item) => (item.pairedItem as { item: number }).item === 1)).toBe(true);
		expect(ctx.sandbox.requests).toHaveLength(11);
	});
});
