/* eslint-disable -- development tooling, not shipped: n8n's node rules (eslint.config.mjs, n8n-node lint) are for nodes/ and credentials/ */
import { badRequest } from './errors';
import type { SandboxState } from './state';
import type { Timers } from './timers';
import type { EventType, MessageTransferType, TransferType, Webhook, WebhookMethod } from './types';

/**
 * Webhook deliveries. The spec does not show the payload, so the sandbox sends:
 *
 *   { event: <webhook type>, integrationId, timestamp: <ISO time of the event>, data: {...} }
 *
 * as a JSON body (content-type: application/json) for POST, PUT, PATCH and DELETE. For GET the four
 * top-level fields go in the query string instead (`data` JSON-encoded) and there is no body. The
 * webhook's extra headers are added to every request (they override ours on a name clash).
 *
 * `data` per event: messages (MESSAGE_*, FIRST_MESSAGE_RECEIVED) carry `{message, chat, contact,
 * firstMessage}`; CONNECTION_STATUS_UPDATE carries `{connectionStatus, previousStatus, integration}`;
 * SERVICE_CONTINUITY_VERIFICATION carries `{chat}` (null when no chat was named).
 *
 * A delivery fires after delayMinutes × minuteMs (immediately when 0) and is attempted once (no
 * retries), with a timeout. Transfer-type filters apply to message events only: ALL lets every
 * message through, USER/AUTOMATION/API their own kind, AUTOMATION_AND_API automation or API messages.
 *
 * What a platform that retries does is switched on with `DeliverySwitches` (sandbox
 * `setDeliverySwitches`, control `POST /_sandbox/delivery-switches`): a duplicate of every delivery,
 * a retry of a slow answer, the kinds of one occurrence one after another, and payloads that keep
 * the message's ID elsewhere, or none, or no time.
 */

/**
 * How the platform delivers, beyond once per registration (issue 45). A redelivery is the same
 * request again: the same body (its timestamp included) and headers, recorded as its own Delivery.
 */
export interface DeliverySwitches {
	/** every delivery is sent a second time, `afterMs` after the first one's answer */
	duplicate?: { afterMs: number };
	/** a delivery answered slower than `slowerThanMs`, or not at all, is sent once more at once */
	retrySlow?: { slowerThanMs: number };
	/** the kinds of one occurrence are delivered one after another, this far apart (default: together) */
	kindsApartMs?: number;
	/** the message's ID in the payload: `data.message.id` (default `'id'`), another name in `data.message`, or none (`null`) */
	messageIdField?: string | null;
	/** false: no time in the payload (no `timestamp`, no message `createdAt`) */
	timestamp?: boolean;
}

/** Checks switches given as JSON (control endpoint) or in code; `{}` = none. */
export function parseDeliverySwitches(value: unknown): DeliverySwitches {
	const fail = (what: string): never => {
		throw badRequest(`delivery switches: ${what}`);
	};
	if (value === null || typeof value !== 'object' || Array.isArray(value)) fail('must be an object');
	const given = value as Record<string, unknown>;
	const known = ['duplicate', 'retrySlow', 'kindsApartMs', 'messageIdField', 'timestamp'];
	for (const key of Object.keys(given)) if (!known.includes(key)) fail(`unknown switch ${key} (known: ${known.join(', ')})`);
	const ms = (raw: unknown, name: string): number =>
		typeof raw === 'number' && Number.isInteger(raw) && raw >= 0 && raw <= 600_000 ? raw : fail(`${name} must be a whole number of ms, 0 to 600000`);
	const switches: DeliverySwitches = {};
	if (given.duplicate !== undefined) switches.duplicate = { afterMs: ms((given.duplicate as { afterMs?: unknown } | null)?.afterMs, 'duplicate.afterMs') };
	if (given.retrySlow !== undefined) switches.retrySlow = { slowerThanMs: ms((given.retrySlow as { slowerThanMs?: unknown } | null)?.slowerThanMs, 'retrySlow.slowerThanMs') };
	if (given.kindsApartMs !== undefined) switches.kindsApartMs = ms(given.kindsApartMs, 'kindsApartMs');
	if (given.messageIdField !== undefined) {
		const field = given.messageIdField;
		if (field !== null && (typeof field !== 'string' || !/^[A-Za-z_][A-Za-z0-9_]{0,63}$/.test(field))) fail('messageIdField must be a field name or null');
		switches.messageIdField = field as string | null;
	}
	if (given.timestamp !== undefined) {
		if (typeof given.timestamp !== 'boolean') fail('timestamp must be true or false');
		switches.timestamp = given.timestamp as boolean;
	}
	return switches;
}

