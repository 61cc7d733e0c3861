/**
 * The pickers and words of the action node as the editor sees them: which parameters are resource
 * locators or dynamic multi-selects, that every method they name exists, the "By ID" check run by
 * n8n's own parameter-issue code (what the editor shows under the field), hints where the API cannot
 * list a thing, and the texts an AI agent reads when it uses the node as a tool.
 */
import type { INode, INodeProperties, INodePropertyMode } from 'n8n-workflow';
import { NodeHelpers, nodeNameToToolName } from 'n8n-workflow';

import { ConversationInboxApi } from '../../credentials/ConversationInboxApi.credentials';
import codex from '../../nodes/ConversationInbox/ConversationInbox.node.json';
import triggerCodex from '../../nodes/ConversationInboxTrigger/ConversationInboxTrigger.node.json';
import { ConversationInboxTrigger } from '../../nodes/ConversationInboxTrigger/ConversationInboxTrigger.node';
import { actionDescription } from '../helpers/action-node';
import { panelOf } from '../helpers/operations';
import { ID_PLACEHOLDER } from '../../nodes/shared/constants';
import { DEMO } from '../sandbox';
import { makeWorkflow } from '../helpers/n8n-harness';
import { operationsOf } from '../helpers/operations';
import { allProperties, description, findProperty, node, NODE_TYPE } from './helpers';

const REPO = 'https://github.com/conversation-inbox/n8n-nodes-conversation-inbox';
const ID = DEMO.integrations.whatsapp.id;
const DYNAMIC_MULTI = 'Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.';

const key = (entry: { resource: string; operation: string; path: string }) =>
	`${entry.resource}.${entry.operation}.${entry.path}`;

function modesOf(property: INodeProperties): INodePropertyMode[] {
	return (property.modes ?? []) as INodePropertyMode[];
}

/**
 * [resource.operation.path, list-search method, required]; where each value travels is what the
 * 0.1.0 fixtures (test/compat) check: the fields carry no routing (helpers/prepare.ts reads them).
 */
const LOCATORS: Array<[string, string, boolean]> = [
	['automation.stopInChat.chat', 'searchChats', true],
	['automation.stopInChat.additionalFields.integrationId', 'searchIntegrations', false],
	['group.getInviteUrl.integrationId', 'searchIntegrations', true],
	['integration.delete.integrationId', 'searchIntegrations', true],
	['integration.disconnect.integrationId', 'searchIntegrations', true],
	['integration.validatePhoneNumber.integrationId', 'searchIntegrations', true],
	['message.getAll.chatInternalId', 'searchChats', true],
	['template.getAll.integrationId', 'searchIntegrations', true],
	['webhook.create.integrationId', 'searchIntegrations', true],
];

/** [resource.operation.path, load-options method] */
const DYNAMIC_MULTI_OPTIONS: Array<[string, string]> = [
	['automation.update.updateFields.integrations', 'getIntegrations'],
	['chat.getAll.filters.attendantIds', 'getUsers'],
	['chat.getAll.filters.integrationIds', 'getIntegrations'],
];

