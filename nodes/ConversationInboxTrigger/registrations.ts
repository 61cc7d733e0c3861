/**
 * What the trigger registers on the platform and what it remembers about it.
 *
 * The API can create webhooks but cannot list or delete them, so the workflow's static data (and,
 * for an activation n8n did not save, the process record in record.ts) is the only record of what
 * exists on the platform. n8n keys a node's static data by the node's NAME and moves nothing on a
 * rename, so the registrations live in the workflow's global static data under the node's identity
 * (its webhook ID, which a rename keeps; secret.ts nodeIdentity):
 *
 * ```
 * getWorkflowStaticData('global'): {
 *   conversationInboxTrigger: {
 *     '<node identity>': {
 *       registrations: [        // every webhook this node ever registered, never forgotten
 *         { url, event, fingerprint, secretHash, id },   // id: since issue 42
 *         { ..., possiblyMade: true },                   // answered 5xx or not at all
 *       ],
 *       secret?: '<64 hex chars>',   // version 1 only: see below
 *     },
 *   },
 * }
 * getWorkflowStaticData('node'): { registrations: [...], secret? }   // the layout before issue 42
 * ```
 *
 * The node's own static data (the layout before issue 42, and what 0.1.x reads) is still read, and
 * written with the registrations known to exist, so a downgrade keeps them. Both are read and
 * merged (global first): nothing a rename, an upgrade or a downgrade left in either is lost.
 *
 * - `url` + `fingerprint`: a registration is reused when both match the current URL and settings,
 *   whatever API token it was made under. The fingerprint covers integration, event, transfer
 *   type, delay and extra headers, and travels with every delivery (`x-inbox-registration`), so a
 *   delivery of a registration made under earlier settings is told apart (acknowledged, not executed).
 * - `id`: the registration's own identity (`x-inbox-registration-id`, random, not secret). Two
 *   registrations of the same URL and settings exist when n8n lost the record of the first (a
 *   restart between a failed and a corrected activation, an answer that never came); their
 *   deliveries are byte for byte the same but for this header. The node's CURRENT registration of
 *   a kind is the first one known to exist for its URL and fingerprint (`currentRegistration`);
 *   a delivery of any other is acknowledged and runs nothing, so nothing doubles.
 * - `possiblyMade`: the API answered 5xx, or nothing, to it: it may exist. Never reused (it may not
 *   exist: a deaf trigger) and never current; kept so that its deliveries, if it does exist, are
 *   recognised (its secret's hash) and acknowledged.
 * - `secretHash`: sha256 of the secret the registration carries (secret.ts), fixed when it is made;
 *   a delivery whose secret hashes to it is accepted under any later token. Never the secret itself.
 *   `secretTag` (the hash's first 16 characters) is what earlier builds stored; still accepted.
 *   Neither: the version-1 random `secret`.
 * - `event`: not read here, but the loader of the released 0.1.x drops entries without it; a
 *   downgrade would then register every webhook again and each delivery would run twice. That
 *   loader ignores fields it does not know (`secretHash`, `id`).
 *
 * Older layouts (0.1.x) also held `version`, `lastDeactivatedAt` and per registration `webhookId`,
 * `createdAt` and the fingerprint's parts; they load as they are and are dropped on the next save.
 * The version-1 `secret` is kept and still accepted: its registrations cannot be deleted, and
 * registering them again would double every delivery.
 */
import { createHash, randomBytes } from 'crypto';
import type { IDataObject } from 'n8n-workflow';

import type { ExtraHeader, TriggerConfig } from './settings';

/** Header carrying the per-node secret; deliveries without it are rejected with 401. */
export const SECRET_HEADER = 'x-inbox-webhook-secret';
/** Header carrying the event kind the registration was made for. */
export const EVENT_HEADER = 'x-inbox-event';
/** Header carrying the registration's settings fingerprint (not secret). */
export const REGISTRATION_HEADER = 'x-inbox-registration';
/** Header carrying the registration's own identity (random, not secret). */
export const REGISTRATION_ID_HEADER = 'x-inbox-registration-id';
export const RESERVED_HEADERS = [SECRET_HEADER, EVENT_HEADER, REGISTRATION_HEADER, REGISTRATION_ID_HEADER];

/** Deliveries always use POST; the handler still accepts GET, PUT, PATCH and DELETE. */
export const REGISTERED_METHOD = 'POST';

/** The key of the trigger's part of the workflow's global static data. */
export const GLOBAL_KEY = 'conversationInboxTrigger';

export interface Registration {
	url: string;
	event: string;
	fingerprint: string;
	/** secretHash() of the secret it carries, fixed when it was made */
	secretHash?: string;
	/** what earlier builds kept instead: the first 16 characters of secretHash */
	secretTag?: string;
	/** the identity it carries (x-inbox-registration-id); none on registrations made before issue 42 */
	id?: string;
	/** the API answered 5xx or nothing: it may exist; never reused, never current */
	possiblyMade?: true;
}

export interface TriggerState {
	/** the random secret of version 1, carried by registrations that have no hash or tag */
	legacySecret?: string;
	registrations: Registration[];
}

/** Where the state is kept: the workflow's global static data and the node's own (n8n's objects). */
export interface StaticData {
	global: IDataObject;
	node: IDataObject;
}

/** Identifies a registration's settings; the same settings always give the same fingerprint. */
export function fingerprintOf(config: TriggerConfig, event: string): string {
	const parts = [config.integrationId, event, config.transferType, config.delayMinutes, config.headersHash];
	return createHash('sha256').update(JSON.stringify(parts)).digest('hex').slice(0, 32);
}

