/* eslint-disable -- development tooling, not shipped: n8n's node rules (eslint.config.mjs, n8n-node lint) are for nodes/ and credentials/ */
/**
 * Reading what a real API answers (issue 23; DESIGN.md, "Reading the API's answers"): each row of
 * the table through n8n-core's RoutingNode against the sandbox's answer-shape switches
 * (test/sandbox/shapes.ts), with what the sandbox's state says really happened. Every operation
 * under every shape: test/variants/shapes.test.ts.
 */
import { NodeApiError } from 'n8n-workflow';
import { actionDescription } from '../helpers/action-node';

import { PAYLOAD_AT } from '../../nodes/shared/answers';
import { operationsOf } from '../helpers/operations';
import { jsonOf, runNode, runNodeError, useSandbox } from '../helpers/node-runner';
import { DEMO, ERROR_SHAPES, SECOND_REASON } from '../sandbox';

const TOKEN = 'tok_Answer-Shapes-Token-7777';
const ctx = useSandbox({ token: TOKEN });

const OFFICIAL = DEMO.integrations.official.id;
const WHATSAPP = DEMO.integrations.whatsapp.id;
const requestsTo = (path: string) => ctx.sandbox.requests.filter((request) => request.path === `/v2${path}`);

describe('the issue\'s table: the right result, or a loud error naming what came', () => {
	test('204 to Automation → Delete: reported deleted (and it is), sent once', async () => {
		ctx.sandbox.setVariants({ shapes: { '/automation/delete': 'noContent' } });
		const id = DEMO.triggers.webhook.id;
		const out = await runNode(ctx.sandbox, { parameters: { resource: 'automation', operation: 'delete', automationTriggerId: id } });
		expect(jsonOf(out)).toEqual([{ success: true, automationTriggerId: id }]);
		expect(ctx.sandbox.state.triggers.has(id)).toBe(false);
		expect(requestsTo('/automation/delete').map((request) => request.status)).toEqual([204]);
	});

	test('an empty 200 to Integration → Delete: reported deleted (the integration is DELETING)', async () => {
		ctx.sandbox.setVariants({ shapes: { '/integration/delete': 'empty' } });
		const out = await runNode(ctx.sandbox, { parameters: { resource: 'integration', operation: 'delete', integrationId: WHATSAPP } });
		expect(jsonOf(out)).toEqual([{ success: true, integrationId: WHATSAPP }]);
		expect(ctx.sandbox.state.integrations.get(WHATSAPP)?.connectionStatus).toBe('DELETING');
	});

	test('an empty 200 to Integration → Disconnect: done (the API said so), the item carries what was sent', async () => {
		ctx.sandbox.setVariants({ shapes: { '/integration/disconnect': 'empty' } });
		const out = await runNode(ctx.sandbox, { parameters: { resource: 'integration', operation: 'disconnect', integrationId: WHATSAPP } });
		expect(jsonOf(out)).toEqual([
			{
				success: true,
				sent: { integrationId: WHATSAPP },
				answer: {},
				note: 'The API accepted the request (HTTP 200) without the result its description shows at response.integration.',
			},
		]);
		// A POST that got an answer is not sent again.
		expect(requestsTo('/integration/disconnect')).toHaveLength(1);
	});

	test('200 without success (integration list, number validation, message search): the results', async () => {
		ctx.sandbox.setVariants({ shapes: { '*': 'noSuccess' } });
		const integrations = await runNode(ctx.sandbox, { parameters: { resource: 'integration', operation: 'getAll', returnAll: true } });
		expect(jsonOf(integrations).map((entry) => entry.id).sort()).toEqual([...ctx.sandbox.state.integrations.keys()].sort());
		const validated = await runNode(ctx.sandbox, {
			parameters: { resource: 'integration', operation: 'validatePhoneNumber', integrationId: WHATSAPP, phoneNumber: DEMO.contacts.alice.phoneNumber },
		});
		expect(jsonOf(validated)).toEqual([{ exists: true, jid: `${DEMO.contacts.alice.phoneNumber}@s.whatsapp.net` }]);
		const messages = await runNode(ctx.sandbox, {
			parameters: { resource: 'message', operation: 'getAll', chatInternalId: DEMO.chats.alice.id, returnAll: true },
		});
		expect(messages).toHaveLength(ctx.sandbox.state.chats.get(DEMO.chats.alice.id)!.messages.length);
		expect(ctx.sandbox.requests.every((request) => request.status === 200)).toBe(true);
	});

	test('400 with `message` as a list of texts: every text shown, in order', async () => {
		ctx.sandbox.setVariants({ shapes: { '/tag/create': 'messageList' } });
		const error = await runNodeError(ctx.sandbox, { parameters: { resource: 'tag', operation: 'create', name: DEMO.tags.vip.name } });
		expect(error.message).toBe(`The request conflicts with existing data (HTTP 409): Name: a tag named "${DEMO.tags.vip.name}" already exists; ${SECOND_REASON}`);
		expect(String(error.description)).not.toContain('sent no message');
	});

	test('the list under the other envelope (data.chats): the chats come out', async () => {
		ctx.sandbox.setVariants({ shapes: { '/inbox/find-all-chats': 'otherEnvelope' } });
		const out = await runNode(ctx.sandbox, { parameters: { resource: 'chat', operation: 'getAll', returnAll: true } });
		expect(out.map((item) => item.json.id)).toEqual(ctx.sandbox.state.chatsIn('attendance').map((chat) => chat.id));
		expect(out.length).toBeGreaterThan(0);
	});

	test('the list under a key the node does not know: an error naming response.chats and the keys that came, not 0 items', async () => {
		ctx.sandbox.setVariants({ shapes: { '/inbox/find-all-chats': 'nested' } });
		const out = await runNode(ctx.sandbox, { parameters: { resource: 'chat', operation: 'getAll', returnAll: true }, items: [{}, {}], continueOnFail: true });
		// N items in, N error items out, each paired.
		expect(out.map((item) => [item.json.error, item.pairedItem])).toEqual([
			['The API\'s answer has no response.chats (HTTP 200)', { item: 0 }],
			['The API\'s answer has no response.chats (HTTP 200)', { item: 1 }],
		]);
		expect(String(out[0].json.description)).toContain('expected response.chats; the answer has success, response.result.');
	});

	test('a cursor without hasNext: every template, page by page, and no page after the empty one', async () => {
		ctx.sandbox.setVariants({ shapes: { '/provider-template/list': 'noHasNext' }, pageSizeCap: 7 });
		const out = await runNode(ctx.sandbox, { parameters: { resource: 'template', operation: 'getAll', integrationId: OFFICIAL, returnAll: true } });
		const all = ctx.sandbox.state.templates.get(OFFICIAL)!.list;
		expect(out.map((item) => item.json.id)).toEqual(all.map((template) => template.id));
		// Every page with templates, then the one after the last template: empty, and the walk ends there.
		expect(requestsTo('/provider-template/list')).toHaveLength(Math.ceil(all.length / 7) + 1);
	});
});

