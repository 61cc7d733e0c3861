/**
 * The example workflows in examples/workflows/ (what `npm run dev` imports and users copy), run by
 * n8n against the sandbox. Manual Trigger examples get a Webhook node in its place (same name).
 */
import { DEMO } from '../../sandbox';
import { importAndActivate, runWebhookWorkflow, waitForTriggerActivation, type E2EContext } from '../harness/context';
import { BEARER_CREDENTIAL_TYPE, connectMcpWhenLive, mcpUrl, MCP_TRIGGER_TYPE, resultText, toolNameOf } from '../harness/mcp';
import { nodeJson, type WorkflowRecord } from '../harness/n8n-client';
import { exampleNames, loadExample, manualTriggerToWebhook, prepareForImport, ACTION_NODE_TYPE, TOOL_NODE_TYPE, TRIGGER_NODE_TYPE } from '../harness/workflows';

export function examplesSuite(ctx: () => E2EContext): void {
	describe('example workflows', () => {
		const active: WorkflowRecord[] = [];
		beforeEach(() => ctx().sandbox.reset());
		afterEach(async () => {
			for (const workflow of active.splice(0)) await ctx().client.deactivate(workflow.id);
		});

		test('there are the five examples, each using our nodes', () => {
			expect(exampleNames()).toEqual(['mcp-server-for-your-inbox', 'stop-automation', 'tag-contacts-export', 'template-listing', 'trigger-to-reply']);
			for (const name of exampleNames()) {
				const types = loadExample(name).nodes.map((n) => n.type);
				expect(types.some((t) => t === ACTION_NODE_TYPE || t === TRIGGER_NODE_TYPE || t === TOOL_NODE_TYPE)).toBe(true);
			}
		});

		test('tag contacts export: every contact of the tag (two pages) into one CSV file', async () => {
			const c = ctx();
			const definition = manualTriggerToWebhook(prepareForImport(loadExample('tag-contacts-export'), c.stack.credential), `example-export-${c.major}`, 'firstEntryBinary');
			const workflow = await importAndActivate(c, definition);
			active.push(workflow);
			const { execution, response } = await runWebhookWorkflow(c, workflow, {});
			expect(nodeJson(execution, 'Get contacts of the tag')).toHaveLength(DEMO.defaults.contactsOnBigTag);
			expect(c.sandbox.requests.filter((r) => r.path === '/v2/tag/list-contacts').map((r) => r.query.offset)).toEqual(['0', '100']);
			const rows = nodeJson(execution, 'Keep the columns');
			expect(Object.keys(rows[0]).sort()).toEqual(['chatId', 'name', 'phoneNumber', 'taggedAt']);
			// The webhook answers with the file the last node wrote (n8n 1.x sends it as a JSON-encoded
			// Buffer; the CSV starts with a byte-order mark).
			const body = response.body as { type?: string; data?: number[] };
			const text = body && body.type === 'Buffer' && Array.isArray(body.data) ? Buffer.from(body.data).toString('utf8') : response.text;
			const lines = text.replace(/^\uFEFF/, '').trim().split(/\r?\n/);
			expect(lines[0]).toBe('phoneNumber,name,chatId,taggedAt');
			expect(lines).toHaveLength(DEMO.defaults.contactsOnBigTag + 1);
			expect(lines[1]).toContain(String(rows[0].phoneNumber));
		});

		test('stop automation: a POST with a phone number stops the bot in that chat; a bad number is answered 400 with the node\'s message', async () => {
			const c = ctx();
			const definition = prepareForImport(loadExample('stop-automation'), c.stack.credential);
			const workflow = await importAndActivate(c, definition);
			active.push(workflow);
			expect(c.sandbox.state.chats.get(DEMO.chats.botFlow.id)?.automations).toHaveLength(1);
			const { response, execution } = await runWebhookWorkflow(c, workflow, {
				phoneNumber: DEMO.contacts.botFlow.phoneNumber,
				integrationId: DEMO.integrations.whatsapp.id,
			});
			expect(response.status).toBe(200);
			expect(response.body).toMatchObject({ stopped: true, chat: { chatInternalId: DEMO.chats.botFlow.id } });
			expect(nodeJson(execution, 'Stop the automation in the chat')).toHaveLength(1);
			expect(c.sandbox.state.chats.get(DEMO.chats.botFlow.id)?.automations).toEqual([]);

			// A number the node refuses: the webhook answers 400 with the node's message (error output →
			// "Answer with the error"), not n8n's {"message":"Error in workflow"}; nothing is sent.
			const sent = c.sandbox.requests.length;
			const refused = await runWebhookWorkflow(c, workflow, { phoneNumber: '12345' });
			expect(refused.response.status).toBe(400);
			expect(refused.response.body).toEqual({ error: 'Invalid Chat (Phone): must be 8-30 characters, got 5 characters' });
			expect(c.sandbox.requests.length).toBe(sent);
		});

		test('template listing: every approved template, following the cursor', async () => {
			const c = ctx();
			c.sandbox.reset({ templates: 600 });
			const definition = manualTriggerToWebhook(prepareForImport(loadExample('template-listing'), c.stack.credential), `example-templates-${c.major}`);
			const workflow = await importAndActivate(c, definition);
			active.push(workflow);
			const { execution } = await runWebhookWorkflow(c, workflow, {});
			const approved = c.sandbox.state.templates.get(DEMO.templates.integrationId)!.list.filter((t) => t.status === 'APPROVED');
			expect(approved.length).toBeGreaterThan(25);
			const out = nodeJson(execution, 'Name, language and category');
			expect(out.map((t) => t.name)).toEqual(approved.map((t) => t.name));
			expect(out.every((t) => t.status === 'APPROVED' && Object.keys(t).length === 4)).toBe(true);
		});

		test('trigger to reply: a contact asking for a person gets the bot stopped and a reply drafted', async () => {
			const c = ctx();
			const definition = prepareForImport(loadExample('trigger-to-reply'), c.stack.credential);
			const workflow = await c.client.createWorkflow(definition);
			await c.client.activate(workflow.id);
			active.push(workflow);
			const trigger = definition.nodes.find((n) => n.type === TRIGGER_NODE_TYPE)!;
			const url = `${c.stack.n8n.url}/webhook/${trigger.webhookId}/webhook`;
			await waitForTriggerActivation(c, workflow.id, trigger.name, url, 1);
			const registered = [...c.sandbox.state.webhooks.values()].filter((w) => w.url === url);
			expect(registered.map((w) => [w.type, w.integrationId, w.transferType])).toEqual([['MESSAGE_RECEIVED', DEMO.integrations.whatsapp.id, 'USER']]);

			const known = await c.client.executionIds(workflow.id);
			// A message that does not ask for a person: an execution that stops at the IF.
			await c.sandbox.simulate.message({ integrationId: DEMO.integrations.whatsapp.id, phoneNumber: DEMO.contacts.botFlow.phoneNumber, direction: 'inbound', text: 'What are your prices?' });
			const [ignored] = await c.client.waitForExecutions(workflow.id, known, 1);
			known.add(ignored.id);
			expect(ignored.data.resultData.runData['Stop the bot in this chat']).toBeUndefined();
			expect(c.sandbox.state.chats.get(DEMO.chats.botFlow.id)?.automations).toHaveLength(1);

			await c.sandbox.simulate.message({ integrationId: DEMO.integrations.whatsapp.id, phoneNumber: DEMO.contacts.botFlow.phoneNumber, direction: 'inbound', text: 'Can I talk to a HUMAN please?' });
			const [handled] = await c.client.waitForExecutions(workflow.id, known, 1);
			expect(handled.status).toBe('success');
			expect(nodeJson(handled, 'Stop the bot in this chat')).toEqual([expect.objectContaining({ stopped: true })]);
			expect(nodeJson(handled, 'Reply')).toEqual([
				{
					chatInternalId: DEMO.chats.botFlow.id,
					phoneNumber: DEMO.contacts.botFlow.phoneNumber,
					automationStopped: true,
					reply: `Hi ${DEMO.contacts.botFlow.name}, a person from our team will answer you here shortly.`,
				},
			]);
			expect(c.sandbox.state.chats.get(DEMO.chats.botFlow.id)?.automations).toEqual([]);
		});

		test('MCP server for your inbox: an MCP client with the Bearer token finds the official channel, lists its templates and works on tags and chats', async () => {
			const c = ctx();
			// Enough approved templates (and contacts on the big tag) to show the Limit of 20 at work.
			c.sandbox.reset({ templates: 600 });
			const token = 'example-mcp-token-8d2e71';
			const bearer = await c.client.createCredential({ name: 'MCP client token', type: BEARER_CREDENTIAL_TYPE, data: { token } });
			const example = loadExample('mcp-server-for-your-inbox');
			const definition = prepareForImport(example, c.stack.credential);
			const trigger = definition.nodes.find((n) => n.type === MCP_TRIGGER_TYPE)!;
			// Step 1 of the example's note: the user picks a Bearer Auth credential on the trigger.
			trigger.credentials = { [BEARER_CREDENTIAL_TYPE]: { id: bearer.id, name: bearer.name } };
			const workflow = await importAndActivate(c, definition);
			active.push(workflow);
			const client = await connectMcpWhenLive(mcpUrl(c.stack.n8n.url, String(trigger.parameters.path)), token);
			try {
				// n8n 1.x's MCP Server Trigger does not pass the trigger's Instructions on to the client.
				expect(client.getInstructions()).toBe(c.major === '2' ? trigger.parameters.instructions : undefined);
				// Every tool node is offered, with the description written for agents and a described argument each.
				const { tools } = await client.listTools();
				const toolNodes = example.nodes.filter((n) => n.type === TOOL_NODE_TYPE);
				expect(tools.map((t) => t.name).sort()).toEqual(toolNodes.map((n) => toolNameOf(n.name)).sort());
				for (const tool of tools) {
					const node = toolNodes.find((n) => toolNameOf(n.name) === tool.name)!;
					expect(tool.description).toBe(node.parameters.toolDescription);
					for (const argument of Object.values(tool.inputSchema.properties ?? {})) expect((argument as { description?: string }).description).toMatch(/\S{3}/);
				}

				const call = async (name: string, args: Record<string, unknown>): Promise<Array<Record<string, unknown>>> => {
					const result = await client.callTool({ name, arguments: args });
					const text = resultText(result);
					if (result.isError) throw new Error(`${name} answered an error: ${text}`);
					return JSON.parse(text) as Array<Record<string, unknown>>;
				};
				const official = (await call('List_channel_integrations', {})).find((i) => i.provider === 'WHATSAPP_OFFICIAL');
				expect(official?.id).toBe(DEMO.integrations.official.id);

				// List tools stop at the example's Limit (20): one page, a bare array, no envelope.
				const templates = await call('List_approved_templates', { Integration_ID: official?.id });
				expect(c.sandbox.requests.filter((r) => r.path === '/v2/provider-template/list').map((r) => r.query)).toEqual([
					{ integrationId: DEMO.integrations.official.id, status: 'APPROVED', limit: '20' },
				]);
				const approved = c.sandbox.state.templates.get(DEMO.templates.integrationId)!.list.filter((t) => t.status === 'APPROVED');
				expect(approved.length).toBeGreaterThan(20);
				expect(templates.map((t) => t.name)).toEqual(approved.slice(0, 20).map((t) => t.name));
				expect(templates.every((t) => t.status === 'APPROVED' && Array.isArray(t.components))).toBe(true);
				const contacts = await call('Get_contacts_of_a_tag', { Tag_Name: DEMO.tags.big.name });
				expect(contacts).toHaveLength(20);
				expect(Object.keys(contacts[0]).sort()).toEqual(['addedAt', 'chatId', 'name', 'params', 'phoneNumber']);

				const [removal] = await call('Remove_tags_from_a_contact', { Phone_Number: DEMO.contacts.alice.phoneNumber, Tag_Names: [DEMO.tags.vip.name] });
				expect((removal.removedTags as Array<{ name: string }>).map((t) => t.name)).toEqual([DEMO.tags.vip.name]);
				const [stop] = await call('Stop_the_automation_in_a_chat', { Phone_Number: DEMO.contacts.botFlow.phoneNumber });
				expect(stop).toMatchObject({ stopped: true, chat: { chatInternalId: DEMO.chats.botFlow.id } });
				const [tag] = await call('Create_a_tag', { Name: 'Asked for a person' });
				expect(tag).toMatchObject({ id: c.sandbox.state.tagByName('Asked for a person')?.id, name: 'Asked for a person' });
				// What an agent reads per list call stays small (measured: about 10 400 and 3 500 characters).
				expect(JSON.stringify(templates).length).toBeLessThan(16_000);
				expect(JSON.stringify(contacts).length).toBeLessThan(6_000);
			} finally {
				await client.close();
			}
		});
	});
}
