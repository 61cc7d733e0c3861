/**
 * What the trigger registers on the platform and what it remembers about it.
 *
 * The API can create webhooks but cannot list or delete them, so the node's static data is the
 * only record of what exists on the platform. Layout of `getWorkflowStaticData('node')`:
 *
 * ```
 * {
 *   version: 2,
 *   registrations: [                   // every webhook this node ever registered, never forgotten
 *     { webhookId, event, url, integrationId, transferType, delayMinutes,
 *       headersHash, fingerprint, secretTag, createdAt },
 *   ],
 *   secret?: '<64 hex chars>',         // version 1 only: see below
 *   lastDeactivatedAt?: '<ISO time>',  // set by `delete`, for the record only
 * }
 * ```
 *
 * The secret a registration carries is derived from the API token and the node (secret.ts), so
 * `webhook()` needs no static data to check it; `secretTag` records which secret a registration
 * carries. Nodes first activated under version 1 hold a random `secret` here, carried by their
 * registrations without a `secretTag`: it is kept and still accepted, so those registrations keep
 * working (registering them again would double every delivery, as the old ones cannot be deleted).
 *
 * A registration is reusable when its URL and fingerprint match the current settings and it
 * carries a secret the node accepts. The fingerprint covers integration, event kind, transfer
 * type, delay and the extra headers, and travels with every delivery in the `x-inbox-registration`
 * header, so the trigger can tell a delivery of a current registration from one of an outdated
 * registration that still exists on the platform (acknowledged, not executed).
 */