describe('a list is only a list', () => {
	const chats = (body: unknown) => {
		ctx.sandbox.addFault({ kind: 'json', path: '/inbox/find-all-chats', body });
		return { parameters: { resource: 'chat', operation: 'getAll', returnAll: true } };
	};

	test('a present, empty list: 0 items, no error', async () => {
		expect(await runNode(ctx.sandbox, chats({ success: true, response: { chats: [] } }))).toEqual([]);
	});

	test('an object where the list belongs: an error naming the path, not 0 items', async () => {
		const error = await runNodeError(ctx.sandbox, chats({ success: true, response: { chats: { total: 3 } } }));
		expect(error.message).toBe('The API\'s answer has no list at response.chats');
		expect(String(error.description)).toContain('the answer has an object there');
	});

	test('null where the list\'s envelope belongs: an error naming the path, not a crash', async () => {
		const error = await runNodeError(ctx.sandbox, chats({ success: true, response: null }));
		expect(error).toBeInstanceOf(NodeApiError);
		expect(error.message).toBe('The API\'s answer has no response.chats (HTTP 200)');
		expect(String(error.description)).toContain('expected response.chats; the answer has success, response.');
	});

	// The error says what came instead of the list (reading.ts keysOf), two levels deep, at most 12 keys.
	const keys = (count: number) => Object.fromEntries(Array.from({ length: count }, (_, i) => [`k${i + 1}`, i]));
	test.each([
		['a list instead of an object', [{ id: 'a' }, { id: 'b' }], 'a list of 2 entries instead of an object'],
		['an empty object', {}, 'no keys ({})'],
		['an empty envelope', { success: true, response: {} }, 'success, response'],
		['null at the list', { success: true, response: { chats: null } }, 'success, response.chats'],
		['12 keys', keys(12), 'k1, k2, k3, k4, k5, k6, k7, k8, k9, k10, k11, k12'],
		['14 keys', keys(14), 'k1, k2, k3, k4, k5, k6, k7, k8, k9, k10, k11, k12, … (2 more)'],
	])('%s: an error naming response.chats and what came', async (_label, body, came) => {
		const error = await runNodeError(ctx.sandbox, chats(body));
		expect(error.message).toBe('The API\'s answer has no response.chats (HTTP 200)');
		expect(String(error.description)).toBe(
			`GET /inbox/find-all-chats answered HTTP 200; expected response.chats; the answer has ${came}. The node does not guess where the API put it, so that a missing result is never shown as an empty one. No output was produced for this item.`,
		);
	});

	test.each([
		[400, 'The API rejected the request as invalid (HTTP 400): no such category'],
		[503, 'The API failed to process the request (HTTP 503): no such category'],
	])('HTTP %i with a JSON body that does not say success: false: the API\'s error, not a result', async (status, message) => {
		ctx.sandbox.addFault({ kind: 'json', path: '/inbox/find-all-chats', status, body: { message: 'no such category', response: { chats: [] } }, times: Infinity });
		const error = await runNodeError(ctx.sandbox, { parameters: { resource: 'chat', operation: 'getAll', returnAll: true } });
		expect(error.message).toBe(message);
	});

	test('errors[] entries that name their field: "field: text"', async () => {
		const error = await runNodeError(ctx.sandbox, chats({ success: false, errors: [{ field: 'category', message: 'is not a category' }, { path: 'limit', message: 'limit: too big' }] }));
		expect(error.message).toBe('The API answered that the request did not succeed (HTTP 200): Category: is not a category; limit: too big');
	});
});

