import type { INodeParameters } from 'n8n-workflow';

import mcpExample from '../../examples/workflows/mcp-server-for-your-inbox.json';
import { DEMO } from '../sandbox';
import { jsonOf, onlyRequest, runNode, runNodeError, useSandbox } from '../helpers/node-runner';

const ctx = useSandbox();

describe('tag create (POST /tag/create)', () => {
	test('sends name and color with the bearer token and returns the tag itself', async () => {
		const out = await runNode(ctx.sandbox, {
			parameters: {
				resource: 'tag',
				operation: 'create',
				name: 'Gold Customer',
				additionalFields: { color: '#1A73E8' },
			},
		});
		const request = onlyRequest(ctx.sandbox);
		expect(request.method).toBe('POST');
		expect(request.path).toBe('/v2/tag/create');
		expect(request.query).toEqual({});
		expect(request.body).toEqual({ name: 'Gold Customer', color: '#1A73E8' });
		expect(request.headers.authorization).toBe(`Bearer ${ctx.sandbox.token}`);
		expect(request.headers['content-type']).toBe('application/json');
		expect(request.headers.accept).toBe('application/json');

		expect(out).toHaveLength(1);
		expect(out[0].pairedItem).toEqual({ item: 0 });
		expect(out[0].json).toEqual({
			id: expect.stringMatching(/^c[a-z0-9]{24}$/),
			name: 'Gold Customer',
			color: '#1A73E8',
			createdAt: expect.any(String),
			updatedAt: expect.any(String),
		});
		expect(ctx.sandbox.state.tagByName('Gold Customer')?.color).toBe('#1A73E8');
	});

	test('without a color sends only the name (the API defaults it to #000000)', async () => {
		const out = await runNode(ctx.sandbox, {
			parameters: { resource: 'tag', operation: 'create', name: 'Plain' },
		});
		expect(onlyRequest(ctx.sandbox).body).toEqual({ name: 'Plain' });
		expect(out[0].json).toMatchObject({ name: 'Plain', color: '#000000' });
	});

	test('one request per input item, names from expressions', async () => {
		const out = await runNode(ctx.sandbox, {
			items: [{ tag: 'First' }, { tag: 'Second' }],
			parameters: { resource: 'tag', operation: 'create', name: '={{ $json.tag }}' },
		});
		expect(ctx.sandbox.requests.map((r) => r.body)).toEqual([{ name: 'First' }, { name: 'Second' }]);
		expect(jsonOf(out).map((j) => j.name)).toEqual(['First', 'Second']);
		expect(out.map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
	});
});

describe('tag removeFromContact (POST /tag/remove-from-contact)', () => {
	test('sends phoneNumber, tagIds, tagNames and triggerAutomations; returns the whole data object', async () => {
		const out = await runNode(ctx.sandbox, {
			parameters: {
				resource: 'tag',
				operation: 'removeFromContact',
				phoneNumber: DEMO.contacts.alice.phoneNumber,
				tagIds: [DEMO.tags.vip.id],
				tagNames: ['Lead', 'Customer'],
				additionalFields: { triggerAutomations: true },
			},
		});
		const request = onlyRequest(ctx.sandbox);
		expect(request.method).toBe('POST');
		expect(request.path).toBe('/v2/tag/remove-from-contact');
		expect(request.body).toEqual({
			phoneNumber: DEMO.contacts.alice.phoneNumber,
			tagIds: [DEMO.tags.vip.id],
			tagNames: ['Lead', 'Customer'],
			triggerAutomations: true,
		});
		expect(request.headers.authorization).toBe(`Bearer ${ctx.sandbox.token}`);

		expect(out).toHaveLength(1);
		const data = out[0].json;
		expect(Object.keys(data).sort()).toEqual(
			['automations', 'contact', 'notInContact', 'removedTags', 'tags'].sort(),
		);
		expect(data.contact).toMatchObject({ phoneNumber: DEMO.contacts.alice.phoneNumber });
		expect((data.removedTags as Array<{ id: string }>).map((t) => t.id).sort()).toEqual(
			[DEMO.tags.vip.id, DEMO.tags.lead.id, DEMO.tags.customer.id].sort(),
		);
		expect(data.automations).toMatchObject({ requested: true });
	});

	test('a list from an expression gives several names; a LID is accepted; tags the contact lacks are listed', async () => {
		const out = await runNode(ctx.sandbox, {
			parameters: {
				resource: 'tag',
				operation: 'removeFromContact',
				phoneNumber: DEMO.contacts.lid.lid,
				tagNames: '={{ ["VIP", "Customer"] }}',
			},
		});
		expect(onlyRequest(ctx.sandbox).body).toEqual({
			phoneNumber: DEMO.contacts.lid.lid,
			tagNames: ['VIP', 'Customer'],
		});
		const data = out[0].json as { removedTags: Array<{ name: string }>; notInContact: Array<{ name: string }> };
		expect(data.removedTags.map((t) => t.name)).toEqual(['VIP']);
		expect(data.notInContact.map((t) => t.name)).toEqual(['Customer']);
	});

	// How a workflow stores a list from an expression in a multi-value field the editor can draw: one
	// row holding the expression (the editor iterates the stored value, so a whole-field expression
	// string would be drawn one character per row). The row's list is the list of names.
	test('one row holding an expression that gives a list: each name of the list is sent', async () => {
		await runNode(ctx.sandbox, {
			items: [{ names: [DEMO.tags.vip.name, DEMO.tags.customer.name] }],
			parameters: {
				resource: 'tag',
				operation: 'removeFromContact',
				phoneNumber: DEMO.contacts.alice.phoneNumber,
				tagNames: ['={{ $json.names }}', DEMO.tags.lead.name],
			},
		});
		expect(onlyRequest(ctx.sandbox).body).toEqual({
			phoneNumber: DEMO.contacts.alice.phoneNumber,
			tagNames: ['VIP', 'Customer', 'Lead'],
		});
	});

	test('the MCP example\'s "Remove tags from a contact": the list the model gives is sent as the list of names', async () => {
		const nodes = mcpExample.nodes as Array<{ name: string; parameters: unknown }>;
		const parameters = nodes.find((node) => node.name === 'Remove tags from a contact')!.parameters as INodeParameters;
		// $fromAI reads the tool call's arguments from the item the tool node runs with.
		await runNode(ctx.sandbox, {
			items: [{ Phone_Number: DEMO.contacts.alice.phoneNumber, Tag_Names: ['VIP', 'Lead'] }],
			parameters,
		});
		expect(onlyRequest(ctx.sandbox).body).toEqual({
			phoneNumber: DEMO.contacts.alice.phoneNumber,
			tagNames: ['VIP', 'Lead'],
		});
	});

	test('tag IDs from an expression returning a JSON array are sent as an array', async () => {
		await runNode(ctx.sandbox, {
			items: [{ ids: [DEMO.tags.vip.id, DEMO.tags.lead.id] }],
			parameters: {
				resource: 'tag',
				operation: 'removeFromContact',
				phoneNumber: DEMO.contacts.alice.phoneNumber,
				tagIds: '={{ $json.ids }}',
			},
		});
		expect(onlyRequest(ctx.sandbox).body).toEqual({
			phoneNumber: DEMO.contacts.alice.phoneNumber,
			tagIds: [DEMO.tags.vip.id, DEMO.tags.lead.id],
		});
	});
});

describe('tag getContacts (GET /tag/list-contacts): offset pages with a total', () => {
	const big = { resource: 'tag', operation: 'getContacts', tag: { __rl: true, mode: 'id', value: DEMO.tags.big.id } };

	test('Return All walks 150 contacts in 2 pages of up to 100, one item per contact', async () => {
		const out = await runNode(ctx.sandbox, { parameters: { ...big, returnAll: true } });
		expect(ctx.sandbox.requests.map((r) => [r.method, r.path])).toEqual([
			['GET', '/v2/tag/list-contacts'],
			['GET', '/v2/tag/list-contacts'],
		]);
		expect(ctx.sandbox.requests.map((r) => r.query)).toEqual([
			{ tagId: DEMO.tags.big.id, offset: '0', limit: '100' },
			{ tagId: DEMO.tags.big.id, offset: '100', limit: '100' },
		]);
		expect(ctx.sandbox.requests[0].headers.authorization).toBe(`Bearer ${ctx.sandbox.token}`);
		expect(out).toHaveLength(150);
		const phones = jsonOf(out).map((c) => c.phoneNumber);
		expect(new Set(phones).size).toBe(150);
		expect(out[0].json).toEqual({
			chatId: expect.any(String),
			phoneNumber: expect.any(String),
			name: expect.any(String),
			params: expect.any(Object),
			addedAt: expect.any(String),
		});
		expect(out.every((item) => (item.pairedItem as { item: number }).item === 0)).toBe(true);
	});

	test('Limit 30 makes 1 request with limit=30 and returns exactly 30', async () => {
		const out = await runNode(ctx.sandbox, { parameters: { ...big, returnAll: false, limit: 30 } });
		expect(onlyRequest(ctx.sandbox).query).toEqual({
			tagId: DEMO.tags.big.id,
			offset: '0',
			limit: '30',
		});
		expect(out).toHaveLength(30);
	});

	test('Limit 120 makes 2 requests (100, then only the 20 missing) and returns exactly 120', async () => {
		const out = await runNode(ctx.sandbox, { parameters: { ...big, limit: 120 } });
		expect(ctx.sandbox.requests.map((r) => [r.query.offset, r.query.limit])).toEqual([
			['0', '100'],
			['100', '20'],
		]);
		expect(out).toHaveLength(120);
	});

	test('stops at the total on an exact page boundary (200 contacts: 2 requests, not 3)', async () => {
		ctx.sandbox.reset({ contactsOnBigTag: 200 });
		const out = await runNode(ctx.sandbox, { parameters: { ...big, returnAll: true } });
		expect(ctx.sandbox.requests).toHaveLength(2);
		expect(out).toHaveLength(200);
	});

	test('by tag name: sends tagName and no tagId; an empty tag gives no items after 1 request', async () => {
		const out = await runNode(ctx.sandbox, {
			parameters: { resource: 'tag', operation: 'getContacts', tag: { __rl: true, mode: 'name', value: 'Unused' }, returnAll: true },
		});
		expect(onlyRequest(ctx.sandbox).query).toEqual({ tagName: 'Unused', offset: '0', limit: '100' });
		expect(out).toHaveLength(0);
	});

	test('Tag By ID sends tagId only; By Name sends tagName only, exactly as typed (case and spaces kept)', async () => {
		await runNode(ctx.sandbox, { parameters: { ...big, limit: 1 } });
		expect(onlyRequest(ctx.sandbox).query).toEqual({ tagId: DEMO.tags.big.id, offset: '0', limit: '1' });
		ctx.sandbox.reset();
		const byName = await runNodeError(ctx.sandbox, {
			parameters: { resource: 'tag', operation: 'getContacts', tag: { __rl: true, mode: 'name', value: ` ${DEMO.tags.big.name.toLowerCase()}` }, limit: 1 },
		});
		expect(onlyRequest(ctx.sandbox).query).toEqual({ tagName: ` ${DEMO.tags.big.name.toLowerCase()}`, offset: '0', limit: '1' });
		expect(byName.httpCode).toBe('404');
	});

	test('Tag By ID refuses a name typed into it, naming the field Tag; nothing is sent', async () => {
		const error = await runNodeError(ctx.sandbox, {
			parameters: { resource: 'tag', operation: 'getContacts', tag: { __rl: true, mode: 'id', value: DEMO.tags.big.name } },
		});
		expect(error.message).toBe(`Invalid Tag: must be an ID: "c" followed by 24 lowercase letters or digits, got "${DEMO.tags.big.name}"`);
		expect(ctx.sandbox.requests).toHaveLength(0);
	});

	test('a workflow saved with the former Tag ID / Tag Name parameters still runs (hidden, used while Tag is empty)', async () => {
		await runNode(ctx.sandbox, { parameters: { resource: 'tag', operation: 'getContacts', tagName: DEMO.tags.big.name, limit: 1 } });
		await runNode(ctx.sandbox, { parameters: { resource: 'tag', operation: 'getContacts', tagId: DEMO.tags.big.id, limit: 1 } });
		// The Tag field wins over a leftover former value.
		await runNode(ctx.sandbox, {
			parameters: { resource: 'tag', operation: 'getContacts', tagId: DEMO.tags.big.id, tag: { __rl: true, mode: 'name', value: DEMO.tags.big.name }, limit: 1 },
		});
		expect(ctx.sandbox.requests.map((r) => r.query)).toEqual([
			{ tagName: DEMO.tags.big.name, offset: '0', limit: '1' },
			{ tagId: DEMO.tags.big.id, offset: '0', limit: '1' },
			{ tagName: DEMO.tags.big.name, offset: '0', limit: '1' },
		]);
	});
});