/** The payload as the switches shape it: the message's ID moved or removed, the time removed. */
function shapePayload(payload: Record<string, unknown>, switches: DeliverySwitches): Record<string, unknown> {
	const field = switches.messageIdField === undefined ? 'id' : switches.messageIdField;
	const noTime = switches.timestamp === false;
	if (field === 'id' && !noTime) return payload;
	const data = { ...(payload.data as Record<string, unknown>) };
	const message = data.message;
	if (message && typeof message === 'object') {
		const { id, createdAt, ...rest } = message as Record<string, unknown>;
		data.message = { ...(field === null ? {} : { [field]: id }), ...rest, ...(noTime ? {} : { createdAt }) };
	}
	const shaped: Record<string, unknown> = { ...payload, data };
	if (noTime) delete shaped.timestamp;
	return shaped;
}
export interface Delivery {
	webhookId: string;
	event: EventType;
	integrationId: string;
	/** the URL requested (for GET including the payload query) */
	url: string;
	method: WebhookMethod;
	/** headers sent, names lower-cased */
	headers: Record<string, string>;
	/** the JSON payload sent, undefined for GET */
	body: unknown;
	/** query parameters of the requested URL */
	query: Record<string, string>;
	/** HTTP status of the receiver's answer; absent when the request failed */
	status?: number;
	/** why the request failed (connection refused, timeout, ...) */
	error?: string;
	/** first 2 000 characters of the receiver's answer */
	responseBody?: string;
	/** epoch ms of the event that caused the delivery */
	scheduledAt: number;
	/** epoch ms when the request was sent */
	at: number;
	durationMs: number;
	/** a redelivery (DeliverySwitches): why it was sent again */
	redelivery?: 'duplicate' | 'retry';
}

export interface WebhookEvent {
	integrationId: string;
	/** every event kind this occurrence counts as (e.g. MESSAGE_RECEIVED and MESSAGE_SENT_AND_RECEIVED) */
	events: readonly EventType[];
	/** who caused it; null for events that are not transfers (no transfer-type filtering) */
	transferType: MessageTransferType | null;
	data: Record<string, unknown>;
}

export function transferTypeMatches(filter: TransferType, actual: MessageTransferType | null): boolean {
	if (actual === null || filter === 'ALL') return true;
	if (filter === 'AUTOMATION_AND_API') return actual === 'AUTOMATION' || actual === 'API';
	return filter === actual;
}

export interface DispatcherDeps {
	state: () => SandboxState;
	deliveries: Delivery[];
	timers: Timers;
	minuteMs: number;
	timeoutMs: number;
	/** aborted when the sandbox closes */
	signal: AbortSignal;
}

export class WebhookDispatcher {
	private readonly waiters = new Set<() => void>();
	/** how the platform delivers beyond once per registration; `{}` = once */
	switches: DeliverySwitches = {};

	constructor(private readonly deps: DispatcherDeps) {}