describe('cursor walks end on hasNext false, no cursor, or an empty page; a repeated page or cursor stops them with an error', () => {
	const template = (id: string) => ({ id, name: id, language: 'en', status: 'APPROVED', category: 'UTILITY', components: [] });
	const page = (ids: string[], paging: Record<string, unknown>) => ({ kind: 'json' as const, path: '/provider-template/list', body: { success: true, response: { templates: ids.map(template), paging } } });
	const run = async () => jsonOf(await runNode(ctx.sandbox, { parameters: { resource: 'template', operation: 'getAll', integrationId: OFFICIAL, returnAll: true } })).map((entry) => entry.id);

	test.each([
		['an empty page, although hasNext is true and a new cursor came', { after: 'c3', hasNext: true }],
		['no cursor, although hasNext is true', { hasNext: true }],
		['hasNext false, although a new cursor came', { after: 'c3', hasNext: false }],
		['a cursor that is empty text, although hasNext is true', { after: '', hasNext: true }],
	])('%s', async (label, lastPaging) => {
		const lastPage = label.startsWith('an empty') ? [] : ['t2'];
		ctx.sandbox.addFault(page(['t1'], { after: 'c1' }));
		ctx.sandbox.addFault(page(lastPage, lastPaging));
		ctx.sandbox.addFault(page(['never'], { after: 'c4' }));
		expect(await run()).toEqual(['t1', ...lastPage]);
		expect(requestsTo('/provider-template/list')).toHaveLength(2);
	});

	test('the same page again: the error names the cursor that was sent', async () => {
		ctx.sandbox.addFault(page(['t1'], { after: 'c1', hasNext: true }));
		ctx.sandbox.addFault(page(['t1'], { after: 'c2', hasNext: true }));
		const error = await runNodeError(ctx.sandbox, { parameters: { resource: 'template', operation: 'getAll', integrationId: OFFICIAL, returnAll: true } });
		expect(error.message).toBe('The API sent the same page again (after=c1): it seems to ignore the query parameter "after"');
		expect(requestsTo('/provider-template/list').map((request) => request.query.after)).toEqual([undefined, 'c1']);
	});

	test('a cursor of an earlier page, with new templates: an error, not a loop between two pages', async () => {
		ctx.sandbox.addFault(page(['t1'], { after: 'c1', hasNext: true }));
		ctx.sandbox.addFault(page(['t2'], { after: 'c2', hasNext: true }));
		ctx.sandbox.addFault(page(['t3'], { after: 'c1', hasNext: true }));
		ctx.sandbox.addFault(page(['never'], { hasNext: false }));
		const error = await runNodeError(ctx.sandbox, { parameters: { resource: 'template', operation: 'getAll', integrationId: OFFICIAL, returnAll: true } });
		expect(error.message).toBe('The API sent a cursor it had already sent (after=c1): it seems to ignore the query parameter "after"');
		expect(String(error.description)).toBe(
			'The node sends paging.after back as "after". The API answered with a cursor of an earlier page, so paging on would repeat pages for ever. Set the name the API uses under Options → Cursor Parameter Name and run again. No output was produced for this item.',
		);
		expect(requestsTo('/provider-template/list').map((request) => request.query.after)).toEqual([undefined, 'c1', 'c2']);
	});
});

describe('the API\'s explanation in every shape keeps the token out', () => {
	test.each([...ERROR_SHAPES])('%s echoing the Authorization header: [redacted]', async (shape) => {
		ctx.sandbox.setVariants({ shapes: { '*': shape } });
		ctx.sandbox.addFault({ kind: 'status', status: 400, message: 'the request carried {authorization}' });
		const error = await runNodeError(ctx.sandbox, { parameters: { resource: 'user', operation: 'getAll', returnAll: true } });
		expect(error.message).toContain('the request carried Bearer [redacted]');
		expect(JSON.stringify({ message: error.message, description: error.description })).not.toContain(TOKEN);
	});
});

test('answers.ts names the payload of every endpoint the node calls (else its answers go unchecked)', () => {
	const endpoints = operationsOf(actionDescription()).map((entry) => String((entry.option.routing?.request as { url?: string }).url));
	for (const endpoint of endpoints) expect(Object.keys(PAYLOAD_AT)).toContain(endpoint);
});
