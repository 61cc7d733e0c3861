/**
 * One execution per message (trigger version 4, issue 45): which deliveries carry the same message
 * or event, and the memory of those that started the workflow.
 *
 * One message reaches the trigger several times: under each selected event kind it counts as (an
 * inbound first message is Message Received, Message Sent and Received and First Message Received:
 * one registration each), and again whenever the platform redelivers (after a slow or lost answer).
 * The API does not document the payload, so a delivery is matched by what it carries:
 *
 * - **the message's ID** (message events): at the path the user names (option Message ID Field), or
 *   the first of MESSAGE_ID_PATHS the payload has. Deliveries with the same ID on the same
 *   integration are one message within the window (default 10 minutes), whatever their kind;
 * - **a delivery ID** the payload or a header carries (DELIVERY_ID_PATHS, DELIVERY_ID_HEADERS):
 *   the same ID is the same delivery, within the window;
 * - otherwise **the body itself**, only when it carries a time (TIME_PATHS): the same body (its
 *   time included, its event kind left out) within EXACT_WINDOW_MS is the same delivery again. Two
 *   "connected" updates a minute apart are two events; a body without a time or ID is never taken
 *   for a redelivery.
 *
 * The memory lives in the process that answers the webhook (a module-level map): bounded in
 * entries (MAX_ENTRIES, the oldest dropped first) and in time (an entry counts until its window
 * ends; it is dropped by a later delivery once the entries before it are, so memory holds at most
 * the longest window in use). Times are monotonic (clock.ts). In queue mode with several webhook
 * processes, a redelivery can reach another process: the README shows n8n's Remove Duplicates node
 * keyed by the item's `messageKey` for that.
 */
import { createHash, randomBytes } from 'crypto';
import type { IDataObject } from 'n8n-workflow';

import type { Headers } from './delivery';

/** The window of a message or delivery ID when the user sets none, in minutes. */
export const DEFAULT_WINDOW_MINUTES = 10;
/** The window of a body matched as it is (no ID): an exact redelivery comes within seconds. */
export const EXACT_WINDOW_MS = 30_000;
/** Deliveries remembered at most, all nodes of the process together. */
export const MAX_ENTRIES = 50_000;

/** Where payloads keep the message's ID, in the order they are tried. */
export const MESSAGE_ID_PATHS = ['data.message.id', 'data.message.messageId', 'data.messageId', 'message.id', 'messageId'];
/** Where payloads keep an ID of the delivery (or of the event it reports). */
export const DELIVERY_ID_PATHS = ['deliveryId', 'eventId', 'data.deliveryId', 'data.eventId'];
export const DELIVERY_ID_HEADERS = ['x-delivery-id', 'x-event-id', 'idempotency-key'];
/** Where payloads keep the time of the event: a body with one of them can be matched as it is. */
export const TIME_PATHS = ['timestamp', 'createdAt', 'data.timestamp', 'data.createdAt', 'data.message.createdAt'];

/** The event kinds that carry a message. */
const MESSAGE_EVENTS = ['MESSAGE_SENT_AND_RECEIVED', 'MESSAGE_SENT', 'MESSAGE_RECEIVED', 'FIRST_MESSAGE_RECEIVED', 'MESSAGE_IN_SERVICE'];

const isObject = (value: unknown): value is IDataObject => !!value && typeof value === 'object' && !Array.isArray(value);

/** The value at a dot path (`data.message.id`), if any. */
export function valueAtPath(payload: unknown, path: string): unknown {
	let value: unknown = payload;
	for (const key of path.split('.')) {
		if (!isObject(value)) return undefined;
		value = value[key];
	}
	return value;
}

/** An ID: a text that is not empty, or a finite number. */
function idAt(payload: unknown, path: string): string | undefined {
	const value = valueAtPath(payload, path);
	if (typeof value === 'string' && value.trim() !== '') return value;
	if (typeof value === 'number' && Number.isFinite(value)) return String(value);
	return undefined;
}

/** How a delivery is matched with the ones before it. */
export interface DeliveryKey {
	/** `message` (its ID), `delivery` (a delivery ID), `body` (the body with its time) */
	by: 'message' | 'delivery' | 'body';
	/** the same for every delivery of one message (or of one delivery) */
	key: string;
	windowMs: number;
}

export interface MatchOptions {
	integrationId: string;
	/** the user's Message ID Field; empty: MESSAGE_ID_PATHS */
	messageIdField?: string;
	windowMinutes: number;
}

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

