/* eslint-disable -- development tooling, not shipped: n8n's node rules (eslint.config.mjs, n8n-node lint) are for nodes/ and credentials/ */
/**
 * What n8n's AI workflow builder reads about both nodes: the type definition n8n 2.41.1 generates
 * for a community node (n8n/dist/modules/mcp-registry/synthesize-type-def.js: the description
 * without its hidden properties, through @n8n/workflow-sdk's generateNodeTypeFile, 0.34.0 as n8n
 * 2.41.1 ships it), with the builder hints of nodes/shared/builderHints.ts in it; the examples open clean in the editor's
 * checks; and no hint holds what n8n's lint rule no-builder-hint-leakage forbids.
 */
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';

import { generateNodeTypeFile } from '@n8n/workflow-sdk';
import type { INodeProperties, INodeTypeDescription } from 'n8n-workflow';

import { ConversationInbox } from '../../nodes/ConversationInbox/ConversationInbox.node';
import { DEFAULT_NODE_VERSION } from '../../nodes/ConversationInbox/helpers/operation';
import { ConversationInboxTrigger } from '../../nodes/ConversationInboxTrigger/ConversationInboxTrigger.node';
import { RESOURCE_EXAMPLES, typeDefContent } from '../../nodes/shared/builderHints';
import { nodeIssues } from '../../scripts/tools/example-issues';
import { operationsOf } from '../helpers/operations';

const PACKAGE = 'n8n-nodes-conversation-inbox';
// The version a new node gets: the one the AI builder types.
const action = new ConversationInbox().nodeVersions[DEFAULT_NODE_VERSION].description;
const trigger = new ConversationInboxTrigger().description;

/** n8n 2.41.1's synthesizeNodeTypeDef for a node of this package. */
function typeDefinition(description: INodeTypeDescription): string {
	const loaded = { ...description, name: `${PACKAGE}.${description.name}` };
	return generateNodeTypeFile({ ...loaded, properties: loaded.properties.filter((property) => property.type !== 'hidden') } as never);
}

const actionTypes = typeDefinition(action);
const triggerTypes = typeDefinition(trigger);
const pascal = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);

/** The narrowed type of one operation, from its `export type` line to its closing brace. */
function operationType(resource: string, operation: string): string {
	const start = actionTypes.indexOf(`export type ConversationInboxV${DEFAULT_NODE_VERSION}${pascal(resource)}${pascal(operation)}Params = {`);
	if (start < 0) throw new Error(`no type for ${resource} ${operation}`);
	return actionTypes.slice(start, actionTypes.indexOf('\n};\n', start));
}

/** The JSDoc of one field in a narrowed type. */
function fieldDoc(type: string, field: string): string {
	const at = type.search(new RegExp(`\\n\\s+${field}\\??: `));
	if (at < 0) throw new Error(`no field ${field}`);
	return type.slice(type.lastIndexOf('/**', at), at);
}