	/**
	 * Fires the matching webhooks; resolves with the immediate deliveries once they are done (with
	 * `kindsApartMs`, one after another). Redeliveries (`duplicate`, `retrySlow`) are recorded in
	 * `deliveries` when done, not waited for here.
	 */
	emit(event: WebhookEvent): Promise<Delivery[]> {
		const scheduledAt = Date.now();
		const switches = this.switches;
		const payload = shapePayload(
			{
				integrationId: event.integrationId,
				timestamp: new Date(scheduledAt).toISOString(),
				data: event.data,
			},
			switches,
		);
		const immediate: Array<Promise<Delivery>> = [];
		for (const hook of this.deps.state().webhooks.values()) {
			if (hook.integrationId !== event.integrationId || !event.events.includes(hook.type)) continue;
			if (!transferTypeMatches(hook.transferType, event.transferType)) continue;
			// The registration as it was when the event happened.
			const registration: Webhook = { ...hook, headers: hook.headers.map((h) => ({ ...h })) };
			const body = { event: hook.type, ...payload };
			const delayMs = hook.delayMinutes * this.deps.minuteMs;
			const apartMs = (switches.kindsApartMs ?? 0) * immediate.length;
			const send = (): Promise<Delivery> => this.deliverWithRedeliveries(registration, body, scheduledAt, switches);
			if (delayMs <= 0) immediate.push(apartMs > 0 ? this.deps.timers.sleep(apartMs).then(send) : send());
			else this.deps.timers.set(() => void send(), delayMs + apartMs);
		}
		return Promise.all(immediate);
	}

	/** One delivery, then the redeliveries its switches ask for (each recorded on its own). */
	private async deliverWithRedeliveries(hook: Webhook, payload: Record<string, unknown>, scheduledAt: number, switches: DeliverySwitches): Promise<Delivery> {
		const first = await this.deliver(hook, payload, scheduledAt);
		const { retrySlow, duplicate } = switches;
		if (retrySlow && (first.status === undefined || first.durationMs > retrySlow.slowerThanMs)) {
			void this.deliver(hook, payload, scheduledAt, 'retry');
		}
		if (duplicate) this.deps.timers.set(() => void this.deliver(hook, payload, scheduledAt, 'duplicate'), duplicate.afterMs);
		return first;
	}

	/** Resolves once at least `count` deliveries are recorded (rejects after timeoutMs). */
	waitFor(count: number, timeoutMs: number): Promise<Delivery[]> {
		const { deliveries } = this.deps;
		if (deliveries.length >= count) return Promise.resolve([...deliveries]);
		return new Promise((resolve, reject) => {
			const timer = setTimeout(() => {
				this.waiters.delete(check);
				reject(new Error(`timed out after ${timeoutMs} ms waiting for ${count} deliveries (have ${deliveries.length})`));
			}, timeoutMs);
			const check = (): void => {
				if (deliveries.length < count) return;
				clearTimeout(timer);
				this.waiters.delete(check);
				resolve([...deliveries]);
			};
			this.waiters.add(check);
		});
	}

	private async deliver(hook: Webhook, payload: Record<string, unknown>, scheduledAt: number, redelivery?: Delivery['redelivery']): Promise<Delivery> {
		const target = new URL(hook.url);
		const headers: Record<string, string> = {};
		let body: string | undefined;
		if (hook.method === 'GET') {
			for (const [key, value] of Object.entries(payload)) {
				target.searchParams.set(key, typeof value === 'string' ? value : JSON.stringify(value));
			}
		} else {
			headers['content-type'] = 'application/json';
			body = JSON.stringify(payload);
		}
		for (const h of hook.headers) headers[h.key.toLowerCase()] = h.value;

		const record: Delivery = {
			webhookId: hook.id,
			event: hook.type,
			integrationId: hook.integrationId,
			url: target.toString(),
			method: hook.method,
			headers,
			body: body === undefined ? undefined : payload,
			query: Object.fromEntries(target.searchParams.entries()),
			scheduledAt,
			at: Date.now(),
			durationMs: 0,
			...(redelivery && { redelivery }),
		};
		try {
			const res = await fetch(target, {
				method: hook.method,
				headers,
				body,
				redirect: 'manual',
				signal: AbortSignal.any([AbortSignal.timeout(this.deps.timeoutMs), this.deps.signal]),
			});
			record.status = res.status;
			record.responseBody = (await res.text()).slice(0, 2000);
		} catch (error) {
			record.error = describeError(error);
		}
		record.durationMs = Date.now() - record.at;
		this.deps.deliveries.push(record);
		for (const waiter of [...this.waiters]) waiter();
		return record;
	}
}

function describeError(error: unknown): string {
	if (!(error instanceof Error)) return String(error);
	const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
	return `${error.name === 'TimeoutError' ? 'timeout' : error.message}${cause}`;
}
