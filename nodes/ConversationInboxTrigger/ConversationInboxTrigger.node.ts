import type {
	IDataObject,
	IHookFunctions,
	INodeType,
	INodeTypeDescription,
	IWebhookDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeConnectionTypes, NodeOperationError } from 'n8n-workflow';

import codex from './ConversationInboxTrigger.node.json';
import { ID_PATTERN, TRANSFER_TYPE_OPTIONS, WEBHOOK_EVENT_OPTIONS } from '../shared/constants';
import { integrationLocatorProperty, searchIntegrations } from '../shared/integrationLocator';
import { selectedOptionsSubtitle } from '../shared/subtitle';
import { CREDENTIAL_NAME, inboxApiRequest } from '../shared/transport';
import type { Headers } from './delivery';
import {
	payloadField,
	publicHeaders,
	readPayload,
	redactSecret,
	secretMatches,
	singleHeader,
} from './delivery';
import type { Registration } from './registrations';
import {
	EVENT_HEADER,
	fingerprintOf,
	loadState,
	missingEvents,
	newSecret,
	readConfig,
	REGISTERED_METHOD,
	REGISTRATION_HEADER,
	registrationHeaders,
	SECRET_HEADER,
	STATE_VERSION,
} from './registrations';

/**
 * Every method the API lets a webhook use. Each one is its own webhook description on the same
 * path (as n8n's MCP and send-and-wait webhooks do), so n8n routes all of them to `webhook()`.
 * n8n runs checkExists/create once per description; after the first `create` the static data
 * holds the registrations, so `checkExists` answers true for the other four and nothing is
 * registered twice. Only the POST entry (the method we register) shows its URL in the editor.
 */
const DELIVERY_METHODS = ['POST', 'GET', 'PUT', 'PATCH', 'DELETE'] as const;
const WEBHOOK_PATH = 'webhook';

const webhooks: IWebhookDescription[] = DELIVERY_METHODS.map((httpMethod) => ({
	name: 'default',
	httpMethod,
	responseMode: 'onReceived',
	path: WEBHOOK_PATH,
	ndvHideUrl: httpMethod !== REGISTERED_METHOD,
}));

function webhookUrlOf(context: IHookFunctions): string {
	const url = context.getNodeWebhookUrl('default');
	if (!url) {
		throw new NodeOperationError(context.getNode(), 'n8n did not provide a webhook URL for this node', {
			description: 'Save the workflow and try again. Check that WEBHOOK_URL is set when n8n runs behind a proxy.',
		});
	}
	return url;
}

/** Writes a response directly (401/400/413) and tells n8n not to answer or execute. */
function respondWithoutExecution(
	context: IWebhookFunctions,
	statusCode: number,
	message: string,
): IWebhookResponseData {
	const response = context.getResponseObject() as unknown as {
		writeHead(statusCode: number, headers: Record<string, string>): unknown;
		end(body: string): unknown;
	};
	response.writeHead(statusCode, { 'Content-Type': 'application/json; charset=utf-8' });
	response.end(JSON.stringify({ success: false, message }));
	return { noWebhookResponse: true };
}

/** An authentic delivery that must not start the workflow: n8n answers 200 with this body. */
function acknowledgeWithoutExecution(reason: string): IWebhookResponseData {
	return { webhookResponse: { success: true, executed: false, reason } };
}

