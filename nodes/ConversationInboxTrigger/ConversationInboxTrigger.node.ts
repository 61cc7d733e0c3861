import type {
	IDataObject,
	IHookFunctions,
	INodeProperties,
	INodeType,
	INodeTypeDescription,
	IWebhookDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeApiError, NodeConnectionTypes, NodeOperationError } from 'n8n-workflow';

import codex from './ConversationInboxTrigger.node.json';
import {
	ID_PATTERN,
	TRANSFER_TYPE_OPTIONS,
	WEBHOOK_EVENT_OPTIONS,
	WEBHOOK_EVENTS,
} from '../shared/constants';
import { triggerTypeDefContent, withBuilderHints } from '../shared/builderHints';
import { integrationLocatorProperty, searchIntegrations } from '../shared/integrationLocator';
import { selectedOptionsSubtitle } from '../shared/subtitle';
import { monotonicNow } from '../shared/clock';
import { wasDone } from '../shared/errors';
import { CREDENTIAL_NAME, inboxApiRequest, mayHaveBeenDone } from '../shared/transport';
import type { Headers } from './delivery';
import {
	checkDeliverySecret,
	payloadField,
	publicHeaders,
	readPayload,
	redactSecrets,
	singleHeader,
} from './delivery';
import type { Registration, StaticData, TriggerState } from './registrations';
import {
	currentRegistration,
	EVENT_HEADER,
	fingerprintOf,
	loadState,
	mergeRegistrations,
	missingEvents,
	newRegistrationId,
	REGISTERED_METHOD,
	REGISTRATION_HEADER,
	REGISTRATION_ID_HEADER,
	registrationHeaders,
	saveState,
	SECRET_HEADER,
} from './registrations';
import type { DeliveryNote } from './rejections';
import { logDelivery } from './rejections';
import { recordedRegistrations, recordKey, recordRegistration } from './record';
import { currentSecret, nodeIdentity, secretHash } from './secret';
import type { TriggerConfig } from './settings';
import { readConfig } from './settings';
import { simplifyDelivery } from './simplify';
import { DEFAULT_WINDOW_MINUTES, deliveryKey, eventsOfMessage, seenBefore, uniqueKey } from './oncePerMessage';

/**
 * Every method the API lets a webhook use. Each one is its own webhook description on the same
 * path (as n8n's MCP and send-and-wait webhooks do), so n8n routes all of them to `webhook()`.
 * n8n runs checkExists/create once per description; after the first `create` the static data
 * holds the registrations, so `checkExists` answers true for the other four and nothing is
 * registered twice. Only the POST entry (the method we register) shows its URL in the editor.
 */
const DELIVERY_METHODS = ['POST', 'GET', 'PUT', 'PATCH', 'DELETE'] as const;
const WEBHOOK_PATH = 'webhook';

/**
 * What the platform gets back for a delivery that starts the workflow. n8n answers an onReceived
 * webhook with the description's `responseData` when it is not empty; left out, that is n8n's
 * default, the literal text "firstEntryJson". Empty, n8n sends the `webhookResponse` webhook()
 * returns instead.
 */
const ACKNOWLEDGEMENT = { success: true, executed: true };

