/* eslint-disable -- development tooling, not shipped: n8n's node rules (eslint.config.mjs, n8n-node lint) are for nodes/ and credentials/ */
/**
 * The action node as an AI tool (n8n 2.x): n8n's MCP Server Trigger with five tool nodes of ours,
 * their parameters written the way the editor writes them ("Let the model define this parameter"),
 * driven by a real MCP client (@modelcontextprotocol/sdk over Streamable HTTP) with no LLM.
 * Asserted: what an agent is offered (tools/list), what each call sends to the sandbox and what the
 * client gets back, errors an agent can act on, and the Bearer auth of the MCP endpoint.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';

import { DEMO } from '../../sandbox';
import type { RecordedRequest } from '../../sandbox';
import { importAndActivate, type E2EContext } from '../harness/context';
import type { CredentialRecord, WorkflowRecord } from '../harness/n8n-client';
import { BEARER_CREDENTIAL_TYPE, connectMcp, connectMcpWhenLive, fromAI, mcpUrl, mcpWorkflow, resultText, type ToolNodeSpec } from '../harness/mcp';

const MCP_TOKEN = 'mcp-e2e-token-5f1c9a';
// A text is always ONE exact tag name (commas included); several names reach the node as a list.
const TAG_NAMES_DESCRIPTION = 'Exact names of the tags, as a JSON array of strings, e.g. ["VIP", "Lead"]';
const CONTACTS_LIMIT = 10;

/** The tools, as a user builds them in the editor (node name → MCP tool name). */
const TOOLS: ToolNodeSpec[] = [
	{
		name: 'Get contacts of a tag',
		parameters: { resource: 'tag', operation: 'getContacts', tag: { __rl: true, mode: 'name', value: fromAI('Tag_Name', 'Exact name of the tag') }, returnAll: false, limit: CONTACTS_LIMIT },
	},
	{
		name: 'Remove tags from a contact',
		parameters: {
			resource: 'tag',
			operation: 'removeFromContact',
			phoneNumber: fromAI('Phone_Number'),
			// One row holding a 'json' $fromAI (the editor draws a multi-value field row by row).
			tagNames: [fromAI('Tag_Names', TAG_NAMES_DESCRIPTION, 'json')],
			additionalFields: {},
		},
	},
	{
		name: 'Stop the automation in a chat',
		parameters: { resource: 'automation', operation: 'stopInChat', chat: { __rl: true, mode: 'phoneNumber', value: fromAI('Phone_Number') }, additionalFields: {} },
	},
	{
		name: 'List approved templates',
		parameters: {
			resource: 'template',
			operation: 'getAll',
			integrationId: { __rl: true, mode: 'id', value: DEMO.templates.integrationId },
			returnAll: false,
			limit: fromAI('Limit', 'How many templates, 1 to 50', 'number'),
			filters: { status: 'APPROVED' },
		},
	},
	{
		name: 'Create a tag',
		parameters: { resource: 'tag', operation: 'create', name: fromAI('Name'), additionalFields: { color: fromAI('Color', 'Colour as #RRGGBB') } },
	},
];

const SCHEMA = 'https://json-schema.org/draft/2020-12/schema';
const stringArg = (description?: string): Record<string, unknown> => (description === undefined ? { type: 'string' } : { type: 'string', description });

