/**
 * Both ways a workflow stores a picker's value, run through n8n-core's real RoutingNode against the
 * sandbox: `{ __rl: true, mode, value }` (what the editor saves) and a plain string (older saves,
 * hand-written JSON, the example workflows). Either way the bare id is sent; a bad id is refused
 * before anything is sent, with the field and the item named.
 */
import type { INodeParameters, NodeParameterValue } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { DEMO } from '../sandbox';
import { onlyRequest, runNode, runNodeError, useSandbox } from '../helpers/node-runner';

const ctx = useSandbox();

const WHATSAPP = DEMO.integrations.whatsapp.id;
const OFFICIAL = DEMO.integrations.official.id;
const ALICE_CHAT = DEMO.chats.alice.id;

type Shape = [string, (id: string) => NodeParameterValue | INodeParameters];
const SHAPES: Shape[] = [
	['plain string', (id) => id],
	['locator, From List', (id) => ({ __rl: true, mode: 'list', value: id, cachedResultName: 'Picked in the editor' })],
	['locator, By ID', (id) => ({ __rl: true, mode: 'id', value: id })],
	['locator without __rl (hand-written)', (id) => ({ mode: 'id', value: id })],
	['plain expression', () => '={{ $json.id }}'],
	['locator holding an expression', () => ({ __rl: true, mode: 'id', value: '={{ $json.id }}' })],
];

interface Case {
	name: string;
	/** the operation's parameters, given the picker's stored value */
	parameters: (value: NodeParameterValue | INodeParameters) => INodeParameters;
	id: string;
	/** where the id must arrive */
	sent: (request: ReturnType<typeof onlyRequest>) => unknown;
	/** the node's version; default: the one a new node gets */
	typeVersion?: number;
}

const CASES: Case[] = [
	{
		name: 'integration → disconnect (body)',
		parameters: (integrationId) => ({ resource: 'integration', operation: 'disconnect', integrationId }),
		id: WHATSAPP,
		sent: (request) => request.body,
	},
	{
		name: 'integration → delete (body)',
		parameters: (integrationId) => ({ resource: 'integration', operation: 'delete', integrationId }),
		id: DEMO.integrations.disconnected.id,
		sent: (request) => request.body,
	},
	{
		name: 'integration → validate phone number (body)',
		parameters: (integrationId) => ({
			resource: 'integration',
			operation: 'validatePhoneNumber',
			integrationId,
			phoneNumber: DEMO.contacts.alice.phoneNumber,
		}),
		id: WHATSAPP,
		sent: (request) => (request.body as { integrationId: unknown }).integrationId,
	},
	{
		name: 'webhook → create (body)',
		parameters: (integrationId) => ({
			resource: 'webhook',
			operation: 'create',
			integrationId,
			url: 'https://example.com/hook',
		}),
		id: OFFICIAL,
		sent: (request) => (request.body as { integrationId: unknown }).integrationId,
	},
	{
		name: 'template → get many (query)',
		parameters: (integrationId) => ({ resource: 'template', operation: 'getAll', integrationId, limit: 1 }),
		id: OFFICIAL,
		sent: (request) => request.query.integrationId,
	},
	{
		name: 'group → get invite URL (query)',
		parameters: (integrationId) => ({
			resource: 'group',
			operation: 'getInviteUrl',
			integrationId,
			groupJid: DEMO.group.jid,
		}),
		id: DEMO.group.integrationId,
		sent: (request) => request.query.integrationId,
	},
	{
		name: 'automation → stop in chat, integration in Additional Fields (body)',
		parameters: (integrationId) => ({
			resource: 'automation',
			operation: 'stopInChat',
			chat: { __rl: true, mode: 'phoneNumber', value: DEMO.contacts.twoLines.phoneNumber },
			additionalFields: { integrationId },
		}),
		id: WHATSAPP,
		sent: (request) => (request.body as { integrationId: unknown }).integrationId,
	},
	{
		name: 'automation → stop in chat, chat picker (body)',
		parameters: (chat) => ({ resource: 'automation', operation: 'stopInChat', chat }),
		id: DEMO.chats.botFlow.id,
		sent: (request) => request.body,
	},
	{
		name: 'automation → stop in chat, version 1, chat picker (body)',
		parameters: (chatInternalId) => ({ resource: 'automation', operation: 'stopInChat', chatInternalId }),
		id: DEMO.chats.botFlow.id,
		sent: (request) => request.body,
		typeVersion: 1,
	},
	{
		name: 'message → get many, chat picker (query)',
		parameters: (chatInternalId) => ({ resource: 'message', operation: 'getAll', chatInternalId, limit: 2 }),
		id: ALICE_CHAT,
		sent: (request) => request.query.chatInternalId,
	},
];

