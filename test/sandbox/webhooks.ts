/* eslint-disable -- development tooling, not shipped: n8n's node rules (eslint.config.mjs, n8n-node lint) are for nodes/ and credentials/ */
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
 */
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

	constructor(private readonly deps: DispatcherDeps) {}

	/** Fires the matching webhooks; resolves with the immediate deliveries once they are done. */
	emit(event: WebhookEvent): Promise<Delivery[]> {
		const scheduledAt = Date.now();
		const payload = {
			integrationId: event.integrationId,
			timestamp: new Date(scheduledAt).toISOString(),
			data: event.data,
		};
		const immediate: Array<Promise<Delivery>> = [];
		for (const hook of this.deps.state().webhooks.values()) {
			if (hook.integrationId !== event.integrationId || !event.events.includes(hook.type)) continue;
			if (!transferTypeMatches(hook.transferType, event.transferType)) continue;
			// The registration as it was when the event happened.
			const registration: Webhook = { ...hook, headers: hook.headers.map((h) => ({ ...h })) };
			const body = { event: hook.type, ...payload };
			const delayMs = hook.delayMinutes * this.deps.minuteMs;
			if (delayMs <= 0) immediate.push(this.deliver(registration, body, scheduledAt));
			else this.deps.timers.set(() => void this.deliver(registration, body, scheduledAt), delayMs);
		}
		return Promise.all(immediate);
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

	private async deliver(hook: Webhook, payload: Record<string, unknown>, scheduledAt: number): Promise<Delivery> {
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
