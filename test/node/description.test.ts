/* eslint-disable -- development tooling, not shipped: n8n's node rules (eslint.config.mjs, n8n-node lint) are for nodes/ and credentials/ */
import { readFileSync } from 'node:fs';
import { actionDescription } from '../helpers/action-node';
import { join } from 'node:path';

import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import codex from '../../nodes/ConversationInbox/ConversationInbox.node.json';
import { ConversationInbox } from '../../nodes/ConversationInbox/ConversationInbox.node';
import { ConversationInboxTrigger } from '../../nodes/ConversationInboxTrigger/ConversationInboxTrigger.node';
import triggerCodex from '../../nodes/ConversationInboxTrigger/ConversationInboxTrigger.node.json';
import { WIRE } from '../../nodes/shared/wireNames';
import { DEMO } from '../sandbox';
import { onlyRequest, runNode, useSandbox } from '../helpers/node-runner';
import { operationsOf, panelOf } from '../helpers/operations';
import { VALID } from '../reliability/operations';

const description = actionDescription();
const ctx = useSandbox();

/**
 * DESIGN.md, "The node's public interface": the one table in the tests that names every operation.
 * The other tests iterate over the operations the description offers (test/helpers/operations.ts),
 * which the first test below holds to this table.
 */
const CONTRACT: Array<[string, string, string, string]> = [
	['tag', 'create', 'POST', '/tag/create'],
	['tag', 'removeFromContact', 'POST', '/tag/remove-from-contact'],
	['tag', 'getContacts', 'GET', '/tag/list-contacts'],
	['automation', 'update', 'POST', '/automation/edit'],
	['automation', 'delete', 'POST', '/automation/delete'],
	['automation', 'stopInChat', 'POST', '/automation/stop-automation-in-chat'],
	['botIntegration', 'create', 'POST', '/automation/integration-bot/create'],
	['integration', 'getAll', 'GET', '/integration/list'],
	['integration', 'disconnect', 'POST', '/integration/disconnect'],
	['integration', 'delete', 'POST', '/integration/delete'],
	['integration', 'validatePhoneNumber', 'POST', '/integration/validate-chat-phone-number'],
	['webhook', 'create', 'POST', '/integration/webhook/create'],
	['template', 'getAll', 'GET', '/provider-template/list'],
	['group', 'getInviteUrl', 'GET', '/group/get-invite-url'],
	['customField', 'get', 'GET', '/inbox/get-custom-fields-from-chat'],
	['customField', 'upsert', 'POST', '/inbox/upsert-custom-fields-by-phone-number'],
	['chat', 'getAll', 'GET', '/inbox/find-all-chats'],
	['message', 'getAll', 'GET', '/inbox/find-messages-from-inbox'],
	['user', 'getAll', 'GET', '/user/list'],
];
const LISTS = ['tag.getContacts', 'integration.getAll', 'template.getAll', 'chat.getAll', 'message.getAll', 'user.getAll'];

function optionOf(resource: string, operation: string): INodePropertyOptions {
	const found = operationsOf(description).find((entry) => entry.resource === resource && entry.operation === operation);
	if (!found) throw new Error(`no operation ${resource}.${operation}`);
	return found.option;
}

function propertiesOf(resource: string, operation: string): INodeProperties[] {
	return panelOf(description, resource, operation);
}

/** Which endpoint each group of wireNames.ts names (its doc comment says the same). */
const WIRE_ENDPOINTS: Record<keyof typeof WIRE, string> = {
	tagContacts: 'GET /tag/list-contacts',
	automationEdit: 'POST /automation/edit',
	webhookCreate: 'POST /integration/webhook/create',
	templateList: 'GET /provider-template/list',
	groupInvite: 'GET /group/get-invite-url',
	customFieldsRead: 'GET /inbox/get-custom-fields-from-chat',
	chatList: 'GET /inbox/find-all-chats',
	messageList: 'GET /inbox/find-messages-from-inbox',
};