/** What tools/list must answer: names from the node names, descriptions from the operations' actions. */
const EXPECTED_TOOLS = [
	{
		name: 'Create_a_tag',
		description: 'Create a tag with a unique name in Conversation Inbox',
		inputSchema: { $schema: SCHEMA, type: 'object', properties: { Name: stringArg(), Color: stringArg('Colour as #RRGGBB') }, required: ['Name', 'Color'], additionalProperties: true },
	},
	{
		name: 'Get_contacts_of_a_tag',
		description: 'Get contacts of a tag by tag name or ID in Conversation Inbox',
		inputSchema: { $schema: SCHEMA, type: 'object', properties: { Tag_Name: stringArg('Exact name of the tag') }, required: ['Tag_Name'], additionalProperties: true },
	},
	{
		name: 'List_approved_templates',
		description: 'Get many message templates of a channel in Conversation Inbox',
		inputSchema: { $schema: SCHEMA, type: 'object', properties: { Limit: { type: 'number', description: 'How many templates, 1 to 50' } }, required: ['Limit'], additionalProperties: true },
	},
	{
		name: 'Remove_tags_from_a_contact',
		description: 'Remove tags from a contact by phone number in Conversation Inbox',
		inputSchema: {
			$schema: SCHEMA,
			type: 'object',
			properties: {
				Phone_Number: stringArg(),
				// A 'json' $fromAI argument reaches the MCP client with its description only (no type).
				Tag_Names: { description: TAG_NAMES_DESCRIPTION },
			},
			required: ['Phone_Number', 'Tag_Names'],
			additionalProperties: true,
		},
	},
	{
		name: 'Stop_the_automation_in_a_chat',
		description: 'Stop the bot or automation in a chat in Conversation Inbox',
		inputSchema: { $schema: SCHEMA, type: 'object', properties: { Phone_Number: stringArg() }, required: ['Phone_Number'], additionalProperties: true },
	},
];

const requestsTo = (requests: RecordedRequest[], path: string): RecordedRequest[] => requests.filter((r) => r.path === `/v2${path}`);

/** The API's own answer to a GET, read straight from the sandbox (what the tool must pass on, unwrapped). */
async function apiGet(ctx: E2EContext, path: string): Promise<Record<string, unknown>> {
	const res = await fetch(`${ctx.sandbox.baseUrl}${path}`, { headers: { authorization: `Bearer ${ctx.sandbox.token}` } });
	return (await res.json()) as Record<string, unknown>;
}

/**
 * In queue mode n8n hands the agent a failed tool call as JSON text, `{"error":{"message":…}}`, where
 * a single process gives the message as plain text: the same message either way.
 */
function errorMessageIn(text: string): string | undefined {
	try {
		const message = (JSON.parse(text) as { error?: { message?: unknown } })?.error?.message;
		return typeof message === 'string' ? message : undefined;
	} catch {
		return undefined;
	}
}