import { createHash } from 'crypto';
import type { IDataObject, IHookFunctions, INode, IWebhookFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { TRANSFER_TYPE_OPTIONS, WEBHOOK_EVENTS } from '../shared/constants';
import { validateIntegrationId } from '../shared/integrationLocator';
import { secretTag } from './secret';

/** Header carrying the per-node secret; deliveries without it are rejected with 401. */
export const SECRET_HEADER = 'x-inbox-webhook-secret';
/** Header carrying the event kind the registration was made for. */
export const EVENT_HEADER = 'x-inbox-event';
/** Header carrying the registration's settings fingerprint (not secret). */
export const REGISTRATION_HEADER = 'x-inbox-registration';
export const RESERVED_HEADERS = [SECRET_HEADER, EVENT_HEADER, REGISTRATION_HEADER];

/** Deliveries always use POST; the handler still accepts GET, PUT, PATCH and DELETE. */
export const REGISTERED_METHOD = 'POST';
export const STATE_VERSION = 2;

const TRANSFER_TYPES = TRANSFER_TYPE_OPTIONS.map((option) => option.value as string);

export interface ExtraHeader {
	key: string;
	value: string;
}

/** The trigger's settings, read and checked from the node parameters. */
export interface TriggerConfig {
	integrationId: string;
	events: string[];
	transferType: string;
	delayMinutes: number;
	headers: ExtraHeader[];
	headersHash: string;
}

export interface Registration extends IDataObject {
	webhookId: string | null;
	event: string;
	url: string;
	integrationId: string;
	transferType: string;
	delayMinutes: number;
	headersHash: string;
	fingerprint: string;
	/** secretTag() of the secret it carries; absent: the version-1 random secret */
	secretTag?: string;
	createdAt: string;
}

export interface TriggerState {
	version: number;
	/** the random secret of version 1, carried by registrations that have no secretTag */
	legacySecret?: string;
	registrations: Registration[];
	lastDeactivatedAt?: string;
}

type ParameterContext = IHookFunctions | IWebhookFunctions;

function sha256Hex(text: string): string {
	return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** Order-independent hash of the user's extra headers (values never stored in clear). */
export function hashHeaders(headers: ExtraHeader[]): string {
	const canonical = headers
		.map((header) => [header.key.toLowerCase(), header.value])
		.sort((a, b) => (a[0] === b[0] ? a[1].localeCompare(b[1]) : a[0].localeCompare(b[0])));
	return sha256Hex(JSON.stringify(canonical));
}

/** Identifies a registration's settings; the same settings always give the same fingerprint. */
export function fingerprintOf(config: TriggerConfig, event: string): string {
	return sha256Hex(
		JSON.stringify([
			config.integrationId,
			event,
			config.transferType,
			config.delayMinutes,
			config.headersHash,
		]),
	).slice(0, 32);
}

function fail(node: INode, message: string, description: string): never {
	throw new NodeOperationError(node, message, { description });
}

function readExtraHeaders(node: INode, options: IDataObject): ExtraHeader[] {
	const collection = (options.extraHeaders ?? {}) as IDataObject;
	const entries = Array.isArray(collection.header) ? (collection.header as IDataObject[]) : [];
	const seen = new Set<string>();
	const headers: ExtraHeader[] = [];
	for (const entry of entries) {
		const key = String(entry.key ?? '').trim();
		const value = String(entry.value ?? '');
		if (key === '') {
			fail(node, 'Extra Headers: a header has no name', 'Give every extra header a name, or remove it.');
		}
		if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(key)) {
			fail(
				node,
				`Extra Headers: "${key}" is not a valid HTTP header name`,
				'Header names may hold letters, digits and - _ . ! # $ % & \' * + ^ ` | ~ only.',
			);
		}
		const lower = key.toLowerCase();
		if (RESERVED_HEADERS.includes(lower)) {
			fail(
				node,
				`Extra Headers: "${key}" is reserved by the trigger`,
				`The trigger sends ${RESERVED_HEADERS.join(', ')} itself. Use another header name.`,
			);
		}
		if (seen.has(lower)) {
			fail(
				node,
				`Extra Headers: "${key}" is given twice`,
				'Header names are case-insensitive; give each header once.',
			);
		}
		seen.add(lower);
		headers.push({ key, value });
	}
	return headers;
}

/** Reads and checks the trigger's parameters; a wrong value fails before any request is sent. */
export function readConfig(this: ParameterContext): TriggerConfig {
	const node = this.getNode();
	const integrationId = validateIntegrationId(
		node,
		this.getNodeParameter('integrationId', '', { extractValue: true }),
	);

	const rawEvents = this.getNodeParameter('events', []) as unknown;
	const events = Array.isArray(rawEvents) ? [...new Set(rawEvents.map(String))] : [];
	if (events.length === 0) {
		fail(node, 'Events: select at least one event', 'The trigger registers one webhook per selected event.');
	}
	const unknown = events.filter((event) => !WEBHOOK_EVENTS.includes(event));
	if (unknown.length > 0) {
		fail(
			node,
			`Events: unknown event ${unknown.map((event) => `"${event}"`).join(', ')}`,
			`Allowed events: ${WEBHOOK_EVENTS.join(', ')}.`,
		);
	}

	const transferType = String(this.getNodeParameter('transferType', 'ALL'));
	if (!TRANSFER_TYPES.includes(transferType)) {
		fail(
			node,
			`Transfer Type: "${transferType}" is not allowed`,
			`Allowed values: ${TRANSFER_TYPES.join(', ')}.`,
		);
	}

	const delayMinutes = Number(this.getNodeParameter('delayMinutes', 0));
	if (!Number.isInteger(delayMinutes) || delayMinutes < 0) {
		fail(
			node,
			`Delay Minutes: ${String(delayMinutes)} is not allowed`,
			'The delay must be a whole number of minutes, 0 or more.',
		);
	}

	const options = (this.getNodeParameter('options', {}) ?? {}) as IDataObject;
	const headers = readExtraHeaders(node, options);

	return {
		integrationId,
		events: WEBHOOK_EVENTS.filter((event) => events.includes(event)),
		transferType,
		delayMinutes,
		headers,
		headersHash: hashHeaders(headers),
	};
}

/** The node's static data, normalised (unknown or damaged fields are dropped, never thrown on). */
export function loadState(staticData: IDataObject): TriggerState {
	const registrations = Array.isArray(staticData.registrations)
		? (staticData.registrations as IDataObject[]).filter(
				(entry): entry is Registration =>
					!!entry &&
					typeof entry === 'object' &&
					typeof entry.event === 'string' &&
					typeof entry.url === 'string' &&
					typeof entry.fingerprint === 'string',
			)
		: [];
	return {
		version: STATE_VERSION,
		legacySecret:
			typeof staticData.secret === 'string' && staticData.secret !== '' ? staticData.secret : undefined,
		registrations,
		lastDeactivatedAt:
			typeof staticData.lastDeactivatedAt === 'string' ? staticData.lastDeactivatedAt : undefined,
	};
}

/** True when the registration carries `secret`, or the version-1 secret the node still has. */
function carriesAcceptedSecret(state: TriggerState, registration: Registration, secret: string): boolean {
	if (typeof registration.secretTag === 'string') return registration.secretTag === secretTag(secret);
	return state.legacySecret !== undefined;
}

/** The registration that serves `event` under the current settings, URL and secret, if any. */
export function findRegistration(
	state: TriggerState,
	url: string,
	config: TriggerConfig,
	event: string,
	secret: string,
): Registration | undefined {
	const fingerprint = fingerprintOf(config, event);
	return state.registrations.find(
		(registration) =>
			registration.url === url &&
			registration.fingerprint === fingerprint &&
			carriesAcceptedSecret(state, registration, secret),
	);
}

/** Selected events that have no reusable registration yet. */
export function missingEvents(
	state: TriggerState,
	url: string,
	config: TriggerConfig,
	secret: string,
): string[] {
	return config.events.filter((event) => !findRegistration(state, url, config, event, secret));
}

/** The headers sent to POST /integration/webhook/create: the user's first, then ours. */
export function registrationHeaders(
	config: TriggerConfig,
	secret: string,
	event: string,
): ExtraHeader[] {
	return [
		...config.headers,
		{ key: SECRET_HEADER, value: secret },
		{ key: EVENT_HEADER, value: event },
		{ key: REGISTRATION_HEADER, value: fingerprintOf(config, event) },
	];
}