const webhooks: IWebhookDescription[] = DELIVERY_METHODS.map((httpMethod) => ({
	name: 'default',
	httpMethod,
	responseMode: 'onReceived',
	responseData: '',
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

/**
 * Registers one webhook. Any 2xx the API sent counts as registered (DESIGN.md, "Reading the API's
 * answers"), with or without the webhook in it: the platform has it, and registering it again
 * would deliver every event twice. Returns the failure otherwise; the caller records the
 * registration either way (as possibly made when it may exist: transport.ts's mayHaveBeenDone, a 5xx, a timeout, a lost connection, a page not the API's) and throws the failure.
 *
 * A refusal is the request path's own NodeApiError, naming the refused event kind (as the Events
 * list names it) in its message and at the start of its description: n8n shows one or the other
 * when an activation fails, each alone (2.41.1's publication status and its older path the
 * message; 1.x's editor the description only, WorkflowService.update: `message =
 * error.description`).
 */
async function register(context: IHookFunctions, body: IDataObject, event: string): Promise<Error | undefined> {
	const failure = await inboxApiRequest
		.call(context, { method: 'POST', path: '/integration/webhook/create', body })
		.then(() => undefined, (error: unknown) => error as Error);
	// A 2xx without the webhook in it: done.
	if (wasDone(failure)) return undefined;
	if (failure instanceof NodeApiError) {
		const kind = WEBHOOK_EVENT_OPTIONS.find((option) => option.value === event)?.name ?? event;
		const refusal = `Registering the webhook for ${kind} failed: ${failure.message}`;
		const retry = mayHaveBeenDone(failure)
			? 'The platform may have registered it all the same: activating again registers it anew, and only the new registration starts the workflow (deliveries of this one, if it exists, are acknowledged and ignored).'
			: undefined;
		failure.message = refusal;
		failure.description = [`${refusal}.`, failure.description, retry].filter(Boolean).join(' ');
	}
	return failure;
}

/** The process record's key of this node (record.ts). */
function recordKeyOf(context: IHookFunctions | IWebhookFunctions): string {
	return recordKey(context.getWorkflow().id, nodeIdentity(context));
}

/** The static data the trigger's state lives in (registrations.ts): the workflow's and the node's. */
function staticDataOf(context: IHookFunctions | IWebhookFunctions): StaticData {
	return { global: context.getWorkflowStaticData('global'), node: context.getWorkflowStaticData('node') };
}

/** Every registration the node knows of: static data in every layout, and the process record. */
function knownState(context: IHookFunctions | IWebhookFunctions): TriggerState {
	const state = loadState(staticDataOf(context), nodeIdentity(context));
	mergeRegistrations(state, recordedRegistrations(recordKeyOf(context)));
	return state;
}

/**
 * The node's registrations for an activation, written back into static data in the current
 * layout (with what the process record holds and static data does not: an activation n8n did not
 * save), so that n8n saves them with the next activation that succeeds.
 */
function knownRegistrations(context: IHookFunctions): TriggerState {
	const state = knownState(context);
	saveState(staticDataOf(context), nodeIdentity(context), state);
	return state;
}

/** The node's secret for registering; fails before any request when the token is missing. */
async function registrationSecret(context: IHookFunctions): Promise<string> {
	const secret = await currentSecret(context);
	if (!secret) {
		throw new NodeOperationError(context.getNode(), 'The credential has no API token', {
			description: 'Open the Conversation Inbox credential, enter the API token and save it.',
		});
	}
	return secret;
}

/**
 * True when a delivery carrying registration identity `id` may run the workflow: it comes from
 * the node's current registration of its kind (registrations.ts, `currentRegistration`), or the
 * node knows none for its URL and settings (never deaf: that one may have been made a moment ago
 * in another process). Test URLs are exempt: n8n lets one delivery through per test and answers
 * 404 to the rest.
 */
function isCurrent(context: IWebhookFunctions, state: TriggerState, fingerprint: string, id: string | undefined): boolean {
	if (context.getMode() === 'manual') return true;
	// No URL (none configured) is no registration's.
	const current = currentRegistration(state, context.getNodeWebhookUrl('default') ?? '', fingerprint);
	return current === undefined || current.id === id;
}

/**
 * One Execution per Message (version 4, oncePerMessage.ts): 'duplicate' when this delivery repeats
 * one that started the workflow within the window, else the fields the item gets. From version
 * 4 every item has the key that identifies its message across processes (`messageKey`, for n8n's
 * Remove Duplicates in queue mode; a delivery nothing can recognise gets a key of its own); with
 * the option on, it also lists the selected events the message stands for.
 */
function oncePerMessage(
	context: IWebhookFunctions,
	config: TriggerConfig,
	event: string,
	payload: unknown,
	headers: Headers,
): IDataObject | 'duplicate' {
	if (context.getNode().typeVersion < 4) return {};
	const options = (context.getNodeParameter('options', {}) ?? {}) as IDataObject;
	// A Window an expression made 0, negative or not a number: the default.
	const windowMinutes = Number(options.windowMinutes);
	const key = deliveryKey(event, payload, headers, {
		integrationId: config.integrationId,
		messageIdField: String(options.messageIdField ?? ''),
		windowMinutes: windowMinutes >= 1 ? windowMinutes : DEFAULT_WINDOW_MINUTES,
	});
	const messageKey = key?.key ?? uniqueKey();
	if (context.getNodeParameter('oncePerMessage', true) === false) return { messageKey };
	if (key !== undefined && seenBefore(recordKeyOf(context), key, monotonicNow())) return 'duplicate';
	return { events: eventsOfMessage(event, payload, config.events), messageKey };
}

/**
 * Writes a response directly (401/400/413), logs why, and tells n8n not to answer or execute.
 */
function refuse(
	context: IWebhookFunctions,
	statusCode: number,
	message: string,
	note: Omit<DeliveryNote, 'outcome' | 'statusCode'>,
): IWebhookResponseData {
	logDelivery(context, { ...note, outcome: 'refused', statusCode });
	const response = context.getResponseObject() as unknown as {
		writeHead(statusCode: number, headers: Record<string, string>): unknown;
		end(body: string): unknown;
	};
	response.writeHead(statusCode, { 'Content-Type': 'application/json; charset=utf-8' });
	response.end(JSON.stringify({ success: false, message }));
	return { noWebhookResponse: true };
}

/** An authentic delivery that must not start the workflow: n8n answers 200 with this body. */
function ignore(context: IWebhookFunctions, reason: string, event: string | undefined): IWebhookResponseData {
	logDelivery(context, { outcome: 'ignored', statusCode: 200, reason: reason.toLowerCase(), event });
	return { webhookResponse: { success: true, executed: false, reason } };
}

/**
 * The event list's options, each saying which other events the same message also is. n8n's list
 * shows an option's description in at most two lines (2.41: line-clamp 2, then "…"), so each says
 * what the event is and what it overlaps in a few words.
 */
const EVENT_OVERLAPS: Record<string, string> = {
	MESSAGE_SENT_AND_RECEIVED: 'Every message, sent or received. Each one is also Message Sent or Message Received.',
	MESSAGE_SENT: 'A message sent to a contact. Also counts as Message Sent and Received.',
	MESSAGE_RECEIVED: 'A message from a contact. Also Message Sent and Received; a first one also First Message Received.',
	FIRST_MESSAGE_RECEIVED: "A new contact's first message. Also Message Received and Message Sent and Received.",
	MESSAGE_IN_SERVICE: 'A message in a chat an attendant serves. Also one of the other message events.',
};
const TRIGGER_EVENT_OPTIONS = WEBHOOK_EVENT_OPTIONS.map((option) => {
	const overlap = EVENT_OVERLAPS[option.value as string];
	return overlap ? { ...option, description: overlap } : option;
});

/** The version a new trigger gets (also the AI builder's example). */
const DEFAULT_VERSION = 4;

/** The Events parameter; its text differs from version 4 on (One Execution per Message). */
const EVENTS_PROPERTY = {
	displayName: 'Events',
	name: 'events',
	type: 'multiOptions',
	options: TRIGGER_EVENT_OPTIONS,
	default: [],
	required: true,
} satisfies Omit<INodeProperties, 'description'>;

export class ConversationInboxTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Conversation Inbox Trigger',
		name: 'conversationInboxTrigger',
		icon: {
			light: 'file:../ConversationInbox/conversationInbox.svg',
			dark: 'file:../ConversationInbox/conversationInbox.dark.svg',
		},
		group: ['trigger'],
		// 1 and 2 give the same item. n8n 2.x reads the body of every delivery to a trigger at
		// typeVersion 1 as it did for its Webhook node v1, evaluating that node's options.binaryData
		// through the expression engine (an isolate per delivery); from 2 on it does not.
		// 3 adds Simplify, on by default; saved nodes at 1 and 2 keep the full item.
		// 4 adds One Execution per Message, on by default; saved nodes at 1 to 3 run once per delivery.
		version: [1, 2, 3, 4],
		defaultVersion: DEFAULT_VERSION,
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
		// For n8n's AI workflow builder (n8n-workflow's IBuilderHint); older n8n versions ignore it.
		builderHint: {
			searchHint:
				'Starts a workflow on Conversation Inbox (shared WhatsApp-style customer inbox) webhook events of one channel integration: messages sent or received, a first message, a message in service, a connection status update. Activating the workflow registers the webhooks on the platform.',
			relatedNodes: [
				{
					nodeType: 'n8n-nodes-conversation-inbox.conversationInbox',
					relationHint: 'Acts on the chat or contact of the event: stop its bot or automation, remove tags from the contact, read or update its custom fields',
				},
			],
			extraTypeDefContent: triggerTypeDefContent(DEFAULT_VERSION),
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
		properties: withBuilderHints([
			integrationLocatorProperty({
				description:
					'The channel integration (connected messaging line) whose events start the workflow',
			}),
			{
				// From version 4 on. First: n8n's type definition for the AI builder (newest version) takes the
				// first property of a name.
				...EVENTS_PROPERTY,
				displayOptions: { show: { '@version': [{ _cnd: { gte: 4 } }] } },
				description:
					'The events that start the workflow. One webhook is registered on the platform per event. A message that counts as several selected events starts one execution while One Execution per Message is on, one per event when it is off.',
			},
			{
				// The same parameter up to version 3: only what it says of overlapping events differs.
				...EVENTS_PROPERTY,
				displayOptions: { show: { '@version': [{ _cnd: { lte: 3 } }] } },
				description:
					'The events that start the workflow. One webhook is registered on the platform per event; an occurrence that counts as several selected events starts one execution for each.',
			},
			{
				// Shown once events are chosen: that is when activating registers webhooks. Short, in the
				// words of the button it warns about ("Execute step" in n8n 2.41 and 1.123 alike). The
				// test URL's registrations are reused through the process record (record.ts), which a
				// restart of n8n forgets (n8n gives test mode no saved static data).
				displayName:
					'The API cannot delete webhooks: each registration stays on the platform, even after deactivation (activating again reuses it). Execute step registers n8n\'s test URL once per node while n8n runs (again after a restart); to test without that, activate the workflow and send a real event.',
				name: 'apiCannotDeleteNotice',
				type: 'notice',
				default: '',
				displayOptions: { show: { events: WEBHOOK_EVENTS } },
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
				displayName: 'Simplify',
				name: 'simplify',
				type: 'boolean',
				default: true,
				displayOptions: { show: { '@version': [{ _cnd: { gte: 3 } }] } },
				description:
					'Whether to return one flat item (event, integration, message text, phone number, chat IDs, statuses) instead of the full delivery with its body, headers and query',
			},
			{
				displayName: 'One Execution per Message',
				name: 'oncePerMessage',
				type: 'boolean',
				default: true,
				displayOptions: { show: { '@version': [{ _cnd: { gte: 4 } }] } },
				description:
					'Whether a message that arrives under several selected events, or that the platform delivers again, starts the workflow once within the window (Options → Window). The item then lists the selected events the message counts as. With several webhook processes (queue mode), add n8n\'s Remove Duplicates node on the item\'s messageKey.',
			},
			{
				displayName: 'Options',
				name: 'options',
				type: 'collection',
				placeholder: 'Add option',
				default: {},
				options: [
					{
						displayName: 'Message ID Field',
						name: 'messageIdField',
						type: 'string',
						default: '',
						placeholder: 'data.message.messageId',
						displayOptions: { show: { '/oncePerMessage': [true], '@version': [{ _cnd: { gte: 4 } }] } },
						description:
							'Where the delivery\'s body holds the message\'s ID, as a dot path. Empty: where payloads usually keep it (in data.message, data or at the top of the body). Without an ID, only exact redeliveries are recognised (the same body with its time, within 30 seconds).',
					},
					{
						displayName: 'Window (Minutes)',
						name: 'windowMinutes',
						type: 'number',
						typeOptions: { minValue: 1, maxValue: 1440, numberPrecision: 0 },
						default: DEFAULT_WINDOW_MINUTES,
						displayOptions: { show: { '/oncePerMessage': [true], '@version': [{ _cnd: { gte: 4 } }] } },
						description:
							'How long after a message started the workflow its other deliveries (other events, redeliveries) start nothing',
					},
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
		]),
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
			 * settings (integration, transfer type, delay, extra headers) whose deliveries the node
			 * accepts, under whatever token it was made. Answers from static data and the process
			 * record (the API cannot list webhooks).
			 */
			async checkExists(this: IHookFunctions): Promise<boolean> {
				const url = webhookUrlOf(this);
				const config = readConfig.call(this);
				await registrationSecret(this);
				return missingEvents(knownRegistrations(this), url, config).length === 0;
			},

			/**
			 * Registers one webhook per selected event that has no reusable registration yet.
			 * The secret is derived from the API token and the node (secret.ts), so `webhook()`
			 * accepts a delivery as soon as the platform can send one, before n8n saves static
			 * data; static data keeps its hash, so the delivery stays accepted after the token
			 * changes. Each registration the API accepts goes into the process record at once
			 * (record.ts): n8n drops this static data if a later registration fails. Registrations
			 * made under earlier settings still exist on the platform, still authenticate, and are
			 * recognised (and ignored) by their fingerprint header; switching back reuses them.
			 */
			async create(this: IHookFunctions): Promise<boolean> {
				const url = webhookUrlOf(this);
				const config = readConfig.call(this);
				const secret = await registrationSecret(this);
				const state = knownRegistrations(this);
				const record = recordKeyOf(this);
				const keep = (registration: Registration): void => {
					recordRegistration(record, registration);
					state.registrations.push(registration);
					saveState(staticDataOf(this), nodeIdentity(this), state);
				};

				for (const event of missingEvents(state, url, config)) {
					const id = newRegistrationId();
					const body: IDataObject = {
						integrationId: config.integrationId,
						url,
						method: REGISTERED_METHOD,
						type: event,
						headers: registrationHeaders(config, secret, event, id) as unknown as IDataObject[],
						delayMinutes: config.delayMinutes,
						transferType: config.transferType,
					};
					const registration = { url, event, fingerprint: fingerprintOf(config, event), secretHash: secretHash(secret), id };
					const failure = await register(this, body, event);
					if (failure === undefined) {
						keep(registration);
						continue;
					}
					if (mayHaveBeenDone(failure)) keep({ ...registration, possiblyMade: true });
					throw failure;
				}
				return true;
			},

			/**
			 * The API has no endpoint to delete a webhook, and the secret and the registrations
			 * are what a later activation reuses: nothing to remove, remotely or locally.
			 */
			async delete(): Promise<boolean> {
				return true;
			},
		},
	};

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		const headers = this.getHeaderData() as Headers;
		const headerEvent = singleHeader(headers, EVENT_HEADER);

		// The derived secret needs no static data (n8n 2.x saves it after the URL goes live); the
		// hashes of the registrations' secrets accept those made under an earlier token; a node
		// first activated under version 1 also accepts the random secret kept there.
		const state = knownState(this);
		const provided = headers[SECRET_HEADER];
		const accepted = [await currentSecret(this), state.legacySecret];
		const check = checkDeliverySecret(provided, accepted, state.registrations);
		if (!check.ok) {
			const bodyEvent = payloadField(this.getBodyData(), 'event', 'type');
			return refuse(this, 401, 'Missing or wrong webhook secret', {
				reason: check.reason,
				event: headerEvent ?? bodyEvent,
			});
		}

		const request = this.getRequestObject() as unknown as { rawBody?: unknown };
		const query = this.getQueryData() as IDataObject;
		const payload = readPayload(this.getBodyData(), request.rawBody, query, singleHeader(headers, 'content-type'));
		if (!payload.ok) {
			return refuse(this, payload.statusCode, payload.message, {
				reason: payload.message.replace(/^The/, 'the'),
				event: headerEvent,
			});
		}

		const config = readConfig.call(this);
		const event = headerEvent ?? payloadField(payload.payload, 'event', 'type');
		if (event === undefined || !config.events.includes(event)) {
			return ignore(this, 'The event kind is not selected in the trigger', event);
		}
		const registration = singleHeader(headers, REGISTRATION_HEADER);
		if (registration !== undefined && registration !== fingerprintOf(config, event)) {
			return ignore(
				this,
				'The delivery comes from a registration made with earlier trigger settings',
				event,
			);
		}
		if (!isCurrent(this, state, fingerprintOf(config, event), singleHeader(headers, REGISTRATION_ID_HEADER))) {
			return ignore(
				this,
				'The delivery comes from another registration of this event kind than the current one (made again after n8n lost its record of it)',
				event,
			);
		}
		const payloadIntegration = payloadField(payload.payload, 'integrationId');
		if (
			payloadIntegration !== undefined &&
			ID_PATTERN.test(payloadIntegration) &&
			payloadIntegration !== config.integrationId
		) {
			return ignore(this, 'The delivery is for another integration', event);
		}

		const once = oncePerMessage(this, config, event, payload.payload, headers);
		if (once === 'duplicate') {
			return ignore(this, 'The same message (or delivery) started the workflow within the window (One Execution per Message)', event);
		}

		// Simplify exists from version 3 on; 1 and 2 keep the full item they always gave.
		const simplify =
			this.getNode().typeVersion >= 3 && this.getNodeParameter('simplify', true) !== false;
		const item: IDataObject = simplify
			? simplifyDelivery(event, config.integrationId, payload.payload)
			: {
					event,
					integrationId: config.integrationId,
					body: payload.payload as IDataObject,
					headers: publicHeaders(headers),
					query,
				};
		Object.assign(item, once);
		return {
			workflowData: [[{ json: redactSecrets(item, [...accepted, provided as string]) }]],
			webhookResponse: ACKNOWLEDGEMENT,
		};
	}
}
