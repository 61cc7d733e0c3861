/**
 * The invariants of issue 29, checked on what the sandbox received and what n8n gave back
 * (play.ts). Each returns the violations it found, in words, so that a failing world says what
 * went wrong, not only that something did.
 *
 * (a) never twice: a write is received again only when every earlier receipt of it was refused
 *     with an answer that says it was not done (a 4xx, a 429, or a 5xx carrying the API's own JSON
 *     error); never after a 2xx, after no answer (a reset), or after a page that is not the API's;
 * (b) never stuck: every execution ends within the bound computed from the settings (play.ts
 *     boundOf), a cancelled one within 3 s of its cancel (plus 30 ms an item and the latency of what
 *     is on the wire),
 *     and every item ends: done, or failed with a message naming the status that came (or
 *     the dropped connection when none came), or, once the API refused with a Retry-After over
 *     60 s, failed unsent because the quota is spent (DESIGN.md, decided 2026-11-26);
 * (c) a 2xx from the API to a write is done: the item is not an error, or its error says the write
 *     was done (where the output's main value, the new tag's ID, is missing) and never "may have";
 * (d) no uncaught exception, no timer or abort listener left once everything was answered.
 */
import type { RecordedRequest, ScriptedBody } from '../sandbox';
import type { ExecutionResult, Observation } from './play';
import { itemName, nameOf } from './play';
import type { World } from './world';

/** What the client got for one receipt, as the node can see it. */
interface Seen {
	status: number;
	/** the body's form (script.ts); 'handler' when the sandbox answered as usual */
	body: ScriptedBody;
	/** the scripted Retry-After, if any */
	retryAfter?: string;
}

/** The answers the world scripted and the sandbox wrote, per receipt (the sandbox's own answers are its JSON). */
function seenOf(world: World, received: RecordedRequest[]): Map<string, Seen[]> {
	const steps = new Map(world.scripts.map((script) => [itemName(script.execution, script.item), script.steps]));
	const seen = new Map<string, Seen[]>();
	for (const request of received) {
		const name = nameOf(request) ?? '';
		const list = seen.get(name) ?? [];
		const step = steps.get(name)?.[list.length];
		const body = step && (step.kind === 'refuse' || step.kind === 'done') ? step.body : 'handler';
		const retryAfter = step?.kind === 'refuse' ? step.retryAfter : undefined;
		list.push({ status: request.status, body, ...(retryAfter !== undefined && { retryAfter }) });
		seen.set(name, list);
	}
	return seen;
}

/** The API's own error body (JSON or problem+json), not a proxy's page, a text or nothing. */
const apiError = (seen: Seen): boolean => seen.body === 'handler' || seen.body === 'json' || seen.body === 'problem';

/** An answer that says the write was not done: resending it cannot do it twice. */
const saysNotDone = (seen: Seen): boolean => (seen.status >= 400 && seen.status < 500) || (seen.status >= 500 && apiError(seen));

/** A 2xx the API wrote (its JSON, or nothing): the write was done. A web page (a proxy's login) is not the API. */
const apiSuccess = (seen: Seen): boolean => seen.status >= 200 && seen.status < 300 && seen.body !== 'html' && seen.body !== 'text';

const describe = (seen: Seen): string => (seen.status === 0 ? 'no answer' : `HTTP ${seen.status}${seen.body === 'handler' ? '' : ` (${seen.body})`}`);

const DROPPED = /ECONNRESET|socket hang up|reset|connection|no answer/i;
/** A failed item's message that says the write was done (its main value missing), never that it may have been. */
const saysDone = (text: string): boolean => /\b(was|were|is) (done|carried out|created)\b|\bdone\b/i.test(text) && !/may have|not (been )?done|not carried out/i.test(text);

/** The receipts that came after the cancel of their execution. */
function afterCancel(result: ExecutionResult, execution: number, received: RecordedRequest[]): number {
	if (result.cancelledAtSeq === undefined) return 0;
	return received.filter((request) => nameOf(request)?.startsWith(`e${execution}-`) && request.seq > (result.cancelledAtSeq ?? 0)).length;
}

/** How long an execution may take to end after its cancel, beyond n8n's preparation of its items and the latency of the answers on the wire (n8n and a shared machine). */
const CANCEL_BOUND_MS = 3000;

/** The most requests the node has on the wire at once per API (pace.ts PACE.maxInFlight, 64): sent before a cancel, they may arrive after it. */
const MAX_IN_FLIGHT = 64;

/** The node's error for a send it refused itself because the API's quota is spent (transport.ts): never sent. */
const QUOTA_SPENT = /The API asked to wait \d+ s \(until [^)]* UTC\) and accepted nothing since: not sent/;

/** The longest Retry-After the node waits (retry.ts maxRetryAfterMs): a longer one may show the quota spent. */
const CEILING_S = 60;

