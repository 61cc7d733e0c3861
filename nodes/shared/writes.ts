import { createHash } from 'crypto';
import type { IDataObject } from 'n8n-workflow';

import { monotonicNow } from './clock';

/**
 * Never twice (DESIGN.md, "Never twice"): n8n's Retry On Fail re-runs the whole node with the same
 * execution, node, run index and items. Every write of that node (each item) would be sent again,
 * also those the API already carried out. So the one request path (transport.ts) asks this memory
 * before it sends a write, and tells it how the write ended:
 * - accepted (any 2xx that does not say `success: false`): a retry gets the same result, unsent;
 * - unknown (sent, then no answer, a 5xx, a page that is not the API's): a retry fails, unsent,
 *   saying why (the API may have done it);
 * - not done (refused: 4xx, 429, `success: false`; or it never left): forgotten, a retry sends it.
 * A write still in flight when a retry asks is waited for. Reads (GET) never come here.
 *
 * One entry per execution, node, run, item and request (a hash of method, address, query, body:
 * the token is never part of it, and nothing of the request is kept). Bounded: at most MAX_WRITES
 * entries (the oldest go first) and each for EXPIRY_MS, both checked when a write comes (no timer).
 */

/** How one write ended, as far as sending it again is concerned. */
export type WriteOutcome =
	/** the API said done: `result` is what the request path gave (its value, or its error) */
	| { kind: 'accepted'; result: { ok: true; value: IDataObject } | { ok: false; error: Error } }
	/** it may have been carried out: `error` is the first try's */
	| { kind: 'unknown'; error: Error }
	/** refused, or never left: `error` is what the user sees */
	| { kind: 'notDone'; error: Error };

/** The places of one write: the same on every try of n8n's Retry On Fail. */
export interface WriteScope {
	execution: string;
	node: string;
	run: number;
	item: number;
}

/** What was sent: its hash tells a changed request (an expression's new value) from the same one. */
export interface SentWrite {
	method: string;
	baseURL?: string;
	url: string;
	qs?: unknown;
	body?: unknown;
}

/** Entries kept at most (about 0.5 kB each with a small result). */
export const MAX_WRITES = 20_000;
/** How long an entry is kept: longer than any run of one node that Retry On Fail repeats. */
export const EXPIRY_MS = 60 * 60 * 1000;

interface Entry {
	expires: number;
	outcome: Promise<WriteOutcome>;
}

const memory = new Map<string, Entry>();

/** JSON with the keys of every object sorted, so the same request always hashes the same. */
function canonical(value: unknown): string {
	if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
	if (value !== null && typeof value === 'object') {
		const entries = Object.entries(value as Record<string, unknown>)
			.filter(([, inner]) => inner !== undefined)
			.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
		return `{${entries.map(([key, inner]) => `${JSON.stringify(key)}:${canonical(inner)}`).join(',')}}`;
	}
	return JSON.stringify(value) ?? 'undefined';
}

function keyOf(scope: WriteScope, sent: SentWrite): string {
	const hash = createHash('sha256')
		.update(canonical([sent.method.toUpperCase(), sent.baseURL ?? '', sent.url, sent.qs ?? {}, sent.body ?? null]))
		.digest('hex');
	return canonical([scope.execution, scope.node, scope.run, scope.item, hash]);
}

/** Drops expired entries (the oldest first: entries are kept in the order they came). */
function prune(now: number): void {
	for (const [key, entry] of memory) {
		if (entry.expires > now && memory.size <= MAX_WRITES) break;
		memory.delete(key);
	}
}

/**
 * The write's outcome in this execution: from memory when an earlier try of this node sent the same
 * request for the same item (accepted or unknown), else `send`'s, remembered for a later try.
 */
export async function writeOnce(
	scope: WriteScope,
	sent: SentWrite,
	send: () => Promise<WriteOutcome>,
	// Monotonic: a wall clock stepped forward would expire a done write, and a retry resend it.
	now: number = monotonicNow(),
): Promise<{ outcome: WriteOutcome; remembered: boolean }> {
	prune(now);
	const key = keyOf(scope, sent);
	const earlier = memory.get(key);
	if (earlier !== undefined && earlier.expires > now) {
		// A failure of the earlier try's own path (not an answer) leaves it to this try.
		const outcome = await earlier.outcome.catch((): WriteOutcome | undefined => undefined);
		if (outcome !== undefined && outcome.kind !== 'notDone') return { outcome, remembered: true };
	}
	const outcome = send();
	const entry: Entry = { expires: now + EXPIRY_MS, outcome };
	memory.delete(key);
	memory.set(key, entry);
	let settled: WriteOutcome | undefined;
	try {
		settled = await outcome;
		return { outcome: settled, remembered: false };
	} finally {
		// Refused, never left (or the path itself failed): nothing to remember, a retry sends it again.
		if ((settled === undefined || settled.kind === 'notDone') && memory.get(key) === entry) memory.delete(key);
	}
}

/** Entries held now (for tests of the bound). */
export function rememberedWrites(): number {
	return memory.size;
}