/** A new registration's identity: 128 random bits, hex. */
export function newRegistrationId(): string {
	return randomBytes(16).toString('hex');
}

const isString = (value: unknown): value is string => typeof value === 'string';
const isHex = (length: number) => (value: unknown): value is string =>
	typeof value === 'string' && value.length === length && /^[0-9a-f]+$/.test(value);
const isSecretHash = isHex(64);
const isSecretTag = isHex(16);
const isRegistrationId = isHex(32);
const isObject = (value: unknown): value is IDataObject => !!value && typeof value === 'object' && !Array.isArray(value);

/** One layout's entries (either layout has `registrations` and `secret`); damaged ones dropped. */
function readLayout(data: unknown): TriggerState {
	const layout = isObject(data) ? data : {};
	const entries = Array.isArray(layout.registrations) ? (layout.registrations as unknown[]) : [];
	const registrations: Registration[] = [];
	for (const entry of entries) {
		// null and undefined cannot be destructured; any other entry that is not an object has no
		// text url and is dropped by the next line
		if (!entry) continue;
		const { url, event, fingerprint, secretHash: hash, secretTag: tag, id, possiblyMade } = entry as IDataObject;
		if (!isString(url) || !isString(event) || !isString(fingerprint)) continue;
		const registration: Registration = { url, event, fingerprint };
		if (isSecretHash(hash)) registration.secretHash = hash;
		else if (isSecretTag(tag)) registration.secretTag = tag;
		if (isRegistrationId(id)) registration.id = id;
		if (possiblyMade === true) registration.possiblyMade = true;
		registrations.push(registration);
	}
	const secret = layout.secret;
	return { legacySecret: isString(secret) && secret !== '' ? secret : undefined, registrations };
}

/** The trigger's entry of one node in the global static data, if any. */
function globalEntry(global: IDataObject, identity: string): unknown {
	const nodes = global[GLOBAL_KEY];
	return isObject(nodes) ? nodes[identity] : undefined;
}

/**
 * The node's state in every layout so far: its entry in the global static data, then the node's
 * own static data (the layout before issue 42, or written by a downgrade), merged.
 */
export function loadState(data: StaticData, identity: string): TriggerState {
	const held = readLayout(globalEntry(data.global, identity));
	const own = readLayout(data.node);
	mergeRegistrations(held, own.registrations);
	return { legacySecret: held.legacySecret ?? own.legacySecret, registrations: held.registrations };
}

const stored = (registration: Registration): IDataObject => ({ ...registration });

/**
 * Writes the state: the global entry (every registration), and the node's own static data (those
 * known to exist, the layout 0.1.x reads). Only what changed is written, so n8n saves static data
 * when there is something new. The global entry is written by replacing the trigger's key:
 * n8n notices a change to static data only at that depth.
 */
export function saveState(data: StaticData, identity: string, state: TriggerState): void {
	const secret = state.legacySecret === undefined ? {} : { secret: state.legacySecret };
	const entry: IDataObject = { registrations: state.registrations.map(stored), ...secret };
	if (JSON.stringify(globalEntry(data.global, identity)) !== JSON.stringify(entry)) {
		const nodes = isObject(data.global[GLOBAL_KEY]) ? (data.global[GLOBAL_KEY] as IDataObject) : {};
		data.global[GLOBAL_KEY] = { ...nodes, [identity]: entry };
	}
	const made = state.registrations.filter((registration) => registration.possiblyMade !== true).map(stored);
	const node = data.node;
	if (JSON.stringify(node.registrations) !== JSON.stringify(made)) node.registrations = made;
	if (state.legacySecret !== undefined && node.secret !== state.legacySecret) node.secret = state.legacySecret;
	if ('version' in node) delete node.version;
	if ('lastDeactivatedAt' in node) delete node.lastDeactivatedAt;
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
 * The registration of `url` and `fingerprint` whose deliveries run the workflow: the first one
 * known to exist (answered 2xx) whose deliveries the node accepts. Undefined when none is known.
 * The first, so that a process that knows more (its process record) picks what the others,
 * reading static data only, pick.
 */
export function currentRegistration(state: TriggerState, url: string, fingerprint: string): Registration | undefined {
	return state.registrations.find(
		(registration) =>
			registration.url === url &&
			registration.fingerprint === fingerprint &&
			registration.possiblyMade !== true &&
			deliveriesAccepted(state, registration),
	);
}

/**
 * Selected events that have no current registration yet: same URL and fingerprint, known to
 * exist, deliveries the node accepts. The token it was made under does not matter (its secret's
 * hash is kept).
 */
export function missingEvents(state: TriggerState, url: string, config: TriggerConfig): string[] {
	return config.events.filter((event) => currentRegistration(state, url, fingerprintOf(config, event)) === undefined);
}

/** Identifies one registration on the platform (a URL, its settings, the secret and identity it carries). */
export function registrationKey(registration: Registration): string {
	// JSON: distinct registrations never share a key (no separator to collide with); no secret is null
	return JSON.stringify([
		registration.url,
		registration.fingerprint,
		registration.secretHash ?? registration.secretTag,
		registration.id,
	]);
}

/**
 * Adds to `state` the registrations it does not hold yet (the process record's, record.ts, or the
 * other layout's); returns how many were added.
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
	id: string,
): ExtraHeader[] {
	return [
		...config.headers,
		{ key: SECRET_HEADER, value: secret },
		{ key: EVENT_HEADER, value: event },
		{ key: REGISTRATION_HEADER, value: fingerprintOf(config, event) },
		{ key: REGISTRATION_ID_HEADER, value: id },
	];
}