export function aiToolsSuite(ctx: () => E2EContext): void {
	describe('AI tools: the MCP Server Trigger with our tool nodes, called by a real MCP client', () => {
		let workflow: WorkflowRecord;
		let bearer: CredentialRecord;
		let client: Client;
		let url: string;

		/** One tool call; checks it ran as exactly one execution of the workflow and returns the result. */
		async function call(name: string, args: Record<string, unknown>): Promise<{ isError: boolean; text: string }> {
			const c = ctx();
			const known = await c.client.executionIds(workflow.id);
			const result = await client.callTool({ name, arguments: args });
			const executions = await c.client.waitForExecutions(workflow.id, known, 1);
			expect(executions).toHaveLength(1);
			const text = resultText(result);
			expectNoSecret(text);
			return { isError: result.isError === true, text: errorMessageIn(text) ?? text };
		}

		/** The text an agent gets must not carry a secret. */
		function expectNoSecret(text: string): void {
			expect(text).not.toContain(ctx().sandbox.token);
			expect(text).not.toContain(MCP_TOKEN);
		}

		beforeAll(async () => {
			const c = ctx();
			bearer = await c.client.createCredential({ name: 'MCP client token', type: BEARER_CREDENTIAL_TYPE, data: { token: MCP_TOKEN } });
			const path = `inbox-tools-${c.major}-${Date.now()}`;
			workflow = await importAndActivate(c, mcpWorkflow({ name: 'e2e MCP server', path, tools: TOOLS, credential: c.stack.credential, bearer }));
			url = mcpUrl(c.productionUrl ?? c.stack.n8n.url, path);
			client = await connectMcpWhenLive(url, MCP_TOKEN);
		}, 60_000);

		afterAll(async () => {
			await client?.close();
			if (workflow) await ctx().client.deactivate(workflow.id);
		});

		beforeEach(() => ctx().sandbox.reset());

		test('tools/list: one tool per node, named after it, described by its action, with the $fromAI arguments as required input', async () => {
			const { tools } = await client.listTools();
			const byName = [...tools].sort((a, b) => a.name.localeCompare(b.name));
			expect(byName).toEqual(EXPECTED_TOOLS);
			// Listing runs no tool: nothing reached the API.
			expect(ctx().sandbox.requests).toEqual([]);
		});

		test('get contacts of a tag: one GET with the tag name and the Limit; the client gets the contacts as a bare array', async () => {
			const c = ctx();
			const { isError, text } = await call('Get_contacts_of_a_tag', { Tag_Name: DEMO.tags.big.name });
			expect(isError).toBe(false);
			const sent = requestsTo(c.sandbox.requests, '/tag/list-contacts');
			expect(sent.map((r) => [r.method, r.query, r.headers.authorization])).toEqual([
				['GET', { tagName: DEMO.tags.big.name, offset: '0', limit: String(CONTACTS_LIMIT) }, `Bearer ${c.sandbox.token}`],
			]);
			// No envelope ({success, data: {tag, total, contacts}}): exactly the API's contacts.
			const page = (await apiGet(c, `/tag/list-contacts?tagName=${encodeURIComponent(DEMO.tags.big.name)}&offset=0&limit=${CONTACTS_LIMIT}`)) as { data: { contacts: unknown[] } };
			expect(JSON.parse(text)).toEqual(page.data.contacts);
			expect(page.data.contacts).toHaveLength(CONTACTS_LIMIT);
		});

		test('remove tags from a contact: the phone number and the list of names arrive as the API wants them', async () => {
			const c = ctx();
			const { isError, text } = await call('Remove_tags_from_a_contact', { Phone_Number: DEMO.contacts.alice.phoneNumber, Tag_Names: [DEMO.tags.vip.name, DEMO.tags.lead.name] });
			expect(isError).toBe(false);
			expect(requestsTo(c.sandbox.requests, '/tag/remove-from-contact').map((r) => [r.method, r.body])).toEqual([
				['POST', { phoneNumber: DEMO.contacts.alice.phoneNumber, tagNames: [DEMO.tags.vip.name, DEMO.tags.lead.name] }],
			]);
			const [result] = JSON.parse(text) as Array<{ contact: { phoneNumber: string }; removedTags: Array<{ name: string }>; notInContact: unknown[] }>;
			expect(result.contact.phoneNumber).toBe(DEMO.contacts.alice.phoneNumber);
			expect(result.removedTags.map((t) => t.name).sort()).toEqual([DEMO.tags.lead.name, DEMO.tags.vip.name]);
			expect(result.notInContact).toEqual([]);
			expect(c.sandbox.state.contacts.get(DEMO.contacts.alice.phoneNumber)?.tags.has(DEMO.tags.vip.id)).toBe(false);
		});

		test('stop the automation in a chat: found by phone number; the client learns what was stopped', async () => {
			const c = ctx();
			expect(c.sandbox.state.chats.get(DEMO.chats.botFlow.id)?.automations).toHaveLength(1);
			const { isError, text } = await call('Stop_the_automation_in_a_chat', { Phone_Number: DEMO.contacts.botFlow.phoneNumber });
			expect(isError).toBe(false);
			expect(requestsTo(c.sandbox.requests, '/automation/stop-automation-in-chat').map((r) => r.body)).toEqual([{ phoneNumber: DEMO.contacts.botFlow.phoneNumber }]);
			expect(JSON.parse(text)).toEqual([
				expect.objectContaining({ stopped: true, chat: expect.objectContaining({ chatInternalId: DEMO.chats.botFlow.id }), message: 'Stopped 1 automation(s) in the chat' }),
			]);
			expect(c.sandbox.state.chats.get(DEMO.chats.botFlow.id)?.automations).toEqual([]);
		});

		test('list approved templates: the Limit the agent gives is the page size; the client gets that many approved templates, no envelope', async () => {
			const c = ctx();
			const { isError, text } = await call('List_approved_templates', { Limit: 3 });
			expect(isError).toBe(false);
			expect(requestsTo(c.sandbox.requests, '/provider-template/list').map((r) => r.query)).toEqual([
				{ integrationId: DEMO.templates.integrationId, status: 'APPROVED', limit: '3' },
			]);
			const page = (await apiGet(c, `/provider-template/list?integrationId=${DEMO.templates.integrationId}&status=APPROVED&limit=3`)) as { response: { templates: unknown[] } };
			const templates = JSON.parse(text) as Array<{ status: string }>;
			expect(templates).toEqual(page.response.templates);
			expect(templates.map((t) => t.status)).toEqual(['APPROVED', 'APPROVED', 'APPROVED']);
		});

		test('create a tag: name and colour from the agent; the client gets the new tag with its ID', async () => {
			const c = ctx();
			const { isError, text } = await call('Create_a_tag', { Name: 'Gold Customer', Color: '#1A73E8' });
			expect(isError).toBe(false);
			expect(requestsTo(c.sandbox.requests, '/tag/create').map((r) => r.body)).toEqual([{ name: 'Gold Customer', color: '#1A73E8' }]);
			const created = c.sandbox.state.tagByName('Gold Customer');
			expect(JSON.parse(text)).toEqual([{ id: created?.id, name: 'Gold Customer', color: '#1A73E8', createdAt: expect.any(String), updatedAt: expect.any(String) }]);
		});

		// What an agent must read in an error: the argument it gave (as it knows it), the rule, and
		// nothing about n8n's items (an agent sends one call, not "item 0") nor any secret.
		test('a 5-digit phone number comes back as a tool error that names the argument and the rule; nothing is sent', async () => {
			const c = ctx();
			const { isError, text } = await call('Remove_tags_from_a_contact', { Phone_Number: '12345', Tag_Names: [DEMO.tags.vip.name] });
			expect(isError).toBe(true);
			expect(c.sandbox.requests).toEqual([]);
			expect(text).toMatch(/Phone[ _]Number/);
			expect(text).toContain('8-30 characters');
			expectNoSecret(text);
			expect(text).not.toMatch(/\bitems?\b/i);
		});

		test('a call without a tag comes back as a tool error that names the tag argument; nothing is sent', async () => {
			const c = ctx();
			const { isError, text } = await call('Remove_tags_from_a_contact', { Phone_Number: DEMO.contacts.alice.phoneNumber, Tag_Names: [] });
			expect(isError).toBe(true);
			expect(c.sandbox.requests).toEqual([]);
			expect(text).toMatch(/Tag[ _]Names/);
			expectNoSecret(text);
			expect(text).not.toMatch(/\bitems?\b/i);
		});

		test('API errors come back as tool errors with the API message: an unknown tag (404), a duplicate name (409)', async () => {
			const c = ctx();
			const unknown = await call('Get_contacts_of_a_tag', { Tag_Name: 'No such tag' });
			expect(unknown.isError).toBe(true);
			expect(unknown.text).toContain('Tag: no tag named "No such tag"');
			expect(unknown.text).toContain('HTTP 404');
			expectNoSecret(unknown.text);

			const duplicate = await call('Create_a_tag', { Name: DEMO.tags.vip.name, Color: '#1A73E8' });
			expect(duplicate.isError).toBe(true);
			expect(duplicate.text).toContain(`Name: a tag named "${DEMO.tags.vip.name}" already exists`); // the API's "name:" in the panel's words (issue 36)
			expect(duplicate.text).toContain('HTTP 409');
			expectNoSecret(duplicate.text);
			expect(requestsTo(c.sandbox.requests, '/tag/create').map((r) => r.status)).toEqual([409]);
		});

		test('Bearer auth: a client without the token, or with a wrong one, is refused (HTTP 403) and no tool runs', async () => {
			const c = ctx();
			const known = await c.client.executionIds(workflow.id);
			// n8n's webhook Bearer auth answers 403 "Authorization data is wrong!" to both.
			const refusal = async (token?: string): Promise<unknown> =>
				await connectMcp(url, token).then(
					() => 'connected',
					(error: { code?: number }) => error.code,
				);
			expect(await refusal(undefined)).toBe(403);
			expect(await refusal('not-the-token')).toBe(403);
			// A bare tools/call, skipping the handshake, is refused the same way.
			const raw = await fetch(url, {
				method: 'POST',
				body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'Create_a_tag', arguments: { Name: 'Intruder', Color: '#000000' } } }),
				headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: 'Bearer not-the-token' },
			});
			expect(raw.status).toBe(403);
			expect(await raw.text()).not.toContain(MCP_TOKEN);
			expect(c.sandbox.requests).toEqual([]);
			expect(await c.client.executionIds(workflow.id)).toEqual(known);
		});
	});
}