describe('pickers: resource locators and dynamic multi-selects', () => {
	test('every integrationId and chatInternalId of the action node is a resource locator, and nothing else is', () => {
		const locators = allProperties()
			.filter((entry) => entry.property.type === 'resourceLocator')
			.map(key)
			.sort();
		// Tag → Get Contacts' Tag is a locator without a list (the API cannot list tags): tested below.
		expect(locators).toEqual([...LOCATORS.map(([path]) => path), 'tag.getContacts.tag'].sort());
		const plainIds = allProperties().filter(
			(entry) =>
				['integrationId', 'chatInternalId', 'chat'].includes(entry.property.name) &&
				entry.property.type !== 'resourceLocator',
		);
		expect(plainIds.map(key)).toEqual([]);
	});

	test.each(LOCATORS)('%s: From List (%s) and By ID (<id> pattern)', (path, method, required) => {
		const [resource, operation, ...rest] = path.split('.');
		const property = findProperty(resource, operation, rest.join('.'));
		expect(property.default).toEqual({ mode: 'list', value: '' });
		expect(Boolean(property.required)).toBe(required);
		expect(property.description).toBeTruthy();
		const [list, byId, ...others] = modesOf(property);
		// Stop in Chat's Chat also finds the chat by the contact's phone number or its JID (below).
		expect(others.map((mode) => mode.name)).toEqual(path === 'automation.stopInChat.chat' ? ['phoneNumber', 'jid'] : []);
		expect(list).toMatchObject({
			name: 'list',
			type: 'list',
			typeOptions: { searchListMethod: method, searchable: true },
		});
		expect(byId).toMatchObject({ name: 'id', type: 'string' });
		expect(byId.placeholder).toMatch(/^e\.g\. c[a-z0-9]{24}$/);
		expect(byId.hint).toBeTruthy();
		expect(byId.validation).toEqual([
			{
				type: 'regex',
				// An ID or nothing: the editor wraps it in ^...$, and an empty value is "required"'s to report.
				properties: { regex: '(?:c[a-z0-9]{24})?', errorMessage: expect.stringMatching(/ID must be an ID: "c" followed by 24 lowercase letters or digits; to find it by its name, choose From List$/) },
			},
		]);
	});

	test.each(DYNAMIC_MULTI_OPTIONS)('%s: multi-select loaded by %s, named and described as n8n asks', (path, method) => {
		const [resource, operation, ...rest] = path.split('.');
		const property = findProperty(resource, operation, rest.join('.'));
		expect(property).toMatchObject({ type: 'multiOptions', default: [], typeOptions: { loadOptionsMethod: method } });
		expect(property.displayName).toMatch(/ Names or IDs$/);
		expect(property.description?.endsWith(DYNAMIC_MULTI)).toBe(true);
	});

	test('every method the description names exists, and every method is used', () => {
		const searchMethods = new Set<string>();
		const loadMethods = new Set<string>();
		for (const { property } of allProperties()) {
			for (const mode of modesOf(property)) {
				if (mode.typeOptions?.searchListMethod) searchMethods.add(mode.typeOptions.searchListMethod);
			}
			if (property.typeOptions?.loadOptionsMethod) loadMethods.add(property.typeOptions.loadOptionsMethod);
		}
		expect([...searchMethods].sort()).toEqual(Object.keys(node.methods.listSearch).sort());
		expect([...loadMethods].sort()).toEqual(Object.keys(node.methods.loadOptions).sort());
		// The trigger's locator uses the same shared list search.
		expect(Object.keys(new ConversationInboxTrigger().methods.listSearch)).toEqual(['searchIntegrations']);
	});

	test('Tag → Get Contacts: one Tag field with modes By ID / By Name, no list (the API cannot list tags)', () => {
		const tag = findProperty('tag', 'getContacts', 'tag');
		expect(tag).toMatchObject({ displayName: 'Tag', type: 'resourceLocator', required: true, default: { mode: 'id', value: '' } });
		const [byId, byName, ...others] = modesOf(tag);
		expect(others).toEqual([]);
		expect(byId).toMatchObject({ displayName: 'By ID', name: 'id', type: 'string', placeholder: `e.g. ${ID_PLACEHOLDER}` });
		expect(byId.hint).toMatch(/cannot list tags.*look like c[a-z0-9]{24}\.$/);
		// As the editor applies it (n8n-workflow validateResourceLocatorParameter: ^…$ around it).
		const regex = new RegExp(`^${(byId.validation?.[0] as unknown as { properties: { regex: string } }).properties.regex}$`);
		expect([regex.test(ID_PLACEHOLDER), regex.test('VIP'), regex.test(ID_PLACEHOLDER.toUpperCase()), regex.test(`${ID_PLACEHOLDER}x`)]).toEqual([true, false, false, false]);
		expect(byName).toMatchObject({ displayName: 'Name', name: 'name', type: 'string' });
		expect(byName.hint).toMatch(/exact name, case-sensitive.*No list to pick from: the API cannot list tags; their IDs are in the platform and in the output of Tag → Create\.$/);
		expect(tag.description).toMatch(/There is no list to pick from: the API cannot list tags\.$/);
		// Short enough for n8n's narrow mode box (it cut "By Name" to "By Nam"; n8n labels By ID itself).
		expect(byName.displayName.length).toBeLessThanOrEqual(5);
		// In version 2 the two fields of version 1 (0.1.0) stay only as hidden parameters.
		const former = description.properties.filter((p) => ['tagId', 'tagName'].includes(p.name) && p.displayOptions?.show?.operation?.includes('getContacts'));
		expect(former.map((p) => [p.name, p.type])).toEqual([['tagId', 'hidden'], ['tagName', 'hidden']]);
	});

	test('Stop in Chat (version 2): one required Chat field; its modes say how the chat is found, each label short enough for n8n\'s mode box', () => {
		const names = panelOf(description, 'automation', 'stopInChat').map((p) => p.name);
		expect(names).toEqual(['chat', 'additionalFields', 'options']);
		const chat = findProperty('automation', 'stopInChat', 'chat');
		expect(chat).toMatchObject({ displayName: 'Chat', type: 'resourceLocator', required: true });
		const modes = modesOf(chat);
		expect(modes.map((mode) => [mode.name, mode.displayName])).toEqual([['list', 'From List'], ['id', 'By ID'], ['phoneNumber', 'Phone'], ['jid', 'JID']]);
		// n8n's mode box is 92 px wide (it cut "By Name" to "By Nam"): at most 5 characters besides n8n's own labels.
		for (const mode of modes.slice(2)) expect(mode.displayName.length).toBeLessThanOrEqual(5);
		expect(modes[2].hint).toMatch(/any format.*LID.*Integration/);
		expect(modes[3].hint).toMatch(/@s\.whatsapp\.net.*@g\.us/);
		// Version 1 (0.1.0) keeps its three fields and the notice that says one is enough.
		const v1 = panelOf(actionDescription(1), 'automation', 'stopInChat').map((p) => p.name);
		expect(v1.slice(0, 4)).toEqual(['stopInChatNotice', 'chatInternalId', 'chatId', 'phoneNumber']);
	});

	test('things the API cannot list (tags, bot flows, automation triggers, sectors, template fields) say where to find their IDs', () => {
		const expected: Array<[string, RegExp]> = [
			['automation.delete.automationTriggerId', /cannot list automation triggers/],
			['automation.update.automationTriggerId', /cannot list automation triggers/],
			['automation.update.updateFields.tagId', /cannot list tags.*Tag → Create/],
			['automation.update.updateFields.automationBotId', /cannot list bot flows.*Bot Integration → Create/],
			['tag.removeFromContact.removeTagsNotice', /cannot list tags/],
			['chat.getAll.filters.tagIds', /cannot list tags/],
			['chat.getAll.filters.sectorIds', /cannot list sectors.*"sectorId"/],
		];
		for (const [path, hint] of expected) {
			const [resource, operation, ...rest] = path.split('.');
			const property = findProperty(resource, operation, rest.join('.'));
			// A notice says it in its text; a field in its hint, with what an ID looks like.
			const text = property.type === 'notice' ? property.displayName : property.hint;
			expect({ path, text }).toEqual({ path, text: expect.stringMatching(hint) });
			if (property.type !== 'notice') expect(property.hint).toMatch(/look like c[a-z0-9]{24}\.$/);
		}
		// A list's rows carry no hint: n8n would repeat it under every row (issue 43, row 16).
		expect(findProperty('tag', 'removeFromContact', 'tagIds').hint).toBeUndefined();
		expect(findProperty('tag', 'removeFromContact', 'tagNames').hint).toBeUndefined();
		expect(findProperty('tag', 'removeFromContact', 'tagIds').description).toMatch(/at most 50.*cannot list tags/);
		const inputs = findProperty('customField', 'upsert', 'inputs');
		const templateFieldId = (inputs.options as Array<{ values: INodeProperties[] }>)[0].values.find(
			(value) => value.name === 'templateFieldId',
		);
		// Custom Field → Get shows IDs only with Simplify off (issue 43, row 6).
		expect(templateFieldId?.hint).toMatch(/Custom Field → Get with Simplify off, on a contact that uses the template, shows its fields with their "id" and "key"/);
	});
});

