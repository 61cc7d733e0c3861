/**
 * What the trigger registers on the platform and what it remembers about it.
 *
 * The API can create webhooks but cannot list or delete them, so the node's static data is the
 * only record of what exists on the platform. Layout of `getWorkflowStaticData('node')`:
 *
 * ```
 * {
 *   registrations: [          // every webhook this node ever registered, never forgotten
 *     { url, event, fingerprint, secretTag? },
 *   ],
 *   secret?: '<64 hex chars>',  // version 1 only: see below
 * }
 * ```
 *
 * - `url` + `fingerprint`: a registration is reused when both match the current URL and settings.
 *   The fingerprint covers integration, event, transfer type, delay and extra headers, and
 *   travels with every delivery (`x-inbox-registration`), so a delivery of a registration made
 *   under earlier settings is told apart (acknowledged, not executed).
 * - `secretTag`: which secret the registration carries (secret.ts derives it from the API token
 *   and the node, so `webhook()` needs no static data). Absent: the version-1 random `secret`.
 * - `event`: not read here, but the loader of the released 0.1.x drops entries without it; a
 *   downgrade would then register every webhook again and each delivery would run twice.
 *
 * Older layouts (0.1.x) also held `version`, `lastDeactivatedAt` and per registration `webhookId`,
 * `createdAt` and the fingerprint's parts; they load as they are and are dropped on the next save.
 * The version-1 `secret` is kept and still accepted: its registrations cannot be deleted, and
 * registering them again would double every delivery.
 */
import { createHash } from 'crypto';
import type { IDataObject } from 'n8n-workflow';

import { secretTag } from './secret';
import type { ExtraHeader, TriggerConfig } from './settings';

/** Header carrying the per-node secret; deliveries without it are rejected with 401. */
export const SECRET_HEADER = 'x-inbox-webhook-secret';
/** Header carrying the event kind the registration was made for. */
export const EVENT_HEADER = 'x-inbox-event';
/** Header carrying the registration's settings fingerprint (not secret). */
export const REGISTRATION_HEADER = 'x-inbox-registration';
export const RESERVED_HEADERS = [SECRET_HEADER, EVENT_HEADER, REGISTRATION_HEADER];

/** Deliveries always use POST; the handler still accepts GET, PUT, PATCH and DELETE. */
export const REGISTERED_METHOD = 'POST';

export interface Registration {
	url: string;
	event: string;
	fingerprint: string;
	/** secretTag() of the secret it carries; absent: the version-1 random secret */
	secretTag?: string;
}

export interface TriggerState {
	/** the random secret of version 1, carried by registrations that have no secretTag */
	legacySecret?: string;
	registrations: Registration[];
}

/** Identifies a registration's settings; the same settings always give the same fingerprint. */
export function fingerprintOf(config: TriggerConfig, event: string): string {
	const parts = [config.integrationId, event, config.transferType, config.delayMinutes, config.headersHash];
	return createHash('sha256').update(JSON.stringify(parts), 'utf8').digest('hex').slice(0, 32);
}

const isString = (value: unknown): value is string => typeof value === 'string';

/** The node's static data in any layout so far; damaged entries are dropped, never thrown on. */
export function loadState(staticData: IDataObject): TriggerState {
	const entries = Array.isArray(staticData.registrations) ? (staticData.registrations as unknown[]) : [];
	const registrations: Registration[] = [];
	for (const entry of entries) {
		if (!entry || typeof entry !== 'object') continue;
		const { url, event, fingerprint, secretTag: tag } = entry as IDataObject;
		if (!isString(url) || !isString(event) || !isString(fingerprint)) continue;
		registrations.push(isString(tag) ? { url, event, fingerprint, secretTag: tag } : { url, event, fingerprint });
	}
	const secret = staticData.secret;
	return { legacySecret: isString(secret) && secret !== '' ? secret : undefined, registrations };
}

/** Writes the registrations in the current layout; the version-1 secret stays as it is. */
export function saveState(staticData: IDataObject, state: TriggerState): void {
	staticData.registrations = state.registrations.map((registration) => ({ ...registration }));
	delete staticData.version;
	delete staticData.lastDeactivatedAt;
}

/** True when the registration carries `secret`, or the version-1 secret the node still has. */
function carriesAcceptedSecret(state: TriggerState, registration: Registration, secret: string): boolean {
	if (registration.secretTag !== undefined) return registration.secretTag === secretTag(secret);
	return state.legacySecret !== undefined;
}

/** Selected events that have no reusable registration yet (same URL, fingerprint and secret). */
export function missingEvents(
	state: TriggerState,
	url: string,
	config: TriggerConfig,
	secret: string,
): string[] {
	return config.events.filter((event) => {
		const fingerprint = fingerprintOf(config, event);
		return !state.registrations.some(
			(registration) =>
				registration.url === url &&
				registration.fingerprint === fingerprint &&
				carriesAcceptedSecret(state, registration, secret),
		);
	});
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
