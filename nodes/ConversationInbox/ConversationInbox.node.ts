import type { INodeProperties, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import codex from './ConversationInbox.node.json';
import { searchChats } from '../shared/chatLocator';
import { getIntegrations, searchIntegrations } from '../shared/integrationLocator';
import { operationSubtitle } from '../shared/subtitle';
import { CREDENTIAL_NAME } from '../shared/transport';
import { getUsers } from '../shared/userOptions';
import { DEFAULT_NODE_VERSION, NODE_VERSIONS } from './helpers/operation';
import { typeDefContent, withBuilderHints } from '../shared/builderHints';
import { largeRunHints } from './helpers/options';
import { shareByName } from './helpers/sharing';
import { declaredOperationProperties } from './resources';

/**
 * The Resource selector. A constant, like the rest of the properties: n8n's lint rule
 * node-class-description-missing-subtitle (run by n8n's scanner without inline exceptions) takes a
 * subtitle for missing unless it is a string literal, and checks only descriptions whose literal
 * properties are Resource and Operation; our subtitle is built from the operations' actions.
 */
const resourceSelector: INodeProperties = {
	displayName: 'Resource',
	name: 'resource',
	type: 'options',
	noDataExpression: true,
	options: [
		{ name: 'Automation', value: 'automation' },
		{ name: 'Bot Integration', value: 'botIntegration' },
		{ name: 'Chat', value: 'chat' },
		{ name: 'Custom Field', value: 'customField' },
		{ name: 'Group', value: 'group' },
		{ name: 'Integration', value: 'integration' },
		{ name: 'Message', value: 'message' },
		{ name: 'Tag', value: 'tag' },
		{ name: 'Template', value: 'template' },
		{ name: 'User', value: 'user' },
		{ name: 'Webhook', value: 'webhook' },
	],
	default: 'tag',
};

/**
 * The operation selectors and fields of every resource (the subtitle reads their action texts),
 * one property per parameter name (helpers/sharing.ts: n8n evaluates every property per item).
 */
const operationProperties = shareByName(declaredOperationProperties, NODE_VERSIONS);

/** Every property, with what n8n's AI workflow builder reads about it (shared/builderHints.ts). */
const properties = withBuilderHints([resourceSelector, ...operationProperties]);

/**
 * Conversation Inbox: every endpoint of the Conversation Inbox Management API, declaratively.
 *
 * Each operation lives in resources/<resource>/<operation>.ts and is listed in its resource's
 * index.ts. n8n's routing engine builds each item's request from the parameters and hands it to the
 * operation's one function (helpers/operation.ts): check the values, send through the one request
 * path (shared/transport.ts), page and unwrap, one item per element.
 */
export class ConversationInbox implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Conversation Inbox',
		name: 'conversationInbox',
		icon: { light: 'file:conversationInbox.svg', dark: 'file:conversationInbox.dark.svg' },
		group: ['transform'],
		// 1: as released in 0.1.0 (a saved workflow keeps sending what it sent); 2: partial Automation
		// → Update, typed custom-field values, clearing only when chosen (CHANGELOG).
		version: NODE_VERSIONS,
		defaultVersion: DEFAULT_NODE_VERSION,
		// "Get many message templates" rather than "getAll: template" (see shared/subtitle.ts).
		subtitle: operationSubtitle(operationProperties),
		// What the operations do, and nothing they do not (no operation adds a tag to a contact). The
		// node panel shows the trigger's description for the pair (see the trigger); this one is what
		// an AI agent reads when it uses the node as a tool.
		description:
			'Work with a Conversation Inbox account (a shared WhatsApp-style customer inbox): create tags and remove them from contacts, read and update contacts\' custom fields by phone number, list chats, messages, templates and users, manage integrations (messaging lines), update, delete or stop automations, create bot integrations and webhooks, and get group invite links',
		// The editor's "Docs" link: n8n appends its ?utm_… query to the codex URL, which would land
		// after the #section anchor and break it; a documentationUrl is used as it is. Same URL, read
		// from the .node.json (the one codex source).
		documentationUrl: codex.resources.primaryDocumentation[0].url,
		defaults: {
			name: 'Conversation Inbox',
		},
		usableAsTool: true,
		// For n8n's AI workflow builder (n8n-workflow's IBuilderHint): what to find this node by, and
		// the nodes it is wired with. Older n8n versions ignore it.
		builderHint: {
			searchHint:
				'Conversation Inbox, a shared WhatsApp-style customer inbox: tags, contacts\' custom fields by phone number, chats, messages, message templates, channel integrations, automations and bot flows (stop one in a chat so a person takes over), bot integrations, webhooks, users. One resource/operation per node; also an AI agent tool.',
			relatedNodes: [
				{
					nodeType: 'n8n-nodes-conversation-inbox.conversationInboxTrigger',
					relationHint: 'Starts the workflow on inbox events (a message received, a connection change); this node then acts on that chat or contact',
				},
				{
					nodeType: '@n8n/n8n-nodes-langchain.agent',
					relationHint: 'Connected to the agent\'s Tool input, this node lets the agent read and act on the inbox',
				},
				{
					nodeType: '@n8n/n8n-nodes-langchain.mcpTrigger',
					relationHint: 'Connected as a tool, this node is offered to MCP clients (Claude Desktop, Cursor)',
				},
			],
			// Each operation's description and its resource's example, in its own type.
			extraTypeDefContent: typeDefContent(properties, DEFAULT_NODE_VERSION),
		},
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [
			{
				name: CREDENTIAL_NAME,
				required: true,
			},
		],
		// No `codex` here: it lives in ConversationInbox.node.json only. n8n's loader takes a class
		// codex over the file's, which dropped the file's documentation links.
		// No `baseURL: '={{ $credentials.baseUrl }}'`: n8n would evaluate it twice per item, in its
		// loop that answers nothing meanwhile (issue 31). Each item's address comes from the credential
		// the run read once (helpers/operation.ts), checked before anything is sent (prepare.ts).
		requestDefaults: {
			json: true,
			// Status handling is ours (shared/transport.ts), so the API's own message reaches the user.
			ignoreHttpStatusErrors: true,
			headers: {
				Accept: 'application/json',
				'Content-Type': 'application/json',
			},
		},
		properties,
		// After a run of 1 000 items or more without Batching: what it cost and the setting that helps
		// (helpers/options.ts), instead of a notice above every panel.
		hints: largeRunHints(),
	};

	/** The pickers: list searches of the resource locators, options of the multi-select filters. */
	methods = {
		listSearch: { searchIntegrations, searchChats },
		loadOptions: { getIntegrations, getUsers },
	};
}