describe("the action node's type for the AI builder", () => {
	test.each(operationsOf(action).map((entry) => [`${entry.resource} ${entry.operation}`, entry] as const))(
		'%s: the operation says what it does first, then an example of its resource',
		(_label, { resource, resourceName, operation, option }) => {
			const type = operationType(resource, operation);
			const body = type.slice(type.indexOf('= {') + 3);
			expect(body.trimStart().startsWith(`/**\n   * ${resourceName} → ${option.name}: ${option.description}\n`)).toBe(true);
			const example = operationsOf(action).find((entry) => entry.resource === resource && entry.operation === RESOURCE_EXAMPLES[resource].operation)!;
			const title = `${example.resourceName} → ${example.option.name}`;
			expect(body).toContain(`* <pattern title="${title}">`);
			// One description (the newest version's) and one example, none of another resource.
			expect(body.split(`* ${resourceName} → ${option.name}: `)).toHaveLength(2);
			expect(body.split('* <pattern title=')).toHaveLength(2);
			expect(body).toContain(`* node({ type: '${PACKAGE}.conversationInbox', version: ${DEFAULT_NODE_VERSION}, config: { name: '${title}', parameters: { resource: "${resource}", `);
		},
	);

	test('the examples, as the builder reads them', () => {
		const line = (resource: string, operation: string): string => operationType(resource, operation).split('\n').find((text) => text.includes('* node({'))!.trim();
		const rl = '{ __rl: true, mode: "id", value: "clx2v8k1h0000abcd1234efgh" }';
		expect(
			[
				['automation', 'stopInChat'],
				['botIntegration', 'create'],
				['chat', 'getAll'],
				['customField', 'get'],
				['group', 'getInviteUrl'],
				['integration', 'getAll'],
				['message', 'getAll'],
				['tag', 'removeFromContact'],
				['template', 'getAll'],
				['user', 'getAll'],
				['webhook', 'create'],
			].map(([resource, operation]) => line(resource, operation).replace(/^\* node\(\{ type: '[^']+', version: \d+, config: \{ name: '[^']+', parameters: /, '')),
		).toEqual([
			`{ resource: "automation", operation: "stopInChat", chat: { __rl: true, mode: "phoneNumber", value: expr('{{ $json.phoneNumber }}') } } } })`,
			'{ resource: "botIntegration", operation: "create", name: "Support bot", url: "https://bots.example.com/api/v1/bots/clx2v8k1h0000abcd1234efgh" } } })',
			'{ resource: "chat", operation: "getAll", category: "queue", limit: 50 } } })',
			`{ resource: "customField", operation: "get", phoneNumber: expr('{{ $json.phoneNumber }}') } } })`,
			`{ resource: "group", operation: "getInviteUrl", integrationId: ${rl}, groupJid: "120363025246125486@g.us" } } })`,
			'{ resource: "integration", operation: "getAll", returnAll: true } } })',
			`{ resource: "message", operation: "getAll", chatInternalId: { __rl: true, mode: "id", value: expr('{{ $json.chatInternalId }}') }, returnAll: true } } })`,
			`{ resource: "tag", operation: "removeFromContact", phoneNumber: expr('{{ $json.phoneNumber }}'), tagNames: ["VIP"] } } })`,
			`{ resource: "template", operation: "getAll", integrationId: ${rl}, returnAll: true } } })`,
			'{ resource: "user", operation: "getAll", returnAll: true } } })',
			`{ resource: "webhook", operation: "create", integrationId: ${rl}, url: "https://example.com/inbox-events", type: "MESSAGE_RECEIVED" } } })`,
		]);
	});

	test('an example writes an expression as expr(), a locator as its object, a list as a list', () => {
		expect(operationType('tag', 'removeFromContact')).toContain(
			`parameters: { resource: "tag", operation: "removeFromContact", phoneNumber: expr('{{ $json.phoneNumber }}'), tagNames: ["VIP"] } } })`,
		);
		expect(operationType('message', 'getAll')).toContain(`chatInternalId: { __rl: true, mode: "id", value: expr('{{ $json.chatInternalId }}') }`);
		expect(actionTypes).not.toContain('={{');
	});

	test('Phone Number: its format, the LID, the mapping after the trigger; a placeholder may stand for it', () => {
		const doc = fieldDoc(operationType('tag', 'removeFromContact'), 'phoneNumber');
		expect(doc).toContain(
			" * @builderHint Country and area code, e.g. 5511987650001 (+, spaces, dashes allowed); not a name or chat ID. Tag removeFromContact also takes a LID (ending in @lid). After the trigger: expr('{{ $json.phoneNumber }}').\n",
		);
		expect(doc).not.toContain('@placeholderSupported');
	});

	test('IDs: the c + 24 form; By ID vs Name; the two chat IDs', () => {
		const id = '"c" + 24 lowercase letters or digits, e.g. clx2v8k1h0000abcd1234efgh; never a name';
		expect(fieldDoc(operationType('tag', 'removeFromContact'), 'tagIds')).toContain(`@builderHint Tag IDs: ${id} (names go in tagNames). The API cannot list tags.`);
		expect(fieldDoc(operationType('automation', 'delete'), 'automationTriggerId')).toContain(
			`@builderHint ${id}. The API cannot list them: unless an earlier node gives it, use placeholder('Automation trigger ID').`,
		);
		expect(fieldDoc(operationType('tag', 'getContacts'), 'tag')).toContain(`@builderHint mode 'name' with the exact tag name, or mode 'id' with a tag ID: ${id}.`);
		expect(fieldDoc(operationType('automation', 'stopInChat'), 'chat')).toContain(`mode 'jid' with the channel chat ID (…@s.whatsapp.net); mode 'id' with the internal chat ID (${id});`);
		expect(fieldDoc(operationType('message', 'getAll'), 'chatInternalId')).toContain('not the channel chat ID (chatId)');
		expect(fieldDoc(operationType('group', 'getInviteUrl'), 'integrationId')).toContain(`@builderHint mode 'list' with an empty value lets the user pick; mode 'id' takes an ID: ${id}.`);
		// Inside collections and fixed collections too.
		const update = operationType('automation', 'update');
		expect(fieldDoc(update, 'automationBotId')).toContain(`@builderHint ${id}.`);
		expect(fieldDoc(update, 'tagId')).toContain(`@builderHint ${id}.`);
		expect(fieldDoc(operationType('customField', 'upsert'), 'templateFieldId')).toContain(`@builderHint ${id}.`);
		// A field the table has no hint for gets none.
		expect(fieldDoc(operationType('chat', 'getAll'), 'limit')).not.toContain('@builderHint');
	});

	test('n8n loads the node: no builderHint on the Resource and Operation selectors (n8n-core refuses one there)', () => {
		const selectors = action.properties.filter((property) => property.name === 'resource' || property.name === 'operation');
		expect(selectors.length).toBeGreaterThan(10);
		expect(selectors.filter((property) => 'builderHint' in property).map((property) => property.name)).toEqual([]);
	});

	test("each operation's description comes from its newest version's selector, whatever the order of the properties", () => {
		const selector = (version: number, description: string): INodeProperties => ({
			displayName: 'Operation',
			name: 'operation',
			type: 'options',
			default: 'update',
			displayOptions: { show: { resource: ['automation'], '@version': [version] } },
			options: [{ name: 'Update', value: 'update', description }],
		});
		const resource: INodeProperties = { displayName: 'Resource', name: 'resource', type: 'options', default: 'automation', options: [{ name: 'Automation', value: 'automation' }] };
		const [first] = typeDefContent([resource, selector(1, 'as released'), selector(2, 'partial')], 2);
		expect(first).toEqual({ displayOptions: { show: { resource: ['automation'], operation: ['update'] } }, content: 'Automation → Update: partial' });
	});

	test('a locator, an option, a number or a collection takes no placeholder; a text field does', () => {
		const group = operationType('group', 'getInviteUrl');
		expect(fieldDoc(group, 'integrationId')).toContain('@placeholderSupported false');
		expect(fieldDoc(group, 'groupJid')).not.toContain('@placeholderSupported');
		const chats = operationType('chat', 'getAll');
		for (const field of ['category', 'returnAll', 'limit', 'filters', 'options']) expect(fieldDoc(chats, field)).toContain('@placeholderSupported false');
		// Inside a collection or a fixed collection the SDK puts no placeholder at all: nothing to say there.
		expect(fieldDoc(operationType('automation', 'update'), 'triggerType')).not.toContain('@placeholderSupported');
		expect(fieldDoc(operationType('customField', 'upsert'), 'valueType')).not.toContain('@placeholderSupported');
	});
});

describe("the trigger's type for the AI builder", () => {
	test('its example (at the version a new trigger gets) and its fields', () => {
		expect(triggerTypes).toContain(
			` * const inbox = trigger({ type: '${PACKAGE}.conversationInboxTrigger', version: ${trigger.defaultVersion}, config: { name: 'Inbox events', parameters: { integrationId: { __rl: true, mode: 'id', value: 'clx2v8k1h0000abcd1234efgh' }, events: ['MESSAGE_RECEIVED'] } } });`,
		);
		expect(triggerTypes).toContain(`node({ type: '${PACKAGE}.conversationInbox', version: ${DEFAULT_NODE_VERSION}, config: { name: 'Stop the bot'`);
		const fields = triggerTypes.slice(triggerTypes.indexOf('export interface ConversationInboxTriggerV'));
		expect(fieldDoc(fields, 'events')).toContain('@builderHint Each event kind selected registers one webhook on activation: select only what the workflow needs.');
		// The newest version's text (One Execution per Message), not version 3's.
		expect(fieldDoc(fields, 'events')).toContain('starts one execution while One Execution per Message is on');
		expect(fieldDoc(fields, 'integrationId')).toContain('@placeholderSupported false');
	});
});

test.each(Object.entries(RESOURCE_EXAMPLES))("the %s example opens clean in the editor's checks", (resource, example) => {
	const parameters = { resource, ...example };
	// The builder's code is no stored workflow: n8n fills in the defaults when it builds the node,
	// so only what the editor would mark or refuse counts here, not what it writes back.
	const issues = nodeIssues({ name: 'Example', type: `${PACKAGE}.conversationInbox`, typeVersion: DEFAULT_NODE_VERSION, parameters: parameters as never });
	expect(issues.filter((issue) => !issue.startsWith('stored otherwise than the editor writes it back'))).toEqual([]);
});

describe("n8n's lint rule no-builder-hint-leakage (@n8n/eslint-plugin-community-nodes) on the hints as n8n reads them", () => {
	/** The rule's findings on `export const hints = { builderHint: <value> }` (an ES module, so run in a Node of its own). */
	function leakage(value: unknown): string[] {
		const script = `
			import { Linter } from 'eslint';
			import { n8nCommunityNodesPlugin } from '@n8n/eslint-plugin-community-nodes';
			const source = 'export const hints = { builderHint: ' + JSON.stringify(${JSON.stringify(value)}) + ' };';
			const messages = new Linter({ configType: 'flat' }).verify(source, [
				{ plugins: { n8n: n8nCommunityNodesPlugin }, rules: { 'n8n/no-builder-hint-leakage': 'error' } },
			], 'hints.js');
			console.log(JSON.stringify(messages.map((m) => m.ruleId + ': ' + m.message)));`;
		const result = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: resolve(__dirname, '..', '..'), encoding: 'utf8' });
		if (result.status !== 0) throw new Error(result.stderr);
		return JSON.parse(result.stdout) as string[];
	}

	const everyHint = (description: INodeTypeDescription): unknown[] => {
		const found: unknown[] = [description.builderHint];
		const visit = (value: unknown): void => {
			if (Array.isArray(value)) value.forEach(visit);
			else if (value && typeof value === 'object') {
				for (const [key, entry] of Object.entries(value)) {
					if (key === 'builderHint') found.push(entry);
					else visit(entry);
				}
			}
		};
		visit(description.properties);
		return found;
	};

	test('both nodes: no finding', () => {
		const hints = [...everyHint(action), ...everyHint(trigger)];
		expect(hints.length).toBeGreaterThan(40);
		expect(leakage(hints)).toEqual([]);
	});

	test('the rule run so finds a stored expression and a connection type name', () => {
		expect(leakage({ propertyHint: 'Map it: ={{ $json.phoneNumber }}, connect an ai_tool' })).toEqual([
			'n8n/no-builder-hint-leakage: Wire-format expression syntax leaks into builderHint. Use the expr() SDK helper instead.',
			'n8n/no-builder-hint-leakage: NodeConnectionType literal "ai_tool" leaks wire format into builderHint. Refer to the SDK helper instead (e.g. languageModel(), tool(), memory()).',
		]);
	});
});
