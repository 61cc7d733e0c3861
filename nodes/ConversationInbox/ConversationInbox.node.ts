import type { INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { searchChats } from '../shared/chatLocator';
import { getIntegrations, searchIntegrations } from '../shared/integrationLocator';
import { CREDENTIAL_NAME } from '../shared/transport';
import { getUsers } from '../shared/userOptions';
import { automationProperties } from './resources/automation';
import { botIntegrationProperties } from './resources/botIntegration';
import { chatProperties } from './resources/chat';
import { customFieldProperties } from './resources/customField';
import { groupProperties } from './resources/group';
import { integrationProperties } from './resources/integration';
import { messageProperties } from './resources/message';
import { tagProperties } from './resources/tag';
import { templateProperties } from './resources/template';
import { userProperties } from './resources/user';
import { webhookProperties } from './resources/webhook';

/**
 * Conversation Inbox: every endpoint of the Conversation Inbox Management API, declaratively.
 *
 * Each operation lives in resources/<resource>/<operation>.ts. All of them share one routing
 * shape (helpers/operation.ts): a preSend step that validates the item's input before anything is
 * sent, and one executor (the operation's pagination function) that sends the request(s), checks
 * the status and `success`, pages through lists and unwraps the payload into items.
 */
export class ConversationInbox implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Conversation Inbox',
		name: 'conversationInbox',
		icon: { light: 'file:conversationInbox.svg', dark: 'file:conversationInbox.dark.svg' },
		group: ['transform'],
		version: 1,
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		description:
			'Work with a Conversation Inbox account (a shared WhatsApp-style customer inbox): tag contacts by phone number, manage automation triggers, bot flows, integrations (messaging lines) and webhooks, and read chats, messages, custom fields, message templates and users',
		defaults: {
			name: 'Conversation Inbox',
		},
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [
			{
				name: CREDENTIAL_NAME,
				required: true,
			},
		],
		codex: {
			categories: ['Communication'],
			alias: ['WhatsApp', 'Inbox', 'Chat', 'Tag', 'Customer Messaging', 'Automation', 'Template'],
		},
		requestDefaults: {
			// Trailing slashes stripped here; the preSend step refuses a Base URL not ending in /v2.
			baseURL: '={{ String($credentials.baseUrl ?? "").trim().replace(/\\/+$/, "") }}',
			json: true,
			// Status handling is ours (helpers/executor.ts), so the API's own message reaches the user.
			ignoreHttpStatusErrors: true,
			headers: {
				Accept: 'application/json',
				'Content-Type': 'application/json',
			},
		},
		properties: [
			{
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
			},
			...automationProperties,
			...botIntegrationProperties,
			...chatProperties,
			...customFieldProperties,
			...groupProperties,
			...integrationProperties,
			...messageProperties,
			...tagProperties,
			...templateProperties,
			...userProperties,
			...webhookProperties,
		],
	};

	/** The pickers: list searches of the resource locators, options of the multi-select filters. */
	methods = {
		listSearch: { searchIntegrations, searchChats },
		loadOptions: { getIntegrations, getUsers },
	};
}
