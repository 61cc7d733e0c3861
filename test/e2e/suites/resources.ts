/**
 * Every operation of the action node, run by n8n in a production execution against the
 * sandbox: one workflow per resource, Webhook → operation → operation → …, every step once.
 * The assertions read what each node output from the saved execution, and what the sandbox saw;
 * the last test checks that the chains ran every operation the node's description offers.
 */
import { operationKey, operationsOf } from '../../helpers/operations';
import { actionDescription } from '../../helpers/action-node';
import { DEMO } from '../../sandbox';
import type { RecordedRequest } from '../../sandbox';
import { importAndActivate, runWebhookWorkflow, type E2EContext, type WorkflowRun } from '../harness/context';
import { nodeJson, nodeOutput } from '../harness/n8n-client';
import { chainWorkflow, type Step } from '../harness/workflows';

const ID = /^c[a-z0-9]{24}$/;

async function runChain(ctx: E2EContext, resource: string, steps: Step[], body: unknown = {}): Promise<WorkflowRun> {
	const { client, stack } = ctx;
	const definition = chainWorkflow(`e2e ${resource}`, `e2e-${resource}-${Date.now()}`, steps, stack.credential);
	const workflow = await importAndActivate(ctx, definition);
	try {
		return await runWebhookWorkflow(ctx, workflow, body);
	} finally {
		await client.deactivate(workflow.id);
	}
}

/** The sandbox's requests to one path, in order. */
const requestsTo = (requests: RecordedRequest[], path: string): RecordedRequest[] => requests.filter((r) => r.path === `/v2${path}`);

