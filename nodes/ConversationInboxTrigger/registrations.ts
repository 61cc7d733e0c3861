/**
 * What the trigger registers on the platform and what it remembers about it.
 *
 * The API can create webhooks but cannot list or delete them, so the node's static data (and, for
 * an activation n8n did not save, the process record in record.ts) is the only record of what
 * exists on the platform. Layout of `getWorkflowStaticData('node')`:
 *
 * ```
 * {
 *   registrations: [          // every webhook this node ever registered, never forgotten
 *     { url, event, fingerprint, secretHash },   // or secretTag: unreleased builds before issue 35
 *   ],
 *   secret?: '<64 hex chars>',  // version 1 only: see below
 * }
 * ```
 *
 * - `url` + `fingerprint`: a registration is reused when both match the current URL and settings,
 *   whatever API token it was made under. The fingerprint covers integration, event, transfer
 *   type, delay and extra headers, and travels with every delivery (`x-inbox-registration`), so a
 *   delivery of a registration made under earlier settings is told apart (acknowledged, not executed).
 * - `secretHash`: sha256 of the secret the registration carries (secret.ts), fixed when it is made;
 *   a delivery whose secret hashes to it is accepted under any later token. Never the secret itself.
 *   `secretTag` (the hash's first 16 characters) is what earlier builds stored; still accepted.
 *   Neither: the version-1 random `secret`.
 * - `event`: not read here, but the loader of the released 0.1.x drops entries without it; a
 *   downgrade would then register every webhook again and each delivery would run twice. That
 *   loader ignores fields it does not know (`secretHash`).
 *
 * Older layouts (0.1.x) also held `version`, `lastDeactivatedAt` and per registration `webhookId`,
 * `createdAt` and the fingerprint's parts; they load as they are and are dropped on the next save.
 * The version-1 `secret` is kept and still accepted: its registrations cannot be deleted, and
 * registering them again would double every delivery.
 */
import { createHash } from 'crypto';
import type { IDataObject } from 'n8n-workflow';

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
	/** secretHash() of the secret it carries, fixed when it was made */
	secretHash?: string;
	/** what earlier builds kept instead: the first 16 characters of secretHash */
	secretTag?: string;
}

export interface TriggerState {
	/** the random secret of version 1, carried by registrations that have no hash or tag */
	legacySecret?: string;
	registrations: Registration[];
}

/** Identifies a registration's settings; the same settings always give the same fingerprint. */
export function fingerprintOf(config: TriggerConfig, event: string): string {
	const parts = [config.integrationId, event, config.transferType, config.delayMinutes, config.headersHash];
	return createHash('sha256').update(JSON.stringify(parts)).digest('hex').slice(0, 32);
}

const isString = (value: unknown): value is string => typeof value === 'string';
const isHex = (length: number) => (value: unknown): value is string =>
	typeof value === 'string' && value.length === length && /^[0-9a-f]+$/.test(value);
const isSecretHash = isHex(64);
const isSecretTag = isHex(16);

/** The node's static data in any layout so far; damaged entries are dropped, never thrown on. */
export function loadState(staticData: IDataObject): TriggerState {
	const entries = Array.isArray(staticData.registrations) ? (staticData.registrations as unknown[]) : [];
	const registrations: Registration[] = [];
	for (const entry of entries) {
		// null and undefined cannot be destructured; any other entry that is not an object has no
		// text url and is dropped by the next line
		if (!entry) continue;
		const { url, event, fingerprint, secretHash: hash, secretTag: tag } = entry as IDataObject;
		if (!isString(url) || !isString(event) || !isString(fingerprint)) continue;
		if (isSecretHash(hash)) registrations.push({ url, event, fingerprint, secretHash: hash });
		else if (isSecretTag(tag)) registrations.push({ url, event, fingerprint, secretTag: tag });
		else registrations.push({ url, event, fingerprint });
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

/**
 * True when the node accepts the registration's deliveries: it kept the hash (or the older tag)
 * of its secret, or it is a version-1 registration and the node still has that secret.
 */
function deliveriesAccepted(state: TriggerState, registration: Registration): boolean {
	if (registration.secretHash !== undefined || registration.secretTag !== undefined) return true;
	return state.legacySecret !== undefined;
}

/**
 * Selected events that have no reusable registration yet: same URL and fingerprint, and deliveries
 * the node accepts. The token it was made under does not matter (its secret's hash is kept).
 */
export function missingEvents(state: TriggerState, url: string, config: TriggerConfig): string[] {
	return config.events.filter((event) => {
		const fingerprint = fingerprintOf(config, event);
		return !state.registrations.some(
			(registration) =>
				registration.url === url &&
				registration.fingerprint === fingerprint &&
				deliveriesAccepted(state, registration),
		);
	});
}

/** Identifies one registration on the platform (a URL, its settings, the secret it carries). */
export function registrationKey(registration: Registration): string {
	// JSON: distinct registrations never share a key (no separator to collide with); no secret is null
	return JSON.stringify([registration.url, registration.fingerprint, registration.secretHash ?? registration.secretTag]);
}

/**
 * Adds to `state` the registrations it does not hold yet (the process record's, record.ts);
 * returns how many were added.
 */
export function mergeRegistrations(state: TriggerState, known: Registration[]): number {
	const held = new Set(state.registrations.map(registrationKey));
	let added = 0;
	for (const registration of known) {
		const key = registrationKey(registration);
		if (held.has(key)) continue;
		held.add(key);
		state.registrations.push({ ...registration });
		added += 1;
	}
	return added;
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
