import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { ConversationInbox } from '../../nodes/ConversationInbox/ConversationInbox.node';
import codex from '../../nodes/ConversationInbox/ConversationInbox.node.json';
import { WIRE } from '../../nodes/ConversationInbox/wireNames';
import { DEMO } from '../sandbox';
import { onlyRequest, runNode, useSandbox } from '../helpers/node-runner';

const description = new ConversationInbox().description;
const ctx = useSandbox();

/** DESIGN.md, "The node's public interface". */
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

function operationsOf(resource: string): INodePropertyOptions[] {
	const selector = description.properties.find(
		(p) => p.name === 'operation' && p.displayOptions?.show?.resource?.includes(resource),
	);
	return (selector?.options ?? []) as INodePropertyOptions[];
}

function propertiesOf(resource: string, operation: string): INodeProperties[] {
	return description.properties.filter(
		(p) =>
			p.displayOptions?.show?.resource?.includes(resource) &&
			p.displayOptions?.show?.operation?.includes(operation),
	);
}

describe('node description', () => {
	test('identity, credentials, tool use, connections, subtitle, icon, request defaults', () => {
		expect(description).toMatchObject({
			name: 'conversationInbox',
			displayName: 'Conversation Inbox',
			version: 1,
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
		expect(String(description.requestDefaults?.baseURL)).toContain('$credentials.baseUrl');
	});

	test('codex file: Communication, with documentation links', () => {
		expect(codex.node).toBe('n8n-nodes-conversation-inbox.conversationInbox');
		expect(codex.categories).toEqual(['Communication']);
		expect(codex.resources.primaryDocumentation[0].url).toMatch(/^https:\/\//);
		expect(codex.resources.credentialDocumentation[0].url).toMatch(/^https:\/\//);
	});

	test('exactly the 19 operations of DESIGN.md, each with its method and path', () => {
		const actual = (
			description.properties.find((p) => p.name === 'resource')!.options as INodePropertyOptions[]
		).flatMap((resource) =>
			operationsOf(String(resource.value)).map((op) => [
				String(resource.value),
				String(op.value),
				op.routing?.request?.method,
				op.routing?.request?.url,
			]),
		);
		expect(actual.sort()).toEqual([...CONTRACT].sort());
	});

	test.each(CONTRACT)('%s %s goes through the one executor (preSend, pagination function, capture)', (resource, operation) => {
		const option = operationsOf(resource).find((op) => op.value === operation)!;
		expect(option.routing?.send?.paginate).toBe(true);
		expect(option.routing?.send?.preSend).toHaveLength(1);
		expect(typeof option.routing?.operations?.pagination).toBe('function');
		expect(option.routing?.output?.postReceive).toHaveLength(1);
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

	test('the assumed wire names are the ones of DESIGN.md', () => {
		expect(WIRE).toEqual({
			tagContacts: { offset: 'offset', limit: 'limit' },
			automationEdit: { chatType: 'chatType', transferType: 'transferType' },
			webhookCreate: { method: 'method', eventType: 'type', transferType: 'transferType' },
			templateList: {
				integrationId: 'integrationId',
				pageSize: 'limit',
				cursor: 'after',
				status: 'status',
				search: 'search',
			},
			groupInvite: { integrationId: 'integrationId', groupJid: 'groupJid' },
			customFieldsRead: { phoneNumber: 'phoneNumber' },
			chatList: {
				category: 'category',
				offset: 'offset',
				limit: 'limit',
				integrationIds: 'integrationIds',
				sectorIds: 'sectorIds',
				attendantIds: 'attendantIds',
				tagIds: 'tagIds',
			},
			messageList: { chatInternalId: 'chatInternalId', offset: 'offset', limit: 'limit' },
		});
	});

	test('every parameter that carries one API field has that field\'s name', () => {
		const routed = description.properties
			.flatMap((p) => [p, ...((p.type === 'collection' ? p.options : []) as INodeProperties[])])
			.filter((p) => p.routing?.send?.property);
		expect(routed.length).toBeGreaterThan(30);
		for (const property of routed) expect(property.routing?.send?.property).toBe(property.name);
	});
});

describe('escape hatch: extra query parameters and extra body fields, merged last', () => {
	test('extra body fields replace node fields and add new ones', async () => {
		const out = await runNode(ctx.sandbox, {
			parameters: {
				resource: 'tag',
				operation: 'create',
				name: 'Will be replaced',
				options: { extraBodyFields: '{"name": "From JSON", "color": "#ABCDEF"}' },
			},
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