const expectedSent = (testCase: Case): unknown => {
	if (testCase.name.endsWith('disconnect (body)') || testCase.name.endsWith('delete (body)')) {
		return { integrationId: testCase.id };
	}
	if (testCase.name.includes('chat picker (body)')) return { chatInternalId: testCase.id };
	return testCase.id;
};

describe.each(CASES)('$name', (testCase) => {
	test.each(SHAPES)('stored as %s: the bare id is sent', async (_shape, store) => {
		const out = await runNode(ctx.sandbox, {
			parameters: testCase.parameters(store(testCase.id)),
			items: [{ id: testCase.id }],
			typeVersion: testCase.typeVersion,
		});
		expect(testCase.sent(onlyRequest(ctx.sandbox))).toEqual(expectedSent(testCase));
		expect(out.length).toBeGreaterThan(0);
		expect(out.every((item) => item.error === undefined)).toBe(true);
	});

	test('a bad id is refused before sending, naming the field and the item, in either shape', async () => {
		const probe = testCase.parameters('x');
		const field = probe.chatInternalId === 'x' || probe.chat === 'x' ? 'Chat' : 'Integration';
		for (const value of ['line-1', { __rl: true, mode: 'id', value: testCase.id.toUpperCase() }]) {
			const error = await runNodeError(ctx.sandbox, { parameters: testCase.parameters(value), typeVersion: testCase.typeVersion });
			expect(error.message).toMatch(new RegExp(`^Invalid ${field}: must be an ID: "c" followed by 24`));
		}
		expect(ctx.sandbox.requests).toHaveLength(0);
	});
});

describe('required pickers left empty, and several items', () => {
	test('an empty required picker (either shape) is missing; nothing is sent', async () => {
		for (const integrationId of ['', { __rl: true, mode: 'list', value: '' }]) {
			const error = await runNodeError(ctx.sandbox, {
				parameters: { resource: 'integration', operation: 'disconnect', integrationId },
			});
			expect(error.message).toBe('Missing Integration: a value is required');
		}
		const chat = await runNodeError(ctx.sandbox, {
			parameters: { resource: 'message', operation: 'getAll', chatInternalId: { __rl: true, mode: 'list', value: '' } },
		});
		expect(chat.message).toBe('Missing Chat: a value is required');
		expect(ctx.sandbox.requests).toHaveLength(0);
	});

	test('an empty optional picker sends nothing for it', async () => {
		await runNode(ctx.sandbox, {
			parameters: {
				resource: 'automation',
				operation: 'stopInChat',
				chat: { __rl: true, mode: 'phoneNumber', value: DEMO.contacts.alice.phoneNumber },
				additionalFields: { integrationId: { __rl: true, mode: 'list', value: '' } },
			},
		});
		expect(onlyRequest(ctx.sandbox).body).toEqual({ phoneNumber: DEMO.contacts.alice.phoneNumber });
	});

	test('version 1: an empty optional picker sends nothing for it (Chat empty, the phone number given)', async () => {
		await runNode(ctx.sandbox, {
			typeVersion: 1,
			parameters: {
				resource: 'automation',
				operation: 'stopInChat',
				chatInternalId: { __rl: true, mode: 'list', value: '' },
				phoneNumber: DEMO.contacts.alice.phoneNumber,
				additionalFields: { integrationId: { __rl: true, mode: 'list', value: '' } },
			},
		});
		expect(onlyRequest(ctx.sandbox).body).toEqual({ phoneNumber: DEMO.contacts.alice.phoneNumber });
	});

	test('a picker holding an expression: per item; the bad item is named and not sent (continue on fail)', async () => {
		const out = await runNode(ctx.sandbox, {
			continueOnFail: true,
			items: [{ chat: ALICE_CHAT }, { chat: 'alice' }, { chat: DEMO.chats.lid.id }],
			parameters: {
				resource: 'message',
				operation: 'getAll',
				chatInternalId: { __rl: true, mode: 'id', value: '={{ $json.chat }}' },
				limit: 1,
			},
		});
		expect(out.map((item) => (item.pairedItem as { item: number }).item)).toEqual([0, 1, 2]);
		expect(out[1].error).toBeInstanceOf(NodeOperationError);
		expect(out[1].json.error).toBe(
			'Invalid Chat: must be an ID: "c" followed by 24 lowercase letters or digits, got "alice" [item 1]',
		);
		expect(ctx.sandbox.requests.map((request) => request.query.chatInternalId)).toEqual([ALICE_CHAT, DEMO.chats.lid.id]);
	});
});