/** JSON with keys sorted at every level: the same object always gives the same text. */
function canonical(value: unknown): string {
	if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
	if (isObject(value)) {
		const keys = Object.keys(value).sort();
		return `{${keys.map((key) => `${JSON.stringify(key)}:${canonical(value[key])}`).join(',')}}`;
	}
	return JSON.stringify(value);
}

/** The body without the event kind it names at its top (each kind's copy of one event names its own). */
function withoutKind(payload: IDataObject): IDataObject {
	const copy = { ...payload };
	delete copy.event;
	delete copy.type;
	return copy;
}

/**
 * How to recognise this delivery again, or undefined when nothing can: a message event without an
 * ID, a delivery ID or a time is never matched (two different messages may look the same).
 */
export function deliveryKey(event: string, payload: unknown, headers: Headers, options: MatchOptions): DeliveryKey | undefined {
	const windowMs = options.windowMinutes * 60_000;
	const scope = options.integrationId;
	if (MESSAGE_EVENTS.includes(event)) {
		const field = options.messageIdField?.trim();
		const paths = field ? [field] : MESSAGE_ID_PATHS;
		for (const path of paths) {
			const id = idAt(payload, path);
			if (id !== undefined) return { by: 'message', key: `message:${scope}:${id}`, windowMs };
		}
	}
	for (const path of DELIVERY_ID_PATHS) {
		const id = idAt(payload, path);
		if (id !== undefined) return { by: 'delivery', key: `delivery:${scope}:${id}`, windowMs };
	}
	for (const name of DELIVERY_ID_HEADERS) {
		const id = headers[name];
		if (typeof id === 'string' && id.trim() !== '') return { by: 'delivery', key: `delivery:${scope}:${id}`, windowMs };
	}
	if (!isObject(payload) || !TIME_PATHS.some((path) => valueAtPath(payload, path) !== undefined)) return undefined;
	return { by: 'body', key: `body:${scope}:${sha256(canonical(withoutKind(payload)))}`, windowMs: EXACT_WINDOW_MS };
}

/**
 * The selected event kinds one message counts as, as far as its delivery tells (the overlaps the
 * platform documents in its event list): the kind it came as; Message Received or Message Sent by
 * its direction; Message Sent and Received for any message; First Message Received when it says it
 * is the first; Message in Service when its chat is in attendance. In the order of `selected`.
 */
export function eventsOfMessage(event: string, payload: unknown, selected: string[]): string[] {
	const kinds = new Set([event]);
	if (MESSAGE_EVENTS.includes(event)) {
		kinds.add('MESSAGE_SENT_AND_RECEIVED');
		const direction = valueAtPath(payload, 'data.message.direction');
		const fromMe = valueAtPath(payload, 'data.message.fromMe');
		if (direction === 'inbound' || fromMe === false) kinds.add('MESSAGE_RECEIVED');
		if (direction === 'outbound' || fromMe === true) kinds.add('MESSAGE_SENT');
		if (valueAtPath(payload, 'data.firstMessage') === true) kinds.add('FIRST_MESSAGE_RECEIVED');
		if (valueAtPath(payload, 'data.chat.category') === 'attendance') kinds.add('MESSAGE_IN_SERVICE');
	}
	return selected.filter((kind) => kinds.has(kind));
}

/** The key of a delivery nothing can recognise: its own, so that no other is taken for it. */
export function uniqueKey(): string {
	return `unique:${randomBytes(16).toString('hex')}`;
}

/**
 * Deliveries that started the workflow: the SHA-256 of the node's identity and the key (128 bits,
 * 22 base64 characters: a third of the key's own size) → the end of its window.
 */
const remembered = new Map<string, number>();

/** Drops the entries whose window ended, oldest first, and the oldest beyond MAX_ENTRIES. */
function sweep(now: number): void {
	for (const [key, until] of remembered) {
		if (until > now && remembered.size <= MAX_ENTRIES) break;
		remembered.delete(key);
	}
}

/**
 * True when `key` started the workflow within its window (a duplicate: run nothing); otherwise
 * remembers it and answers false. Synchronous: two deliveries handled at once cannot both pass.
 */
export function seenBefore(node: string, key: DeliveryKey, now: number): boolean {
	const entry = createHash('sha256').update(`${node}\n${key.key}`).digest('base64').slice(0, 22);
	const until = remembered.get(entry);
	if (until !== undefined && until > now) return true;
	remembered.delete(entry);
	remembered.set(entry, now + key.windowMs);
	sweep(now);
	return false;
}

/** Entries held now (for the memory figures and tests). */
export function rememberedCount(): number {
	return remembered.size;
}

/** Forgets everything (tests). */
export function forgetDeliveries(): void {
	remembered.clear();
}