describe('By ID: the editor\'s own parameter check (NodeHelpers.getParameterIssues)', () => {
	function issues(resource: string, operation: string, parameters: Record<string, unknown>, propertyPath: string): string[] {
		const { node: workflowNode } = makeWorkflow(NODE_TYPE, node, { resource, operation, ...parameters } as never);
		const [top] = propertyPath.split('.');
		const property = description.properties.find(
			(entry) =>
				entry.name === top &&
				entry.displayOptions?.show?.resource?.includes(resource) &&
				entry.displayOptions?.show?.operation?.includes(operation),
		) as INodeProperties;
		const found = NodeHelpers.getParameterIssues(property, workflowNode.parameters, '', workflowNode as INode, description);
		return Object.values(found.parameters ?? {}).flat();
	}

	test('integration picker: a well-formed ID passes; upper case, too long, too short and other forms are flagged', () => {
		const at = (value: string, mode = 'id') =>
			issues('integration', 'disconnect', { integrationId: { __rl: true, mode, value } }, 'integrationId');
		expect(at(ID)).toEqual([]);
		expect(at(ID.toUpperCase())).toEqual([expect.stringMatching(/^The integration ID must be an ID/)]);
		expect(at(`${ID}0`)).toHaveLength(1);
		expect(at(ID.slice(0, -1))).toHaveLength(1);
		expect(at('whatsapp')).toHaveLength(1);
		// Expressions are checked when they run, not in the editor.
		expect(at('={{ $json.integrationId }}')).toEqual([]);
		// From List values come from the API; the pattern applies to "By ID" only.
		expect(at('anything', 'list')).toEqual([]);
		// Required: an empty picker is flagged as missing.
		expect(at('', 'list')).toEqual(['Parameter "Integration" is required.']);
		// A workflow that stores a plain string has nothing for the editor to flag.
		expect(issues('integration', 'disconnect', { integrationId: ID }, 'integrationId')).toEqual([]);
	});

	test('chat picker: By ID takes the <id> form', () => {
		const at = (value: string) =>
			issues('message', 'getAll', { chatInternalId: { __rl: true, mode: 'id', value } }, 'chatInternalId');
		expect(at(DEMO.chats.alice.id)).toEqual([]);
		expect(at('5511987650001@s.whatsapp.net')).toEqual([expect.stringMatching(/^The chat ID must be an ID/)]);
	});

	test('the optional integration picker inside Additional Fields is checked too (as the editor checks a field of a collection)', () => {
		const at = (value: string) => {
			const { node: workflowNode } = makeWorkflow(NODE_TYPE, node, {
				resource: 'automation',
				operation: 'stopInChat',
				phoneNumber: DEMO.contacts.alice.phoneNumber,
				additionalFields: { integrationId: { __rl: true, mode: 'id', value } },
			});
			const property = findProperty('automation', 'stopInChat', 'additionalFields.integrationId');
			const found = NodeHelpers.getParameterIssues(property, workflowNode.parameters, 'additionalFields', workflowNode, description);
			return Object.values(found.parameters ?? {}).flat();
		};
		expect(at(ID)).toEqual([]);
		expect(at('line-1')).toEqual([expect.stringMatching(/^The integration ID must be an ID/)]);
	});
});