export function resourcesSuite(ctx: () => E2EContext): void {
	describe('every operation through n8n', () => {
		beforeEach(() => ctx().sandbox.reset());

		// The operations the chains below ran (action-node steps of runs that finished).
		const ran = new Set<string>();
		const chain = async (c: E2EContext, resource: string, steps: Step[], body?: unknown): Promise<WorkflowRun> => {
			const run = await runChain(c, resource, steps, body);
			for (const step of steps) if (step.type === undefined) ran.add(operationKey(step.parameters));
			return run;
		};

		test('tag: create, remove from contact, get contacts (Return All across pages, and Limit); a 409 becomes an error item under continueOnFail', async () => {
			const { sandbox } = ctx();
			const { execution } = await chain(
				ctx(),
				'tag',
				[
					{ name: 'Create', parameters: { resource: 'tag', operation: 'create', name: '={{ $json.body.tagName }}', additionalFields: { color: '#1A73E8' } } },
					{
						name: 'Remove',
						parameters: {
							resource: 'tag',
							operation: 'removeFromContact',
							phoneNumber: DEMO.contacts.alice.phoneNumber,
							tagIds: [DEMO.tags.vip.id],
							tagNames: [DEMO.tags.lead.name],
							additionalFields: { triggerAutomations: true },
						},
					},
					{ name: 'All contacts', parameters: { resource: 'tag', operation: 'getContacts', tag: { __rl: true, mode: 'name', value: DEMO.tags.big.name }, returnAll: true } },
					{ name: 'Five contacts', parameters: { resource: 'tag', operation: 'getContacts', tag: { __rl: true, mode: 'id', value: DEMO.tags.big.id }, limit: 5 } },
					{ name: 'Duplicate', continueOnFail: true, parameters: { resource: 'tag', operation: 'create', name: DEMO.tags.vip.name } },
				],
				{ tagName: 'Gold Customer' },
			);

			const created = nodeJson(execution, 'Create');
			expect(created).toEqual([{ id: expect.stringMatching(ID), name: 'Gold Customer', color: '#1A73E8', createdAt: expect.any(String), updatedAt: expect.any(String) }]);
			expect(sandbox.state.tagByName('Gold Customer')?.id).toBe(created[0].id);

			const [removed] = nodeJson(execution, 'Remove');
			expect((removed.removedTags as Array<{ id: string }>).map((t) => t.id).sort()).toEqual([DEMO.tags.vip.id, DEMO.tags.lead.id].sort());
			expect(removed.contact).toMatchObject({ phoneNumber: DEMO.contacts.alice.phoneNumber });
			expect(removed.automations).toMatchObject({ requested: true });
			expect(sandbox.state.contacts.get(DEMO.contacts.alice.phoneNumber)?.tags.has(DEMO.tags.vip.id)).toBe(false);

			// Return All: 150 contacts in two pages (100 + 50), one item per contact.
			const all = nodeJson(execution, 'All contacts');
			expect(all).toHaveLength(DEMO.defaults.contactsOnBigTag);
			expect(new Set(all.map((c) => c.phoneNumber)).size).toBe(DEMO.defaults.contactsOnBigTag);
			expect(all[0]).toEqual({ chatId: expect.any(String), phoneNumber: expect.any(String), name: expect.any(String), params: expect.any(Object), addedAt: expect.any(String) });
			const pages = requestsTo(sandbox.requests, '/tag/list-contacts').filter((r) => r.query.tagName === DEMO.tags.big.name);
			expect(pages.map((r) => r.query.offset)).toEqual(['0', '100']);

			expect(nodeJson(execution, 'Five contacts').map((c) => c.phoneNumber)).toEqual(all.slice(0, 5).map((c) => c.phoneNumber));

			// Under continueOnFail n8n keeps only the message of an error item (WorkflowExecute
			// normalizes every item that carries an error to { error: message }): the API's own
			// message is in it.
			const duplicate = nodeOutput(execution, 'Duplicate');
			expect(duplicate.map((i) => i.json)).toEqual([{ error: `The request conflicts with existing data (HTTP 409): Name: a tag named "${DEMO.tags.vip.name}" already exists` }]);
			expect(duplicate[0].pairedItem).toEqual({ item: 0 });
			expect(requestsTo(sandbox.requests, '/tag/create').map((r) => r.status)).toEqual([200, 409]);
			for (const request of sandbox.requests) expect(request.headers.authorization).toBe(`Bearer ${sandbox.token}`);
		});

		test('automation: update, delete, stop in chat', async () => {
			const { sandbox } = ctx();
			expect(sandbox.state.chats.get(DEMO.chats.botFlow.id)?.automations.length).toBeGreaterThan(0);
			const { execution } = await chain(ctx(), 'automation', [
				{
					name: 'Update',
					parameters: {
						resource: 'automation',
						operation: 'update',
						automationTriggerId: DEMO.triggers.specificMessage.id,
						updateFields: { name: 'Pricing (renamed in n8n)' },
					},
				},
				{ name: 'Delete', parameters: { resource: 'automation', operation: 'delete', automationTriggerId: DEMO.triggers.webhook.id } },
				{
					name: 'Stop',
					parameters: {
						resource: 'automation',
						operation: 'stopInChat',
						chat: { __rl: true, mode: 'phoneNumber', value: DEMO.contacts.botFlow.phoneNumber },
						additionalFields: { integrationId: DEMO.integrations.whatsapp.id },
					},
				},
			]);
			// A rename-only update sends only the ID and the name: the trigger keeps its type and text.
			expect(requestsTo(sandbox.requests, '/automation/edit').map((r) => r.body)).toEqual([
				{ automationTriggerId: DEMO.triggers.specificMessage.id, name: 'Pricing (renamed in n8n)' },
			]);
			expect(nodeJson(execution, 'Update')).toEqual([
				expect.objectContaining({ id: DEMO.triggers.specificMessage.id, name: 'Pricing (renamed in n8n)', triggerType: 'RECEIVE_SPECIFIC_MESSAGE', specificMessage: 'pricing' }),
			]);
			expect(sandbox.state.triggers.get(DEMO.triggers.specificMessage.id)).toMatchObject({ name: 'Pricing (renamed in n8n)', triggerType: 'RECEIVE_SPECIFIC_MESSAGE', specificMessage: 'pricing' });

			expect(nodeJson(execution, 'Delete')).toEqual([{ success: true, automationTriggerId: DEMO.triggers.webhook.id }]);
			expect(sandbox.state.triggers.has(DEMO.triggers.webhook.id)).toBe(false);

			const [stopped] = nodeJson(execution, 'Stop');
			expect(stopped).toMatchObject({ stopped: true, chat: { chatInternalId: DEMO.chats.botFlow.id } });
			expect((stopped.automations as Array<{ type: string }>).map((a) => a.type)).toEqual(['BOT']);
			expect(sandbox.state.chats.get(DEMO.chats.botFlow.id)?.automations).toEqual([]);
		});

		test('bot integration: create', async () => {
			const { sandbox } = ctx();
			const { execution } = await chain(ctx(), 'botIntegration', [
				{ name: 'Create bot', parameters: { resource: 'botIntegration', operation: 'create', name: 'Sales bot', url: 'https://bots.example.com/api/v1/bots/sales' } },
			]);
			const [bot] = nodeJson(execution, 'Create bot');
			expect(bot).toEqual({ id: expect.stringMatching(ID), name: 'Sales bot', createdAt: expect.any(String), updatedAt: expect.any(String) });
			expect(sandbox.state.bots.get(bot.id as string)?.url).toBe('https://bots.example.com/api/v1/bots/sales');
		});

		test('integration: get many, validate phone numbers (4 items in, 4 out, two error items), disconnect, delete', async () => {
			const TOO_MANY_DIGITS = '55119876500012345';
			const { sandbox } = ctx();
			const { execution } = await chain(
				ctx(),
				'integration',
				[
					{ name: 'Split', type: 'n8n-nodes-base.splitOut', typeVersion: 1, executeOnce: false, parameters: { fieldToSplitOut: 'body.phones', include: 'noOtherFields', options: {} } },
					{
						name: 'Validate',
						executeOnce: false,
						continueOnFail: true,
						parameters: { resource: 'integration', operation: 'validatePhoneNumber', integrationId: DEMO.integrations.whatsapp.id, phoneNumber: '={{ $json.phone }}' },
					},
					{ name: 'List', parameters: { resource: 'integration', operation: 'getAll', returnAll: true } },
					{ name: 'Disconnect', parameters: { resource: 'integration', operation: 'disconnect', integrationId: DEMO.integrations.whatsapp.id } },
					{ name: 'Delete', parameters: { resource: 'integration', operation: 'delete', integrationId: DEMO.integrations.disconnected.id } },
				],
				// good; missing (the node refuses it: no request); good; 17 digits, which the node's check
				// (8-30 characters, at least 8 digits) lets through and the API rejects (400)
				{ phones: [{ phone: DEMO.contacts.alice.phoneNumber }, { phone: '' }, { phone: DEMO.notOnChannelPhoneNumber }, { phone: TOO_MANY_DIGITS }] },
			);
			const validated = nodeOutput(execution, 'Validate');
			expect(validated.map((i) => i.json)).toEqual([
				{ exists: true, jid: `${DEMO.contacts.alice.phoneNumber}@s.whatsapp.net` },
				{ error: expect.stringMatching(/Phone Number.*item 1/) },
				{ exists: false, jid: `${DEMO.notOnChannelPhoneNumber}@s.whatsapp.net` },
				{ error: 'The API rejected the request as invalid (HTTP 400): Phone Number must contain 8-15 digits' },
			]);
			expect(validated.map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }, { item: 3 }]);
			// The missing number was never sent (the items' requests may go out in any order).
			const sent = requestsTo(sandbox.requests, '/integration/validate-chat-phone-number').map((r) => [(r.body as { phoneNumber: string }).phoneNumber, r.status]);
			expect(sent.sort()).toEqual(
				[
					[DEMO.contacts.alice.phoneNumber, 200],
					[DEMO.notOnChannelPhoneNumber, 200],
					[TOO_MANY_DIGITS, 400],
				].sort(),
			);

			const listed = nodeJson(execution, 'List');
			expect(listed.map((i) => i.id)).toEqual(expect.arrayContaining([DEMO.integrations.whatsapp.id, DEMO.integrations.official.id, DEMO.integrations.disconnected.id]));
			expect(listed).toHaveLength(sandbox.state.integrations.size);

			expect(nodeJson(execution, 'Disconnect')).toEqual([expect.objectContaining({ id: DEMO.integrations.whatsapp.id, connectionStatus: 'DISCONNECTED' })]);
			expect(nodeJson(execution, 'Delete')).toEqual([{ success: true, integrationId: DEMO.integrations.disconnected.id }]);
			expect(sandbox.state.integrations.get(DEMO.integrations.disconnected.id)?.connectionStatus ?? 'removed').toMatch(/^(DELETING|removed)$/);
		});

		test('webhook: create', async () => {
			const { sandbox } = ctx();
			const { execution } = await chain(ctx(), 'webhook', [
				{
					name: 'Create webhook',
					parameters: {
						resource: 'webhook',
						operation: 'create',
						integrationId: DEMO.integrations.official.id,
						url: 'https://hooks.example.com/inbox',
						type: 'MESSAGE_SENT',
						method: 'PUT',
						additionalFields: { delayMinutes: 3, transferType: 'API', headers: { header: [{ key: 'x-team', value: 'sales' }] } },
					},
				},
			]);
			const [webhook] = nodeJson(execution, 'Create webhook');
			expect(webhook).toMatchObject({
				id: expect.stringMatching(ID),
				integrationId: DEMO.integrations.official.id,
				url: 'https://hooks.example.com/inbox',
				method: 'PUT',
				type: 'MESSAGE_SENT',
				delayMinutes: 3,
				transferType: 'API',
				headers: [{ key: 'x-team', value: 'sales' }],
			});
			expect(sandbox.state.webhooks.get(webhook.id as string)?.url).toBe('https://hooks.example.com/inbox');
		});

		test('template: get many, Return All following the cursor across pages', async () => {
			const { sandbox } = ctx();
			sandbox.reset({ templates: 600 });
			const { execution } = await chain(ctx(), 'template', [
				{ name: 'All templates', parameters: { resource: 'template', operation: 'getAll', integrationId: DEMO.templates.integrationId, returnAll: true } },
				{ name: 'Approved, 10', parameters: { resource: 'template', operation: 'getAll', integrationId: DEMO.templates.integrationId, limit: 10, filters: { status: 'APPROVED' } } },
			]);
			const catalog = sandbox.state.templates.get(DEMO.templates.integrationId)!.list;
			const all = nodeJson(execution, 'All templates');
			expect(all).toHaveLength(600);
			expect(all.map((t) => t.id)).toEqual(catalog.map((t) => t.id));
			const pages = requestsTo(sandbox.requests, '/provider-template/list').filter((r) => r.query.status === undefined);
			expect(pages.length).toBeGreaterThanOrEqual(3);
			expect(pages[0].query.after).toBeUndefined();
			expect(pages.slice(1).every((r) => typeof r.query.after === 'string' && r.query.after !== '')).toBe(true);

			const approved = nodeJson(execution, 'Approved, 10');
			expect(approved).toHaveLength(10);
			expect(approved.every((t) => t.status === 'APPROVED')).toBe(true);
		});

		test('group: get invite URL', async () => {
			const { execution } = await chain(ctx(), 'group', [
				{ name: 'Invite URL', parameters: { resource: 'group', operation: 'getInviteUrl', integrationId: DEMO.group.integrationId, groupJid: DEMO.group.jid } },
			]);
			expect(nodeJson(execution, 'Invite URL')).toEqual([{ inviteUrl: expect.stringMatching(/^https:\/\/chat\.whatsapp\.com\/\w+$/) }]);
		});

		test('custom field: create or update (a value mapped from the item keeps its text), then get', async () => {
			const { sandbox } = ctx();
			const { execution } = await chain(
				ctx(),
				'customField',
				[
					{
						name: 'Upsert',
						parameters: {
							resource: 'customField',
							operation: 'upsert',
							phoneNumber: DEMO.contacts.alice.phoneNumber,
							inputs: { templateField: [{ templateFieldId: DEMO.customFields.profile.fields.plan, value: '={{ $json.body.plan }}' }] },
						},
					},
					{ name: 'Get', parameters: { resource: 'customField', operation: 'get', phoneNumber: DEMO.contacts.alice.phoneNumber } },
				],
				{ plan: '0123456789' },
			);
			// Text that looks like a number stays text: sent and stored as "0123456789".
			const [sent] = requestsTo(sandbox.requests, '/inbox/upsert-custom-fields-by-phone-number');
			expect((sent.body as { inputs: unknown[] }).inputs).toEqual([
				{ sourceType: 'TEMPLATE_FIELD', templateFieldId: DEMO.customFields.profile.fields.plan, valueJson: '0123456789' },
			]);
			const [upserted] = nodeJson(execution, 'Upsert');
			expect((upserted.customFields as Array<{ key: string; value: unknown }>).map((f) => [f.key, f.value])).toEqual([['plan', '0123456789']]);
			// Version 2's Get is simplified by default: the phone number and each field's key with its value.
			const [read] = nodeJson(execution, 'Get');
			expect(read).toEqual(expect.objectContaining({ phoneNumber: DEMO.contacts.alice.phoneNumber, plan: '0123456789' }));
			expect(requestsTo(sandbox.requests, '/inbox/get-custom-fields-from-chat')[0].query).toEqual({ phoneNumber: DEMO.contacts.alice.phoneNumber });
		});

		test('chat: get many (Return All, and a category with Limit)', async () => {
			const { sandbox } = ctx();
			const { execution } = await chain(ctx(), 'chat', [
				{ name: 'Attendance', parameters: { resource: 'chat', operation: 'getAll', returnAll: true } },
				{ name: 'Queue, 2', parameters: { resource: 'chat', operation: 'getAll', category: 'queue', limit: 2 } },
			]);
			const attendance = nodeJson(execution, 'Attendance');
			expect(attendance.map((c) => c.id)).toEqual(sandbox.state.chatsIn('attendance').map((c) => c.id));
			expect(attendance.map((c) => c.id)).toContain(DEMO.chats.alice.id);
			const queue = nodeJson(execution, 'Queue, 2');
			expect(queue).toHaveLength(2);
			expect(queue.every((c) => c.category === 'queue')).toBe(true);
		});

		test('message: get many of a chat', async () => {
			const { sandbox } = ctx();
			const { execution } = await chain(ctx(), 'message', [
				{ name: 'Messages', parameters: { resource: 'message', operation: 'getAll', chatInternalId: DEMO.chats.alice.id, returnAll: true } },
			]);
			const messages = sandbox.state.chats.get(DEMO.chats.alice.id)!.messages;
			const out = nodeJson(execution, 'Messages');
			expect(out.map((m) => m.id).sort()).toEqual(messages.map((m) => m.id).sort());
			expect(out.every((m) => m.chatInternalId === DEMO.chats.alice.id)).toBe(true);
		});

		test('user: get many', async () => {
			const { execution } = await chain(ctx(), 'user', [{ name: 'Users', parameters: { resource: 'user', operation: 'getAll', returnAll: true } }]);
			expect(nodeJson(execution, 'Users').map((u) => u.id)).toEqual([DEMO.users.ana.id, DEMO.users.bruno.id, DEMO.users.carla.id]);
		});

		// Issue 42, Build 3: the node closes a request at its Timeout (through the signal n8n's HTTP
		// helper takes from the context, which the node hands its own), instead of leaving it open
		// until n8n's client gives up 60 s later while its place goes to the next request.
		test('a request past its Timeout (500 ms) is closed by the node at once, not left open; the item names the timeout', async () => {
			const { sandbox } = ctx();
			const held = sandbox.hold({ path: '/tag/remove-from-contact' });
			try {
				const { execution } = await chain(ctx(), 'timeout', [
					{
						name: 'Remove',
						continueOnFail: true,
						parameters: { resource: 'tag', operation: 'removeFromContact', phoneNumber: DEMO.contacts.alice.phoneNumber, tagIds: [DEMO.tags.vip.id], requestOptions: { timeout: 500 } },
					},
				]);
				expect(nodeJson(execution, 'Remove').map((item) => item.error)).toEqual(['The API did not answer within 500 ms (timeout)']);
				expect(held.held).toHaveLength(1);
				// Closed by n8n while the sandbox still held it: no answer was ever written.
				await sandbox.waitForRequests(() => held.held[0].answeredSeq !== undefined, 5_000);
				expect(held.held[0].status).toBe(0);
				expect(sandbox.inFlight).toBe(0);
			} finally {
				held.release();
			}
			// Left open, the request would hold the item until n8n's own client gives up, 60 s after
			// the Timeout: far past this test's bound.
		}, 30_000);

		test('the chains above ran every operation of the action node', () => {
			expect([...ran].sort()).toEqual(operationsOf(actionDescription()).map(operationKey).sort());
		});
	});
}