export class ConversationInboxTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Conversation Inbox Trigger',
		name: 'conversationInboxTrigger',
		icon: {
			light: 'file:../ConversationInbox/conversationInbox.svg',
			dark: 'file:../ConversationInbox/conversationInbox.dark.svg',
		},
		group: ['trigger'],
		// Both versions behave the same here. n8n 2.x reads the body of every delivery to a trigger
		// at typeVersion 1 as it did for its Webhook node v1, evaluating that node's
		// options.binaryData through the expression engine (an isolate per delivery); at 2 it does not.
		version: [1, 2],
		defaultVersion: 2,
		// "Message Received, Connection Status Update" rather than the wire values.
		subtitle: selectedOptionsSubtitle('events', WEBHOOK_EVENT_OPTIONS),
		// n8n's node panel lists this trigger and the action node as ONE entry ("Conversation Inbox"),
		// and that entry shows the trigger's description (editor-ui useActionsGeneration:
		// `app.description = trigger.description`). So this sentence introduces both nodes.
		description:
			'Start workflows on messages and connection changes; work with tags, contacts\' custom fields, chats, templates, automations, bots, webhooks and users',
		// The editor's "Docs" link: n8n appends its ?utm_… query to the codex URL, which would land
		// after the #section anchor and break it; a documentationUrl is used as it is. Same URL, read
		// from the .node.json (the one codex source).
		documentationUrl: codex.resources.primaryDocumentation[0].url,
		defaults: {
			name: 'Conversation Inbox Trigger',
		},
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [
			{
				name: CREDENTIAL_NAME,
				required: true,
			},
		],
		webhooks,
		eventTriggerDescription: 'Waiting for an event from Conversation Inbox',
		activationMessage:
			'The webhooks are registered on the platform; events now start this workflow.',
		properties: [
			{
				displayName:
					'The API cannot delete webhooks: deactivating or deleting this workflow leaves its registrations on the platform, and their deliveries are then rejected or ignored. Re-activating with the same settings reuses them instead of registering new ones.',
				name: 'apiCannotDeleteNotice',
				type: 'notice',
				default: '',
			},
			integrationLocatorProperty({
				description:
					'The channel integration (connected messaging line) whose events start the workflow',
			}),
			{
				displayName: 'Events',
				name: 'events',
				type: 'multiOptions',
				options: WEBHOOK_EVENT_OPTIONS,
				default: [],
				required: true,
				description:
					'The events that start the workflow. One webhook is registered on the platform per event.',
			},
			{
				displayName: 'Transfer Type',
				name: 'transferType',
				type: 'options',
				options: TRANSFER_TYPE_OPTIONS,
				default: 'ALL',
				description:
					'Which transfers fire the webhook, by who caused them: a person, an automation, or the API',
			},
			{
				displayName: 'Delay Minutes',
				name: 'delayMinutes',
				type: 'number',
				typeOptions: { minValue: 0, numberPrecision: 0 },
				default: 0,
				description:
					'Minutes the platform waits after the event before it sends the delivery. 0 sends it at once.',
			},
			{
				displayName: 'Options',
				name: 'options',
				type: 'collection',
				placeholder: 'Add option',
				default: {},
				options: [
					{
						displayName: 'Extra Headers',
						name: 'extraHeaders',
						type: 'fixedCollection',
						placeholder: 'Add Header',
						typeOptions: { multipleValues: true },
						default: {},
						description:
							'HTTP headers the platform sends with every delivery, for example for a proxy in front of n8n. Changing them registers new webhooks.',
						options: [
							{
								displayName: 'Header',
								name: 'header',
								values: [
									{
										displayName: 'Name',
										name: 'key',
										type: 'string',
										default: '',
										placeholder: 'x-my-header',
									},
									{
										displayName: 'Value',
										name: 'value',
										type: 'string',
										default: '',
									},
								],
							},
						],
					},
				],
			},
		],
	};

	methods = {
		listSearch: {
			searchIntegrations,
		},
	};

	webhookMethods = {
		default: {
			/**
			 * True when every selected event already has a registration for this URL and these
			 * settings (integration, transfer type, delay, extra headers), and the secret they carry
			 * is known. Answers from static data: the API cannot list webhooks.
			 */
			async checkExists(this: IHookFunctions): Promise<boolean> {
				const url = webhookUrlOf(this);
				const config = readConfig.call(this);
				const state = loadState(this.getWorkflowStaticData('node'));
				return missingEvents(state, url, config).length === 0;
			},

			/**
			 * Registers one webhook per selected event that has no reusable registration yet.
			 * The secret is created once per node and kept: registrations made under earlier
			 * settings still exist on the platform, still authenticate, and are recognised (and
			 * ignored) by their fingerprint header; switching back to earlier settings reuses them.
			 */
			async create(this: IHookFunctions): Promise<boolean> {
				const url = webhookUrlOf(this);
				const config = readConfig.call(this);
				const staticData = this.getWorkflowStaticData('node');
				const state = loadState(staticData);

				if (!state.secret) {
					// Registrations recorded without their secret could never authenticate again.
					state.secret = newSecret();
					state.registrations = [];
				}
				const missing = missingEvents(state, url, config);
				staticData.version = STATE_VERSION;
				staticData.secret = state.secret;
				staticData.registrations = [...state.registrations];

				for (const event of missing) {
					const body: IDataObject = {
						integrationId: config.integrationId,
						url,
						method: REGISTERED_METHOD,
						type: event,
						headers: registrationHeaders(config, state.secret, event) as unknown as IDataObject[],
						delayMinutes: config.delayMinutes,
						transferType: config.transferType,
					};
					const result = await inboxApiRequest.call(this, {
						method: 'POST',
						path: '/integration/webhook/create',
						body,
					});
					const webhook = ((result.response as IDataObject | undefined)?.webhook ?? {}) as IDataObject;
					const registration: Registration = {
						webhookId: typeof webhook.id === 'string' ? webhook.id : null,
						event,
						url,
						integrationId: config.integrationId,
						transferType: config.transferType,
						delayMinutes: config.delayMinutes,
						headersHash: config.headersHash,
						fingerprint: fingerprintOf(config, event),
						createdAt: new Date().toISOString(),
					};
					state.registrations.push(registration);
					// Recorded after each call, so a failure later in the loop keeps what exists.
					staticData.registrations = [...state.registrations];
				}
				return true;
			},

			/**
			 * The API has no endpoint to delete a webhook. Nothing is removed remotely and nothing
			 * is forgotten locally (the secret and the registrations are what a later activation
			 * reuses); only the time is noted. Never throws.
			 */
			async delete(this: IHookFunctions): Promise<boolean> {
				try {
					const staticData = this.getWorkflowStaticData('node');
					staticData.lastDeactivatedAt = new Date().toISOString();
				} catch (error) {
					// Deactivation must go on; the registrations stay usable either way.
					this.logger.warn('Conversation Inbox Trigger: could not note the deactivation time', {
						error: (error as Error).message,
					});
				}
				return true;
			},
		},
	};

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		const headers = this.getHeaderData() as Headers;
		const state = loadState(this.getWorkflowStaticData('node'));

		if (!secretMatches(headers[SECRET_HEADER], state.secret)) {
			return respondWithoutExecution(this, 401, 'Missing or wrong webhook secret');
		}
		const secret = state.secret as string;

		const request = this.getRequestObject() as unknown as { rawBody?: unknown };
		const query = this.getQueryData() as IDataObject;
		const payload = readPayload(this.getBodyData(), request.rawBody, query);
		if (!payload.ok) {
			return respondWithoutExecution(this, payload.statusCode, payload.message);
		}

		const config = readConfig.call(this);
		const event =
			singleHeader(headers, EVENT_HEADER) ?? payloadField(payload.payload, 'event', 'type');
		if (event === undefined || !config.events.includes(event)) {
			return acknowledgeWithoutExecution('The event kind is not selected in the trigger');
		}
		const registration = singleHeader(headers, REGISTRATION_HEADER);
		if (registration !== undefined && registration !== fingerprintOf(config, event)) {
			return acknowledgeWithoutExecution(
				'The delivery comes from a registration made with earlier trigger settings',
			);
		}
		const payloadIntegration = payloadField(payload.payload, 'integrationId');
		if (
			payloadIntegration !== undefined &&
			ID_PATTERN.test(payloadIntegration) &&
			payloadIntegration !== config.integrationId
		) {
			return acknowledgeWithoutExecution('The delivery is for another integration');
		}

		const item: IDataObject = {
			event,
			integrationId: config.integrationId,
			body: payload.payload as IDataObject,
			headers: publicHeaders(headers),
			query,
		};
		return {
			workflowData: [[{ json: redactSecret(item, secret) }]],
		};
	}
}