describe('words: for no-code users and for AI agents using the node as a tool', () => {
	// Every operation the description offers (which ones: test/node/description.test.ts).
	const operations = operationsOf(description).map(({ resource, resourceName, option }) => ({ resource, resourceName, operation: option }));

	test('every operation: its action is a sentence-case instruction naming what it acts on', () => {
		expect(operations.length).toBeGreaterThan(0);
		for (const { resourceName, operation } of operations) {
			const action = String(operation.action);
			expect(action).toMatch(/^[A-Z][a-z]+ [a-z]/);
			// As a tool, the node is named "<action> in Conversation Inbox" and n8n makes the tool's
			// name from it, cut at 64 characters: keep it whole.
			const toolNodeName = `${action} in Conversation Inbox`;
			expect(toolNodeName.length).toBeLessThanOrEqual(64);
			expect(nodeNameToToolName(toolNodeName)).toBe(toolNodeName.replace(/[^a-zA-Z0-9_-]+/g, '_'));
			if (operation.value === 'getAll') expect(action).toMatch(/^Get many /);
			// The thing acted on, e.g. "tag", "automation", "custom field", "integration".
			// An integration may be called what it is for a user, a messaging line (docs/agent-descriptions.md).
			const noun = resourceName.toLowerCase().replace(/^bot integration$/, 'bot').split(' ')[0];
			expect(action.toLowerCase()).toMatch(noun === 'integration' ? /integration|messaging line/ : new RegExp(noun));
			expect(String(operation.description).length).toBeGreaterThan(40);
		}
	});

	test('the actions an AI agent reads are those of docs/agent-descriptions.md (how the thing is found, at most 42 characters)', () => {
		const actions = Object.fromEntries(operations.map(({ resource, operation }) => [`${resource}.${String(operation.value)}`, operation.action]));
		expect(actions).toEqual({
			'tag.create': 'Create a tag with a unique name',
			'tag.removeFromContact': 'Remove tags from a contact by phone number',
			'tag.getContacts': 'Get contacts of a tag by tag name or ID',
			'automation.update': 'Update an automation trigger by its ID',
			'automation.delete': 'Delete an automation trigger by its ID',
			'automation.stopInChat': 'Stop the bot or automation in a chat',
			'botIntegration.create': 'Create a bot integration from a flow URL',
			'integration.getAll': 'Get many integrations (messaging lines)',
			'integration.disconnect': 'Disconnect an integration (messaging line)',
			'integration.delete': 'Delete an integration (messaging line)',
			'integration.validatePhoneNumber': 'Check a number exists on a messaging line',
			'webhook.create': 'Create a webhook for integration events',
			'template.getAll': 'Get many message templates of a channel',
			'group.getInviteUrl': 'Get the invite link of a group by its JID',
			'customField.get': "Get a contact's custom fields by phone",
			'customField.upsert': "Create or update a contact's custom fields",
			'chat.getAll': 'Get many chats of an inbox category',
			'message.getAll': 'Get many messages of a chat by chat ID',
			'user.getAll': 'Get many users (attendants)',
		});
		for (const action of Object.values(actions)) expect(String(action).length).toBeLessThanOrEqual(42);
	});

	test('the tool description n8n gives an AI agent is the action plus the node name', () => {
		for (const { resource, operation } of operations) {
			const toolNode = { parameters: { resource, operation: operation.value } } as unknown as INode;
			const toolDescription = NodeHelpers.getToolDescriptionForNode(toolNode, node);
			expect(toolDescription).toBe(`${operation.action} in Conversation Inbox`);
		}
		expect(description.usableAsTool).toBe(true);
		expect(description.description).toMatch(/phone number/);
	});

	test('realistic placeholders and hints on limits', () => {
		const byPath = (path: string) => {
			const [resource, operation, ...rest] = path.split('.');
			return findProperty(resource, operation, rest.join('.'));
		};
		expect(byPath('tag.removeFromContact.phoneNumber').placeholder).toBe('e.g. 5511999998888');
		// Remove From Contact's own notice says that a LID works there (the shared Phone Number's texts cannot).
		expect(byPath('tag.removeFromContact.removeTagsNotice').displayName).toMatch(/^Phone Number may also be the contact's LID \(ending in @lid\)\./);
		expect(byPath('tag.removeFromContact.tagNames').description).toMatch(/at most 50/);
		expect(byPath('group.getInviteUrl.groupJid').placeholder).toBe('e.g. 120363025246125486@g.us');
		expect(modesOf(byPath('automation.stopInChat.chat')).find((mode) => mode.name === 'jid')?.placeholder).toBe('e.g. 5511999998888@s.whatsapp.net');
		expect(byPath('tag.create.additionalFields.color')).toMatchObject({ placeholder: '#RRGGBB', default: '#000000' });
		expect(byPath('template.getAll.filters.search').hint).toBe('At most 255 characters');
		for (const [path, size] of [
			['tag.getContacts.contactsListNotice', 100],
			['chat.getAll.chatsListNotice', 1000],
			['message.getAll.messagesListNotice', 1000],
			['template.getAll.templatesListNotice', 250],
		] as const) {
			expect(byPath(path).displayName).toContain(`up to ${size}`);
		}
		// Every phone-number field shows a real-looking number.
		const phones = allProperties().filter((entry) => entry.property.name === 'phoneNumber');
		expect(phones.length).toBeGreaterThanOrEqual(4);
		for (const { property } of phones) expect(property.placeholder).toBe('e.g. 5511999998888');
		expect(modesOf(byPath('automation.stopInChat.chat')).find((mode) => mode.name === 'phoneNumber')?.placeholder).toBe('e.g. 5511999998888');
	});

	test('codex files (Communication, links to the README sections), credential icon and docs', () => {
		expect(codex.categories).toEqual(['Communication']);
		expect(codex.resources.primaryDocumentation).toEqual([{ url: `${REPO}#operations` }]);
		expect(codex.resources.credentialDocumentation).toEqual([{ url: `${REPO}#credentials` }]);
		expect(triggerCodex.categories).toEqual(['Communication']);
		expect(triggerCodex.resources.primaryDocumentation).toEqual([{ url: `${REPO}#the-trigger` }]);
		expect(triggerCodex.resources.credentialDocumentation).toEqual([{ url: `${REPO}#credentials` }]);
		const credential = new ConversationInboxApi();
		expect(credential.documentationUrl).toBe(`${REPO}#credentials`);
		expect(credential.icon).toEqual({
			light: 'file:../nodes/ConversationInbox/conversationInbox.svg',
			dark: 'file:../nodes/ConversationInbox/conversationInbox.dark.svg',
		});
	});
});

/** What the canvas shows under a node's name: its subtitle expression, evaluated as the editor does. */
function subtitleOf(nodeType: typeof node | ConversationInboxTrigger, typeName: string, parameters: Record<string, unknown>): unknown {
	const { workflow, node: workflowNode } = makeWorkflow(typeName, nodeType, parameters as never);
	return workflow.expression.getSimpleParameterValue(workflowNode, nodeType.description.subtitle, 'internal', {});
}

describe('subtitles read as words', () => {
	test.each([
		['template', 'getAll', 'Get many message templates of a channel'],
		['customField', 'get', "Get a contact's custom fields by phone"],
	])('action node, %s → %s: "%s"', (resource, operation, expected) => {
		expect(subtitleOf(node, NODE_TYPE, { resource, operation })).toBe(expected);
	});

	test('action node: every operation has its own subtitle, the action the node panel lists', () => {
		const operations = operationsOf(description);
		const seen = new Set<unknown>();
		for (const { resource, operation, option } of operations) {
			const subtitle = subtitleOf(node, NODE_TYPE, { resource, operation });
			expect(subtitle).toBe(option.action);
			seen.add(subtitle);
		}
		// No two operations share a subtitle.
		expect(seen.size).toBe(operations.length);
	});

	test('trigger: the names of the selected events, not their wire values', () => {
		const trigger = new ConversationInboxTrigger();
		expect(subtitleOf(trigger, 'conversationInboxTrigger', { events: ['MESSAGE_RECEIVED', 'CONNECTION_STATUS_UPDATE'] })).toBe(
			'Message Received, Connection Status Update',
		);
		expect(subtitleOf(trigger, 'conversationInboxTrigger', { events: [] })).toBe('');
	});
});
