/**
 * Deliveries the trigger refuses (401/400/413) or ignores (200, no execution) leave a line in
 * n8n's log, so a user can find out why a workflow never runs. Rate-limited per node with a
 * time-window counter: a flood of forged requests cannot flood the log.
 */
import type { IWebhookFunctions } from 'n8n-workflow';

import { WEBHOOK_EVENTS } from '../shared/constants';

export const LOG_WINDOW_MS = 60_000;
export const LOG_LINES_PER_WINDOW = 5;
/** Nodes tracked at once; beyond it the counters start over (bounded memory). */
const MAX_TRACKED_NODES = 1000;

interface Window {
	start: number;
	logged: number;
	suppressed: number;
}

export interface Admission {
	log: boolean;
	/** lines of this key left out in its previous window (reported with the first line of the next) */
	suppressedBefore: number;
}

/** At most `limit` lines per key per window of `windowMs`; counts the ones it leaves out. */
export class LogLimiter {
	private readonly windows = new Map<string, Window>();

	constructor(
		private readonly limit = LOG_LINES_PER_WINDOW,
		private readonly windowMs = LOG_WINDOW_MS,
	) {}

	admit(key: string, now: number): Admission {
		let window = this.windows.get(key);
		let suppressedBefore = 0;
		if (!window || now - window.start >= this.windowMs || now < window.start) {
			suppressedBefore = window?.suppressed ?? 0;
			if (!window && this.windows.size >= MAX_TRACKED_NODES) this.windows.clear();
			window = { start: now, logged: 0, suppressed: 0 };
			this.windows.set(key, window);
		}
		if (window.logged >= this.limit) {
			window.suppressed++;
			return { log: false, suppressedBefore: 0 };
		}
		window.logged++;
		return { log: true, suppressedBefore };
	}
}

const limiter = new LogLimiter();

export type Outcome = 'refused' | 'ignored';

export interface DeliveryNote {
	outcome: Outcome;
	/** HTTP status answered */
	statusCode: number;
	/** why, in words (never a header value) */
	reason: string;
	/** the event named by the delivery (header or payload), if any */
	event: string | undefined;
}

/** The event as it may appear in a log line: one of the seven kinds, nothing a sender chose. */
export function eventForLog(event: string | undefined): string {
	if (event === undefined || event === '') return 'none given';
	return WEBHOOK_EVENTS.includes(event) ? event : 'not one of the seven event kinds';
}

/** The log line; holds the node, the workflow, the reason and the event, never a header value. */
export function describeDelivery(
	context: IWebhookFunctions,
	note: DeliveryNote,
	suppressedBefore: number,
): string {
	const node = context.getNode().name;
	const workflowId = String(context.getWorkflow().id ?? '');
	const verb = note.outcome === 'refused' ? `refused a delivery (HTTP ${note.statusCode})` : 'ignored a delivery';
	const earlier =
		suppressedBefore > 0
			? ` ${suppressedBefore} more in the previous minute were not logged.`
			: '';
	return (
		`Conversation Inbox Trigger "${node}" in workflow ${workflowId} ${verb}: ${note.reason}. ` +
		`Event: ${eventForLog(note.event)}. The workflow did not run for it.${earlier}`
	);
}

/**
 * Logs one delivery the trigger refused (warn) or ignored (debug), within the rate limit.
 * Never throws: logging must not change how the delivery is answered.
 */
export function logDelivery(context: IWebhookFunctions, note: DeliveryNote, now = Date.now()): void {
	try {
		// Per node and outcome: ignored deliveries (debug) never use up the refused ones' lines.
		const key = `${note.outcome}\n${String(context.getWorkflow().id ?? '')}\n${context.getNode().name}`;
		const admission = limiter.admit(key, now);
		if (!admission.log) return;
		const line = describeDelivery(context, note, admission.suppressedBefore);
		if (note.outcome === 'refused') context.logger.warn(line);
		else context.logger.debug(line);
	} catch {
		// A missing or failing logger leaves the answer to the delivery unchanged.
	}
}
