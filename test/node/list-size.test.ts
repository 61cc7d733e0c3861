/**
 * No list size crashes n8n (issue 24): n8n's RoutingNode passes one input item's output on with
 * `returnData.push(...items)`, which overflows the stack at about 125 000 items. A list longer than
 * the node's documented bound (100 000 elements per input item, docs/performance.md) stops with an
 * error that says how to get it, before any request past that point; Options → One Item per Page
 * gives it as one item per page. Through n8n-core's RoutingNode against the sandbox.
 * (test/node/list-size-bound.test.ts runs the lists without a total under a lowered bound.)
 */
import { DEMO } from '../sandbox';
import { jsonOf, runNode, runNodeError, useSandbox } from '../helpers/node-runner';

const ctx = useSandbox();

const tagContacts = (extra: Record<string, unknown> = {}) => ({
	resource: 'tag',
	operation: 'getContacts',
	tag: { __rl: true, mode: 'id', value: DEMO.tags.big.id },
	returnAll: true,
	...extra,
});

describe('a tag with 200 000 contacts (the API gives its total)', () => {
	beforeEach(() => ctx.sandbox.reset({ contactsOnBigTag: 200_000 }));

	test('Return All: stops after the first page with the error that says how to get them, no request past it', async () => {
		const error = await runNodeError(ctx.sandbox, { parameters: tagContacts() });
		expect(error.message).toBe('The list has 200 000 contacts: more than one input item can return as separate items (100 000)');
		expect(String(error.description)).toContain('when one input item returns more than about 125 000 items');
		expect(String(error.description)).toContain('To get them all, turn on Options → One Item per Page');
		expect(String(error.description)).toContain('set a Limit of 100 000 or less');
		expect(ctx.sandbox.requests.map((r) => r.query.offset)).toEqual(['0']);
	});

	test('a Limit above 100 000 stops the same way; under Continue On Fail it is the item\'s error', async () => {
		const out = await runNode(ctx.sandbox, { parameters: tagContacts({ returnAll: false, limit: 150_000 }), continueOnFail: true });
		expect(out).toHaveLength(1);
		expect(out[0].json.error).toBe('The list has 200 000 contacts: more than one input item can return as separate items (100 000)');
		expect(ctx.sandbox.requests).toHaveLength(1);
	});
});

describe('Options → One Item per Page', () => {
	test('a 250-contact tag gives 3 items of 100, 100 and 50 contacts: the same contacts in the same order', async () => {
		ctx.sandbox.reset({ contactsOnBigTag: 250 });
		const perContact = jsonOf(await runNode(ctx.sandbox, { parameters: tagContacts() }));
		const perPage = jsonOf(await runNode(ctx.sandbox, { parameters: tagContacts({ options: { oneItemPerPage: true } }) }));
		expect(perPage.map((item) => [item.page, (item.contacts as unknown[]).length])).toEqual([
			[1, 100],
			[2, 100],
			[3, 50],
		]);
		expect(perPage.flatMap((item) => item.contacts)).toEqual(perContact);
		expect(perContact).toHaveLength(250);
	});

	test('a whole list (integrations, one call): one item holding the whole list', async () => {
		const integrations = { resource: 'integration', operation: 'getAll', returnAll: true };
		const perElement = jsonOf(await runNode(ctx.sandbox, { parameters: integrations }));
		const perPage = jsonOf(await runNode(ctx.sandbox, { parameters: { ...integrations, options: { oneItemPerPage: true } } }));
		expect(perPage).toEqual([{ page: 1, integrations: perElement }]);
		expect(perElement.length).toBeGreaterThan(1);
	});

	test('off by default: one item per contact', async () => {
		const out = jsonOf(await runNode(ctx.sandbox, { parameters: tagContacts({ returnAll: false, limit: 3 }) }));
		expect(out).toHaveLength(3);
		expect(out[0].contacts).toBeUndefined();
	});
});