/**
 * docs/endpoints.md's "Assumptions about the API" rows whose "Name we send" is a list of names:
 * endpoint → names in order. (Its other rows describe a body shape or edit semantics.)
 */
function assumedWireNames(): Record<string, string[]> {
	const readme = readFileSync(join(__dirname, '..', '..', 'docs', 'endpoints.md'), 'utf8');
	const section = readme.split('\n## Assumptions about the API\n')[1]?.split('\n## ')[0] ?? '';
	const rows: Record<string, string[]> = {};
	for (const line of section.split('\n')) {
		const [, endpoint, , names] = line.split('|').map((cell) => cell.trim());
		const route = /^`([A-Z]+ \/[^`]+)`$/.exec(endpoint ?? '');
		if (!route || !/^`\w+`(, `\w+`)*$/.test(names ?? '')) continue;
		expect(rows[route[1]]).toBeUndefined();
		rows[route[1]] = names.split(', ').map((name) => name.slice(1, -1));
	}
	return rows;
}

describe('node description', () => {
	test('identity, credentials, tool use, connections, subtitle, icon, request defaults', () => {
		// n8n's VersionedNodeType: 1 as released in 0.1.0 (saved workflows keep it); a new node gets 2.
		const node = new ConversationInbox();
		expect(Object.keys(node.nodeVersions).map(Number)).toEqual([1, 2]);
		expect(node.description).toMatchObject({ name: 'conversationInbox', displayName: 'Conversation Inbox', defaultVersion: 2 });
		expect(actionDescription(1).version).toBe(1);
		expect(description).toMatchObject({
			name: 'conversationInbox',
			displayName: 'Conversation Inbox',
			version: 2,
			defaultVersion: 2,
			usableAsTool: true,
			inputs: ['main'],
			outputs: ['main'],
			credentials: [{ name: 'conversationInboxApi', required: true }],
			icon: { light: 'file:conversationInbox.svg', dark: 'file:conversationInbox.dark.svg' },
			requestDefaults: {
				json: true,
				ignoreHttpStatusErrors: true,
				headers: { Accept: 'application/json', 'Content-Type': 'application/json' },
			},
		});
		// No Base URL expression: n8n would evaluate it twice per item (issue 31); the address comes
		// from the credential the run reads once.
		expect(description.requestDefaults).not.toHaveProperty('baseURL');
	});

	// n8n's AI workflow builder searches nodes by builderHint.searchHint and wires relatedNodes
	// (n8n-workflow's IBuilderHint; the type check is the compiler's). The related node types of
	// this package must be the ones n8n registers: the codex files' `node`.
	test('builderHint on both nodes: a search hint, and related nodes that point at each other', () => {
		const trigger = new ConversationInboxTrigger().description;
		expect(description.builderHint?.searchHint).toMatch(/Conversation Inbox.*tags.*custom fields.*automations/);
		expect(trigger.builderHint?.searchHint).toMatch(/^Starts a workflow on Conversation Inbox .*webhook events/);
		const related = (hint: typeof description.builderHint) => (hint?.relatedNodes ?? []).map((node) => node.nodeType);
		expect(related(description.builderHint)).toEqual([triggerCodex.node, '@n8n/n8n-nodes-langchain.agent', '@n8n/n8n-nodes-langchain.mcpTrigger']);
		expect(related(trigger.builderHint)).toEqual([codex.node]);
		for (const node of [...(description.builderHint?.relatedNodes ?? []), ...(trigger.builderHint?.relatedNodes ?? [])]) {
			expect(node.relationHint.length).toBeGreaterThan(20);
		}
	});

	test('codex file: Communication, with documentation links', () => {
		expect(codex.node).toBe('n8n-nodes-conversation-inbox.conversationInbox');
		expect(codex.categories).toEqual(['Communication']);
		expect(codex.resources.primaryDocumentation[0].url).toMatch(/^https:\/\//);
		expect(codex.resources.credentialDocumentation[0].url).toMatch(/^https:\/\//);
	});

	test('exactly the operations of DESIGN.md, each with its method and path', () => {
		const actual = operationsOf(description).map(({ resource, operation, option }) => [
			resource,
			operation,
			option.routing?.request?.method,
			option.routing?.request?.url,
		]);
		expect(actual.sort()).toEqual([...CONTRACT].sort());
	});

	// Version 1 is 0.1.0's node: the same operations, with the same methods and paths; only the forms
	// that changed since differ, each version's description holding its own form.
	test.each([1, 2])('version %s offers exactly the operations of DESIGN.md, one Operation selector per resource', (version) => {
		const selectors = actionDescription(version).properties.filter((p) => p.name === 'operation');
		const offered = selectors.flatMap((p) =>
			(p.options as INodePropertyOptions[]).map((o) => [p.displayOptions?.show?.resource?.[0], o.value, o.routing?.request?.method, o.routing?.request?.url]),
		);
		expect(offered.sort()).toEqual([...CONTRACT].sort());
		expect(selectors.map((p) => p.displayOptions?.show?.resource?.[0]).sort()).toEqual(
			['automation', 'botIntegration', 'chat', 'customField', 'group', 'integration', 'message', 'tag', 'template', 'user', 'webhook'],
		);
		// No display rule names a version: each version's description is its own.
		expect(JSON.stringify(actionDescription(version).properties)).not.toContain('@version');
	});

	test.each(CONTRACT)('%s %s runs as one function (n8n builds the request, runOperation does the rest; no preSend or postReceive hand-offs)', (resource, operation) => {
		const option = optionOf(resource, operation);
		expect(option.routing?.send?.paginate).toBe(true);
		expect(option.routing?.send?.preSend).toBeUndefined();
		expect(typeof option.routing?.operations?.pagination).toBe('function');
		expect(option.routing?.output).toBeUndefined();
		expect(option.action).toMatch(/^[A-Z][a-z]/);
		expect(option.description).toBeTruthy();
	});

	test.each(CONTRACT)('%s %s has the escape hatch (and list controls when it lists)', (resource, operation, method) => {
		const properties = propertiesOf(resource, operation);
		const options = properties.find((p) => p.name === 'options');
		const names = (options?.options as INodeProperties[]).map((o) => o.name);
		expect(names).toContain('extraQueryParameters');
		if (method === 'GET') expect(names).not.toContain('extraBodyFields');
		else expect(names).toContain('extraBodyFields');
		const isList = LISTS.includes(`${resource}.${operation}`);
		const returnAll = properties.find((p) => p.name === 'returnAll');
		const limit = properties.find((p) => p.name === 'limit');
		expect(!!returnAll).toBe(isList);
		if (isList) {
			expect(limit).toMatchObject({ type: 'number', default: 50, typeOptions: { minValue: 1 } });
			expect(limit?.displayOptions?.show?.returnAll).toEqual([false]);
		}
	});

	// n8n prepares every input item before any request leaves, without yielding; only Settings →
	// Request Options → Batching pauses it (docs/performance.md), and only the user can set it. The
	// advice is a node hint after a large run (test/editor/panel.test.ts), not a notice on every panel.
	test.each(CONTRACT)('%s %s: Options closes the panel, with no Batching notice above it', (resource, operation) => {
		const names = propertiesOf(resource, operation).map((p) => p.name);
		expect(names[names.length - 1]).toBe('options');
		expect(names).not.toContain('largeInputNotice');
	});

	test('every enum option carries a description', () => {
		const enums = description.properties
			.flatMap((p) => [p, ...((p.options ?? []) as INodeProperties[])])
			.filter((p) => p.type === 'options' && !['resource', 'operation'].includes(p.name));
		expect(enums.length).toBeGreaterThan(5);
		for (const property of enums) {
			if (property.name === 'method') continue; // HTTP methods speak for themselves
			for (const option of property.options as INodePropertyOptions[]) {
				expect(option.description).toBeTruthy();
			}
		}
	});

	// docs/endpoints.md's "Assumptions about the API" table states DESIGN.md's wire names; the module must
	// send exactly those, endpoint by endpoint, in the table's order (no copy of the table here).
	test('the assumed wire names are the ones of DESIGN.md, as docs/endpoints.md lists them', () => {
		const sent = Object.fromEntries(
			Object.entries(WIRE).map(([group, names]) => [WIRE_ENDPOINTS[group as keyof typeof WIRE], Object.values(names)]),
		);
		const documented = assumedWireNames();
		expect(Object.keys(documented)).toHaveLength(Object.keys(WIRE).length);
		expect(sent).toEqual(documented);
	});

	// n8n's engine reads a parameter with `routing` twice more per item (an expression evaluation each
	// time): the node reads each field's value itself, once (helpers/prepare.ts); the operation
	// options carry the request and the run. What each field sends, under which name, is what the
	// 0.1.0 fixtures (test/compat) and the sandbox tests check.
	test('no parameter carries routing; only the operations do', () => {
		const nested = (p: INodeProperties): INodeProperties[] => [
			p,
			...((p.type === 'collection' ? p.options : []) as INodeProperties[]).flatMap(nested),
		];
		const routed = description.properties.flatMap(nested).filter((p) => p.routing !== undefined);
		expect(routed.map((p) => p.name)).toEqual([]);
		const operations = description.properties.filter((p) => p.name === 'operation');
		expect(operations.length).toBeGreaterThan(10);
		for (const selector of operations) {
			for (const option of selector.options as INodePropertyOptions[]) expect(option.routing).toBeDefined();
		}
	});
});

describe('escape hatch: extra query parameters and extra body fields, merged last', () => {
	test('extra body fields replace node fields and add new ones', async () => {
		const out = await runNode(ctx.sandbox, {
			parameters: { ...VALID.tagCreate, name: 'Will be replaced', options: { extraBodyFields: '{"name": "From JSON", "color": "#ABCDEF"}' } },
		});
		expect(onlyRequest(ctx.sandbox).body).toEqual({ name: 'From JSON', color: '#ABCDEF' });
		expect(out[0].json).toMatchObject({ name: 'From JSON', color: '#ABCDEF' });
	});

	test('extra body fields given as an object by an expression', async () => {
		await runNode(ctx.sandbox, {
			parameters: {
				resource: 'automation',
				operation: 'delete',
				automationTriggerId: DEMO.triggers.webhook.id,
				options: { extraBodyFields: '={{ { reason: "cleanup" } }}' },
			},
		});
		expect(onlyRequest(ctx.sandbox).body).toEqual({
			automationTriggerId: DEMO.triggers.webhook.id,
			reason: 'cleanup',
		});
	});

	test('extra query parameters are sent on every page; page offset and size stay the node\'s', async () => {
		const out = await runNode(ctx.sandbox, {
			parameters: {
				resource: 'tag',
				operation: 'getContacts',
				tagId: DEMO.tags.big.id,
				returnAll: true,
				options: {
					extraQueryParameters: {
						parameter: [
							{ name: 'includeParams', value: 'true' },
							{ name: 'limit', value: '7' },
						],
					},
				},
			},
		});
		expect(ctx.sandbox.requests.map((r) => r.query)).toEqual([
			{ tagId: DEMO.tags.big.id, includeParams: 'true', offset: '0', limit: '100' },
			{ tagId: DEMO.tags.big.id, includeParams: 'true', offset: '100', limit: '100' },
		]);
		expect(out).toHaveLength(150);
	});

	test('extra query parameters on a POST go to the query string', async () => {
		await runNode(ctx.sandbox, {
			parameters: {
				resource: 'tag',
				operation: 'create',
				name: 'Q',
				options: { extraQueryParameters: { parameter: [{ name: 'dryRun', value: 'false' }] } },
			},
		});
		const request = onlyRequest(ctx.sandbox);
		expect(request.query).toEqual({ dryRun: 'false' });
		expect(request.body).toEqual({ name: 'Q' });
	});
});
