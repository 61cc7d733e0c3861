import type { INodeParameters } from 'n8n-workflow';
import { actionDescription } from '../helpers/action-node';

import { DEMO } from '../sandbox';
import { jsonOf, onlyRequest, runNode, runNodeError, useSandbox } from '../helpers/node-runner';

const ctx = useSandbox();

describe('template getAll (GET /provider-template/list): cursor pages', () => {
	const templates = {
		resource: 'template',
		operation: 'getAll',
		integrationId: DEMO.templates.integrationId,
	};

	test('Return All over 600 templates: 3 pages of up to 250, `after` = previous paging.after', async () => {
		ctx.sandbox.reset({ templates: 600 });
		const out = await runNode(ctx.sandbox, { parameters: { ...templates, returnAll: true } });
		const requests = ctx.sandbox.requests;
		expect(requests.map((r) => [r.method, r.path])).toEqual(
			Array(3).fill(['GET', '/v2/provider-template/list']),
		);
		expect(requests[0].query).toEqual({ integrationId: DEMO.templates.integrationId, limit: '250' });
		expect(requests[0].headers.authorization).toBe(`Bearer ${ctx.sandbox.token}`);
		// The cursor travels as a value (never a URL) and is the one the previous page gave.
		expect(requests[1].query.after).toEqual(expect.any(String));
		expect(requests[1].query.after).not.toMatch(/^https?:/);
		expect(requests[2].query.after).not.toBe(requests[1].query.after);
		expect(requests.map((r) => r.query.limit)).toEqual(['250', '250', '250']);
		expect(out).toHaveLength(600);
		expect(new Set(jsonOf(out).map((t) => t.id)).size).toBe(600);
		expect(out[0].json).toMatchObject({
			id: expect.any(String),
			name: expect.any(String),
			language: expect.any(String),
			status: expect.any(String),
			components: expect.any(Array),
		});
	});

	test('Limit 300: 2 requests (250, then only the 50 missing), exactly 300 items', async () => {
		ctx.sandbox.reset({ templates: 600 });
		const out = await runNode(ctx.sandbox, { parameters: { ...templates, limit: 300 } });
		expect(ctx.sandbox.requests.map((r) => r.query.limit)).toEqual(['250', '50']);
		expect(ctx.sandbox.requests[1].query.after).toEqual(expect.any(String));
		expect(out).toHaveLength(300);
	});

	test('Limit 10 on the seeded 60 templates: 1 request with limit=10', async () => {
		const out = await runNode(ctx.sandbox, { parameters: { ...templates, limit: 10 } });
		expect(onlyRequest(ctx.sandbox).query).toEqual({
			integrationId: DEMO.templates.integrationId,
			limit: '10',
		});
		expect(out).toHaveLength(10);
	});

	test('status and search filters are kept on every page', async () => {
		ctx.sandbox.reset({ templates: 6000 });
		const search = 'your';
		const out = await runNode(ctx.sandbox, {
			parameters: { ...templates, returnAll: true, filters: { status: 'APPROVED', search } },
		});
		const catalog = ctx.sandbox.state.templates.get(DEMO.templates.integrationId)!;
		const expected = catalog.list.filter(
			(t, i) => t.status === 'APPROVED' && catalog.haystack[i].includes(search),
		);
		expect(expected.length).toBeGreaterThan(250);
		const requests = ctx.sandbox.requests;
		expect(requests).toHaveLength(Math.ceil(expected.length / 250));
		for (const request of requests) {
			expect(request.query).toMatchObject({
				integrationId: DEMO.templates.integrationId,
				status: 'APPROVED',
				search,
				limit: '250',
			});
		}
		for (const request of requests.slice(1)) expect(request.query.after).toEqual(expect.any(String));
		expect(jsonOf(out).map((t) => t.id)).toEqual(expected.map((t) => t.id));
	});
});