describe('an ID field that is not a picker', () => {
	test('given a locator value (e.g. copied from another node), sends the bare id; a bad one is refused', async () => {
		const trigger = DEMO.triggers.webhook.id;
		await runNode(ctx.sandbox, {
			parameters: {
				resource: 'automation',
				operation: 'delete',
				automationTriggerId: { __rl: true, mode: 'id', value: trigger },
			},
		});
		expect(onlyRequest(ctx.sandbox).body).toEqual({ automationTriggerId: trigger });
		ctx.sandbox.reset();
		const error = await runNodeError(ctx.sandbox, {
			parameters: {
				resource: 'automation',
				operation: 'delete',
				automationTriggerId: { __rl: true, mode: 'id', value: 'trigger-1' },
			},
		});
		expect(error.message).toBe(
			'Invalid Automation Trigger ID: must be an ID: "c" followed by 24 lowercase letters or digits, got "trigger-1"',
		);
		expect(ctx.sandbox.requests).toHaveLength(0);
	});
});

describe('multi-selects: what the editor stores (a list) and older shapes (a comma-separated text)', () => {
	const chatFilters = (filters: INodeParameters) => ({
		resource: 'chat',
		operation: 'getAll',
		category: 'attendance',
		limit: 5,
		filters,
	});

	test('chosen options (a list) go out comma-separated', async () => {
		await runNode(ctx.sandbox, {
			parameters: chatFilters({
				integrationIds: [WHATSAPP, OFFICIAL],
				attendantIds: [DEMO.users.ana.id, DEMO.users.bruno.id],
			}),
		});
		expect(onlyRequest(ctx.sandbox).query).toMatchObject({
			integrationIds: `${WHATSAPP},${OFFICIAL}`,
			attendantIds: `${DEMO.users.ana.id},${DEMO.users.bruno.id}`,
		});
	});

	test('a comma-separated text, and a list from an expression, work too', async () => {
		await runNode(ctx.sandbox, {
			parameters: chatFilters({
				integrationIds: `${WHATSAPP}, ${OFFICIAL}`,
				attendantIds: `={{ ["${DEMO.users.carla.id}"] }}`,
			}),
		});
		// The first page's query (a short page is confirmed by a second one: issue 12).
		expect(ctx.sandbox.requests[0].query).toMatchObject({
			integrationIds: `${WHATSAPP},${OFFICIAL}`,
			attendantIds: DEMO.users.carla.id,
		});
	});

	test('automation → update: chosen integrations go out as a JSON list; a bad one is refused', async () => {
		const base = {
			resource: 'automation',
			operation: 'update',
			automationTriggerId: DEMO.triggers.anyMessage.id,
		};
		const fields = { name: 'Greet', description: 'Greets every message', triggerType: 'RECEIVE_ANY_MESSAGE' };
		await runNode(ctx.sandbox, { parameters: { ...base, updateFields: { ...fields, integrations: [OFFICIAL, WHATSAPP] } } });
		expect((onlyRequest(ctx.sandbox).body as { integrations: string[] }).integrations).toEqual([OFFICIAL, WHATSAPP]);
		ctx.sandbox.reset();
		const error = await runNodeError(ctx.sandbox, {
			parameters: { ...base, updateFields: { ...fields, integrations: [WHATSAPP, 'Support WhatsApp'] } },
		});
		expect(error.message).toMatch(/^Invalid Integration Names or IDs, value 2: must be an ID/);
		expect(ctx.sandbox.requests).toHaveLength(0);
	});
});
