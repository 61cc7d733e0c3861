import type { INodeProperties, INodeType, INodeTypeBaseDescription, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes, VersionedNodeType } from 'n8n-workflow';

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
 * What every version of the node shares (n8n's VersionedNodeType: the node panel's entry).
 */
const BASE_DESCRIPTION: INodeTypeBaseDescription = {
	displayName: 'Conversation Inbox',
	name: 'conversationInbox',
	icon: { light: 'file:conversationInbox.svg', dark: 'file:conversationInbox.dark.svg' },
	group: ['transform'],
	// What the operations do, and nothing they do not (no operation adds a tag to a contact). The
	// node panel shows the trigger's description for the pair (see the trigger); this one is what
	// an AI agent reads when it uses the node as a tool.
	description:
		'Work with a Conversation Inbox account (a shared WhatsApp-style customer inbox): create tags and remove them from contacts, read and update contacts\' custom fields by phone number, list chats, messages, templates and users, manage integrations (messaging lines), update, delete or stop automations, create bot integrations and webhooks, and get group invite links',
	// The editor's "Docs" link: n8n appends its ?utm_… query to the codex URL, which would land
	// after the #section anchor and break it; a documentationUrl is used as it is. Same URL, read
	// from the .node.json (the one codex source).
	documentationUrl: codex.resources.primaryDocumentation[0].url,
	defaultVersion: DEFAULT_NODE_VERSION,
};

/**
 * One version's description: its operations' selectors and fields, one property per parameter
 * name (helpers/sharing.ts). n8n's routing engine resolves every top-level property of the
 * description for every item, shown or not, so a version carries only its own properties: a node
 * added today does not pay for the fields version 1 keeps for saved workflows.
 */
function versionDescription(version: number): INodeTypeDescription {
	const operationProperties = shareByName(declaredOperationProperties(version), [version]);
	// Every property, with what n8n's AI workflow builder reads about it (shared/builderHints.ts).
	const properties = withBuilderHints([resourceSelector, ...operationProperties]);
	return {
		...BASE_DESCRIPTION,
		version,
		// "Get many message templates" rather than "getAll: template" (see shared/subtitle.ts).
		subtitle: operationSubtitle(operationProperties),
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
			extraTypeDefContent: typeDefContent(properties, version),
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
}

/** The pickers every version shares: list searches of the resource locators, options of the multi-select filters. */
const METHODS = {
	listSearch: { searchIntegrations, searchChats },
	loadOptions: { getIntegrations, getUsers },
};

const V1 = versionDescription(1);
const V2 = versionDescription(2);

// Each class names its icon, subtitle and tool use where n8n's verification lint reads them.

/** Version 1: as released in 0.1.0 (a saved workflow keeps sending what it sent). */
class ConversationInboxV1 implements INodeType {
	description: INodeTypeDescription = {
		...V1,
		// Its own list: n8n's loader adds Request Options to each loaded node's properties.
		properties: [...V1.properties],
		icon: BASE_DESCRIPTION.icon,
		subtitle: V1.subtitle,
		usableAsTool: true,
	};

	methods = METHODS;
}

/** Version 2: new nodes (CHANGELOG: what differs). */
class ConversationInboxV2 implements INodeType {
	description: INodeTypeDescription = {
		...V2,
		// Its own list: n8n's loader adds Request Options to each loaded node's properties.
		properties: [...V2.properties],
		icon: BASE_DESCRIPTION.icon,
		subtitle: V2.subtitle,
		usableAsTool: true,
	};

	methods = METHODS;
}

/** Each version's node type (NODE_VERSIONS). */
const VERSION_NODES: Record<number, new () => INodeType & { methods: typeof METHODS }> = { 1: ConversationInboxV1, 2: ConversationInboxV2 };

/** One version of the node (its description, and the pickers every version shares). */
export type ConversationInboxVersion = ConversationInboxV1 | ConversationInboxV2;

/**
 * Conversation Inbox: every endpoint of the Conversation Inbox Management API, declaratively.
 *
 * Each operation lives in resources/<resource>/<operation>.ts and is listed in its resource's
 * index.ts. n8n's routing engine builds each item's request from the parameters and hands it to the
 * operation's one function (helpers/operation.ts): check the values, send through the one request
 * path (shared/transport.ts), page and unwrap, one item per element.
 *
 * Versions (NODE_VERSIONS): 1 as released in 0.1.0 (a saved workflow keeps sending what it sent);
 * 2, new nodes (CHANGELOG). Each is its own description (n8n's VersionedNodeType).
 */
export class ConversationInbox extends VersionedNodeType {
	constructor() {
		super(Object.fromEntries(NODE_VERSIONS.map((version) => [version, new VERSION_NODES[version]()])), BASE_DESCRIPTION);
	}
}