describe('customField get (GET /inbox/get-custom-fields-from-chat)', () => {
	test('sends phoneNumber as query; returns one item { fields, assignedTemplateIds } (Simplify off)', async () => {
		const out = await runNode(ctx.sandbox, {
			parameters: {
				resource: 'customField',
				operation: 'get',
				phoneNumber: DEMO.contacts.alice.phoneNumber,
				simplify: false,
			},
		});
		const request = onlyRequest(ctx.sandbox);
		expect([request.method, request.path]).toEqual(['GET', '/v2/inbox/get-custom-fields-from-chat']);
		expect(request.query).toEqual({ phoneNumber: DEMO.contacts.alice.phoneNumber });
		expect(request.headers.authorization).toBe(`Bearer ${ctx.sandbox.token}`);
		expect(out).toHaveLength(1);
		expect(Object.keys(out[0].json).sort()).toEqual(['assignedTemplateIds', 'fields']);
		expect(out[0].json.assignedTemplateIds).toEqual([DEMO.customFields.profile.id]);
		const keys = (out[0].json.fields as Array<{ key: string }>).map((f) => f.key);
		expect(keys).toEqual(expect.arrayContaining(['cpf', 'plan', 'favoriteColor']));
	});
});

describe('customField upsert (POST /inbox/upsert-custom-fields-by-phone-number)', () => {
	const PLAN = DEMO.customFields.profile.fields.plan;
	const upsertValues = (values: Array<Record<string, unknown>>): INodeParameters => ({
		resource: 'customField',
		operation: 'upsert',
		phoneNumber: DEMO.contacts.alice.phoneNumber,
		inputs: { templateField: values.map((v) => ({ templateFieldId: PLAN, ...v })) } as INodeParameters,
	});
	const sentValues = (): unknown[] =>
		(onlyRequest(ctx.sandbox).body as { inputs: Array<{ valueJson: unknown }> }).inputs.map((i) => i.valueJson);

	// Defect 2 of issue 12: "São Paulo" was refused as invalid JSON, "0123456789" and "true" changed type.
	test('a value mapped from an expression keeps its type: text stays text, numbers/objects/lists/booleans stay as they are', async () => {
		await runNode(ctx.sandbox, {
			parameters: upsertValues([
				{ value: '={{ $json.city }}' },
				{ value: '={{ $json.code }}' },
				{ value: '={{ $json.flag }}' },
				{ value: '={{ $json.points }}' },
				{ value: '={{ $json.address }}' },
				{ value: '={{ $json.tags }}' },
				{ value: '={{ $json.vip }}' },
				{ value: 'typed text' },
			]),
			items: [{ city: 'São Paulo', code: '0123456789', flag: 'true', points: 42, address: { zip: '01000' }, tags: ['a', 'b'], vip: true }],
		});
		expect(sentValues()).toEqual(['São Paulo', '0123456789', 'true', 42, { zip: '01000' }, ['a', 'b'], true, 'typed text']);
	});

	// Issue 26: a template field added with an empty Value wrote "" over the contact's plan.
	test.each([
		['typed empty', { value: '' }],
		['left out', {}],
		['an expression that gives nothing', { value: '={{ $json.missing }}' }],
		['empty with Value Type Number', { valueType: 'number', value: '' }],
	])('an empty Value (%s) is refused before sending, saying how to clear', async (_case, entry) => {
		const fields = (): unknown => [...(ctx.sandbox.state.contacts.get(DEMO.contacts.alice.phoneNumber)?.customFields.values() ?? [])];
		const before = JSON.stringify(fields());
		expect(before).toContain('"pro"');
		const error = await runNodeError(ctx.sandbox, { parameters: upsertValues([{ value: 'Gold' }, entry]), items: [{}] });
		expect(error.message).toBe(
			"Missing Value of input 2: type a value, or set Value Type of input 2 to Clear (No Value) to remove the contact's value",
		);
		expect(error.description).toBe(
			"An empty value is not sent: it would overwrite the contact's value. Type the value, or choose Value Type Clear (No Value) for input 2 to remove it. Nothing was sent to the API.",
		);
		expect(ctx.sandbox.requests).toHaveLength(0);
		expect(JSON.stringify(fields())).toBe(before);
	});

	test('Value Type Clear (No Value) sends exactly null for that field', async () => {
		await runNode(ctx.sandbox, { parameters: upsertValues([{ valueType: 'clear' }]) });
		expect(onlyRequest(ctx.sandbox).body).toEqual({
			phoneNumber: DEMO.contacts.alice.phoneNumber,
			inputs: [{ sourceType: 'TEMPLATE_FIELD', templateFieldId: PLAN, valueJson: null }],
		});
		expect(onlyRequest(ctx.sandbox).status).toBe(200);
	});

	test('each output item names its contact: the phone number it was given (5 contacts in, 5 items that differ)', async () => {
		const phones = Object.values(DEMO.contacts).slice(0, 5).map((c) => c.phoneNumber);
		const out = await runNode(ctx.sandbox, {
			parameters: { ...upsertValues([{ value: 'Gold' }]), phoneNumber: '={{ $json.phone }}' },
			items: phones.map((phone) => ({ phone })),
		});
		expect(jsonOf(out).map((json) => json.phoneNumber)).toEqual(phones);
		expect(jsonOf(out).every((json) => Array.isArray(json.customFields))).toBe(true);
	});

	test('version 1 (as saved with 0.1.0): the output is { customFields } only, as 0.1.0 gave it', async () => {
		const out = await runNode(ctx.sandbox, {
			typeVersion: 1,
			parameters: { ...upsertValues([]), inputs: { templateField: [{ templateFieldId: PLAN, valueJson: '"Gold"' }] } },
		});
		expect(onlyRequest(ctx.sandbox).body).toEqual({
			phoneNumber: DEMO.contacts.alice.phoneNumber,
			inputs: [{ sourceType: 'TEMPLATE_FIELD', templateFieldId: PLAN, valueJson: 'Gold' }],
		});
		expect(Object.keys(out[0].json)).toEqual(['customFields']);
	});

	test('Value Type Number, Boolean and JSON convert typed text', async () => {
		await runNode(ctx.sandbox, {
			parameters: upsertValues([
				{ valueType: 'number', value: '3.5' },
				{ valueType: 'boolean', value: 'false' },
				{ valueType: 'json', value: '{"tier": 2}' },
				{ valueType: 'text', value: '42' },
			]),
		});
		expect(sentValues()).toEqual([3.5, false, { tier: 2 }, '42']);
	});

	test('its Phone Number is checked before sending (8-30 characters)', async () => {
		const error = await runNodeError(ctx.sandbox, { parameters: { ...upsertValues([{ value: 'x' }]), phoneNumber: '12345' } });
		expect(error.message).toBe('Invalid Phone Number: must be 8-30 characters, got 5 characters');
		expect(ctx.sandbox.requests).toHaveLength(0);
	});

	test('the extra-field example of the node\'s help is accepted by the sandbox', async () => {
		const description = JSON.stringify(actionDescription().properties);
		const example = /assumes (\[\{.*?\}\])/.exec(description.replace(/\\"/g, '"'))?.[1];
		expect(example).toBeDefined();
		const out = await runNode(ctx.sandbox, {
			parameters: { ...upsertValues([]), inputs: {}, additionalFields: { extraFieldInputs: example as string } },
		});
		expect(onlyRequest(ctx.sandbox).status).toBe(200);
		expect(out[0].json.customFields).toEqual([expect.objectContaining({ key: 'plan', value: 'gold' })]);
	});

	test('template-field inputs (Text by default, JSON when chosen), then raw extra-field inputs; returns { customFields }', async () => {
		const out = await runNode(ctx.sandbox, {
			parameters: {
				resource: 'customField',
				operation: 'upsert',
				phoneNumber: DEMO.contacts.alice.phoneNumber,
				inputs: {
					templateField: [
						{ templateFieldId: DEMO.customFields.profile.fields.plan, value: 'gold' },
						{ templateFieldId: DEMO.customFields.profile.fields.score, valueType: 'json', value: '{"points": 42}' },
					],
				},
				additionalFields: {
					extraFieldInputs:
						'[{"sourceType": "EXTRA_FIELD", "key": "nickname", "label": "Nickname", "valueJson": "Ali"}]',
				},
			},
		});
		const request = onlyRequest(ctx.sandbox);
		expect([request.method, request.path]).toEqual([
			'POST',
			'/v2/inbox/upsert-custom-fields-by-phone-number',
		]);
		expect(request.headers.authorization).toBe(`Bearer ${ctx.sandbox.token}`);
		expect(request.body).toEqual({
			phoneNumber: DEMO.contacts.alice.phoneNumber,
			inputs: [
				{
					sourceType: 'TEMPLATE_FIELD',
					templateFieldId: DEMO.customFields.profile.fields.plan,
					valueJson: 'gold',
				},
				{
					sourceType: 'TEMPLATE_FIELD',
					templateFieldId: DEMO.customFields.profile.fields.score,
					valueJson: { points: 42 },
				},
				{ sourceType: 'EXTRA_FIELD', key: 'nickname', label: 'Nickname', valueJson: 'Ali' },
			],
		});
		expect(out).toHaveLength(1);
		const written = out[0].json.customFields as Array<{ key: string; value: unknown }>;
		expect(written.map((f) => [f.key, f.value]).sort()).toEqual(
			[
				['nickname', 'Ali'],
				['plan', 'gold'],
				['score', { points: 42 }],
			].sort(),
		);
	});
});

describe('chat getAll (GET /inbox/find-all-chats): offset pages, no total', () => {
	test('Return All: pages of 1000 until a short page', async () => {
		ctx.sandbox.reset({ chats: 6000, messagesPerChat: 1 });
		const expected = ctx.sandbox.state.chatsIn('attendance').length;
		expect(expected).toBeGreaterThan(1000);
		expect(expected).toBeLessThan(2000);
		const out = await runNode(ctx.sandbox, {
			parameters: { resource: 'chat', operation: 'getAll', returnAll: true },
		});
		expect(ctx.sandbox.requests.map((r) => [r.method, r.path])).toEqual([
			['GET', '/v2/inbox/find-all-chats'],
			['GET', '/v2/inbox/find-all-chats'],
		]);
		expect(ctx.sandbox.requests.map((r) => r.query)).toEqual([
			{ category: 'attendance', offset: '0', limit: '1000' },
			{ category: 'attendance', offset: '1000', limit: '1000' },
		]);
		expect(ctx.sandbox.requests[0].headers.authorization).toBe(`Bearer ${ctx.sandbox.token}`);
		expect(out).toHaveLength(expected);
		expect(new Set(jsonOf(out).map((c) => c.id)).size).toBe(expected);
		expect(jsonOf(out).every((c) => c.category === 'attendance')).toBe(true);
	});

	test('Limit 1500: 2 requests (1000, then 500), exactly 1500 items', async () => {
		ctx.sandbox.reset({ chats: 10000, messagesPerChat: 1 });
		const out = await runNode(ctx.sandbox, {
			parameters: { resource: 'chat', operation: 'getAll', category: 'queue', limit: 1500 },
		});
		expect(ctx.sandbox.requests.map((r) => [r.query.offset, r.query.limit])).toEqual([
			['0', '1000'],
			['1000', '500'],
		]);
		expect(out).toHaveLength(1500);
	});

	test('Limit 5 with filters: id lists sent comma-separated; a short page is confirmed by an empty one', async () => {
		const out = await runNode(ctx.sandbox, {
			parameters: {
				resource: 'chat',
				operation: 'getAll',
				category: 'pinned',
				limit: 5,
				filters: {
					integrationIds: [DEMO.integrations.whatsapp.id, DEMO.integrations.official.id],
					attendantIds: `${DEMO.users.ana.id}, ${DEMO.users.bruno.id}`,
					sectorIds: [DEMO.sectors.support],
					tagIds: [DEMO.tags.vip.id],
				},
			},
		});
		// A page shorter than asked may be the API's own page size (issue 12): the walk goes on from
		// what it received and stops on the empty page.
		expect(ctx.sandbox.requests.map((r) => `${r.query.offset}/${r.query.limit}`)).toEqual(['0/5', `${out.length}/${5 - out.length}`]);
		expect(ctx.sandbox.requests[0].query).toEqual({
			category: 'pinned',
			offset: '0',
			limit: '5',
			integrationIds: `${DEMO.integrations.whatsapp.id},${DEMO.integrations.official.id}`,
			attendantIds: `${DEMO.users.ana.id},${DEMO.users.bruno.id}`,
			sectorIds: DEMO.sectors.support,
			tagIds: DEMO.tags.vip.id,
		});
		expect(out.length).toBeLessThanOrEqual(5);
		for (const chat of jsonOf(out)) expect(chat.category).toBe('pinned');
	});
});

describe('message getAll (GET /inbox/find-messages-from-inbox): offset pages, no total', () => {
	test('Return All over 1200 messages: 2 requests (1000 + a short page of 200)', async () => {
		ctx.sandbox.reset({ chats: 0, messagesPerChat: 1000 });
		const chat = ctx.sandbox.state.chats.get(DEMO.chats.alice.id)!;
		const last = chat.messages[chat.messages.length - 1];
		for (let i = 1; i <= 200; i++) {
			ctx.sandbox.state.addMessage(chat, {
				...last,
				id: `${last.id}-extra-${i}`,
				text: `extra message ${i}`,
				createdAtMs: last.createdAtMs + i * 1000,
			});
		}
		expect(chat.messages).toHaveLength(1200);
		const out = await runNode(ctx.sandbox, {
			parameters: {
				resource: 'message',
				operation: 'getAll',
				chatInternalId: DEMO.chats.alice.id,
				returnAll: true,
			},
		});
		expect(ctx.sandbox.requests.map((r) => [r.method, r.path])).toEqual(
			Array(2).fill(['GET', '/v2/inbox/find-messages-from-inbox']),
		);
		expect(ctx.sandbox.requests.map((r) => r.query)).toEqual([
			{ chatInternalId: DEMO.chats.alice.id, offset: '0', limit: '1000' },
			{ chatInternalId: DEMO.chats.alice.id, offset: '1000', limit: '1000' },
		]);
		expect(ctx.sandbox.requests[0].headers.authorization).toBe(`Bearer ${ctx.sandbox.token}`);
		expect(out).toHaveLength(1200);
		expect(new Set(jsonOf(out).map((m) => m.id)).size).toBe(1200);
		expect(out[0].json).toMatchObject({ chatInternalId: DEMO.chats.alice.id, text: 'extra message 200' });
	});

	test('Limit 3: 1 request with limit=3, the 3 newest messages', async () => {
		const out = await runNode(ctx.sandbox, {
			parameters: { resource: 'message', operation: 'getAll', chatInternalId: DEMO.chats.alice.id, limit: 3 },
		});
		expect(onlyRequest(ctx.sandbox).query).toEqual({
			chatInternalId: DEMO.chats.alice.id,
			offset: '0',
			limit: '3',
		});
		const messages = ctx.sandbox.state.chats.get(DEMO.chats.alice.id)!.messages;
		expect(jsonOf(out).map((m) => m.id)).toEqual(
			messages.slice(-3).reverse().map((m) => m.id),
		);
	});
});

describe('user getAll (GET /user/list): whole list', () => {
	test('Return All: one request, one item per company user', async () => {
		const out = await runNode(ctx.sandbox, {
			parameters: { resource: 'user', operation: 'getAll', returnAll: true },
		});
		const request = onlyRequest(ctx.sandbox);
		expect([request.method, request.path, request.query]).toEqual(['GET', '/v2/user/list', {}]);
		expect(request.headers.authorization).toBe(`Bearer ${ctx.sandbox.token}`);
		expect(jsonOf(out).map((u) => u.id)).toEqual([
			DEMO.users.ana.id,
			DEMO.users.bruno.id,
			DEMO.users.carla.id,
		]);
		expect(out[0].json).toMatchObject({
			online: 'ONLINE',
			user: { name: 'Ana Souza', email: 'ana.souza@example.com' },
		});
	});

	test('Limit 2: one request, the first two users', async () => {
		const out = await runNode(ctx.sandbox, { parameters: { resource: 'user', operation: 'getAll', limit: 2 } });
		expect(ctx.sandbox.requests).toHaveLength(1);
		expect(jsonOf(out).map((u) => u.id)).toEqual([DEMO.users.ana.id, DEMO.users.bruno.id]);
	});
});