export function violations(world: World, observed: Observation): string[] {
	const found: string[] = [];
	const seen = seenOf(world, observed.received);
	// Once the API refused with a Retry-After over the ceiling, an item may fail unsent, saying so.
	const quotaMayBeSpent = [...seen.values()].some((answers) => answers.some((answer) => answer.status === 429 && Number(answer.retryAfter) > CEILING_S));
	const unsentForQuota = (text: string): boolean => quotaMayBeSpent && QUOTA_SPENT.test(text);

	// (a) never twice
	for (const [name, answers] of seen) {
		answers.slice(1).forEach((_answer, index) => {
			const before = answers.slice(0, index + 1);
			if (!before.every(saysNotDone)) {
				found.push(`(a) ${name} received ${answers.length} times; receipt ${index + 2} came after ${before.map(describe).join(', ')}`);
			}
		});
	}

	// (b) never stuck: the executions
	if (observed.tookMs === undefined) found.push(`(b) not every execution ended within ${observed.boundMs} ms`);

	world.executions.forEach((plan, execution) => {
		const result = observed.executions[execution];
		if (result.cancelledAtSeq !== undefined) {
			const late = afterCancel(result, execution, observed.received);
			if (late > MAX_IN_FLIGHT) found.push(`(b) execution ${execution}: ${late} writes arrived after its cancel`);
			// A cancel ends every wait at once: only the answers on the wire are left to come.
			// n8n prepares every item of the execution before the node's run can end (30 ms an item, as in boundOf).
			const bound = CANCEL_BOUND_MS + plan.items * 30 + world.latencyMs + Math.max(0, ...world.scripts.flatMap((script) => script.steps.map((step) => step.latencyMs)));
			if (result.endedAfterCancelMs === undefined || result.endedAfterCancelMs > bound) found.push(`(b) execution ${execution} did not end within ${bound} ms of its cancel`);
			return;
		}
		if (observed.tookMs === undefined) return;
		const lastOf = (item: number): Seen | undefined => seen.get(itemName(execution, item))?.at(-1);
		if (result.error) {
			// The node stopped the workflow: one error, for an item that did not get the API's 2xx.
			const { itemIndex, text } = result.error;
			if (itemIndex !== undefined && !unsentForQuota(text)) {
				const last = lastOf(itemIndex);
				if (last && apiSuccess(last) && !saysDone(text)) found.push(`(c) execution ${execution} stopped on item ${itemIndex}, which the API answered HTTP ${last.status}: ${text}`);
				else if (last && last.status > 0 && !text.includes(`HTTP ${last.status}`)) found.push(`(b) execution ${execution} stopped on item ${itemIndex} without naming the HTTP ${last.status} that came: ${text}`);
				else if (last && last.status === 0 && !DROPPED.test(text)) found.push(`(b) execution ${execution} stopped on item ${itemIndex}, whose connection dropped, without saying so: ${text}`);
			}
			return;
		}
		// N items in, N results out.
		const byItem = new Map(result.items.map((entry) => [entry.item, entry]));
		if (result.items.length !== plan.items || byItem.size !== plan.items) found.push(`(b) execution ${execution}: ${plan.items} items in, ${result.items.length} results out`);
		for (let item = 0; item < plan.items; item++) {
			const entry = byItem.get(item);
			const last = lastOf(item);
			const name = itemName(execution, item);
			if (!entry) continue;
			if (entry.failed && unsentForQuota(JSON.stringify(entry.json))) continue;
			if (!last) {
				if (entry.failed) found.push(`(b) ${name} failed without the API being asked: ${JSON.stringify(entry.json)}`);
				else found.push(`(b) ${name} reported done, but the API never received it`);
				continue;
			}
			const text = JSON.stringify(entry.json);
			if (apiSuccess(last)) {
				if (entry.failed && !saysDone(text)) found.push(`(c) ${name}: the API answered HTTP ${last.status}, the item failed: ${text}`);
				continue;
			}
			if (!entry.failed) {
				found.push(`(b) ${name} reported done, but the API's last answer was ${last.status === 0 ? 'none' : `HTTP ${last.status}`}`);
				continue;
			}
			if (last.status > 0 && !text.includes(`HTTP ${last.status}`)) found.push(`(b) ${name} failed without naming the HTTP ${last.status} that came: ${text}`);
			if (last.status === 0 && !DROPPED.test(text)) found.push(`(b) ${name} failed without saying the connection dropped: ${text}`);
		}
	});

	// (d) nothing left behind
	for (const error of observed.uncaught) found.push(`(d) uncaught: ${error.split('\n').slice(0, 3).join(' | ')}`);
	if (observed.timersLeft > 0) found.push(`(d) ${observed.timersLeft} timer(s) left pending`);
	observed.executions.forEach((result, execution) => {
		if (result.listenersLeft > 0) found.push(`(d) execution ${execution}: ${result.listenersLeft} abort listener(s) left on its signal`);
	});
	return found;
}
