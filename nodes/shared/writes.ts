import { createHash } from 'crypto';
import type { IDataObject } from 'n8n-workflow';

import { monotonicNow } from './clock';

/**
 * Never twice (DESIGN.md, "Never twice", amended 2026-11-26): n8n's Retry On Fail re-runs the whole
 * node with the same execution, node, run index and items. Every write of that node (each item)
 * would be sent again, also those the API already carried out. So the one request path
 * (transport.ts) asks this memory before it sends a write, and tells it how the write ended:
 * - accepted (any 2xx that does not say `success: false`): a retry gets the same result, unsent;
 * - unknown (sent, then no answer, a 5xx, a page that is not the API's): a retry fails, unsent,
 *   saying why (the API may have done it);
 * - not done (refused: 4xx, 429, `success: false`; or it never left): forgotten, a retry sends it.
 * A write still in flight when a retry asks is waited for. Reads (GET) never come here.
 *
 * What is held, and for how long (the README's "Retry On Fail" says the same to users):
 * - One memory per node run (execution, node, run index): one execution never evicts another's.
 * - A run's memory lives until `limits.runIdleMs` after its LAST activity (a write asked about or
 *   answered), not after each write: a run of many hours keeps its first write. n8n waits at most
 *   5 s between tries, so a run idle that long can no longer be retried. A run with a write on the
 *   wire is never dropped. Checked when a write comes (no timer).
 * - The FACT that a write was done (or may have been) is kept for the run's whole life, whatever
 *   the size: about 180 bytes a write, measured by scripts/tools/never-twice-at-size.ts (its item, a
 *   128-bit hash of the request; nothing of the request itself, never the token).
 * - Its ANSWER (what the retried item shows) is kept for at most `limits.maxAnswers` writes of the
 *   whole process, the oldest forgotten first. A retried item whose answer was forgotten says that
 *   the write was done on an earlier try, without the result; it is never sent again.
 * - A restart of n8n forgets everything: a retry is a new execution then anyway.
 */

/** How one write ended, as far as sending it again is concerned. */
export type WriteOutcome =
	/** the API said done: `result` is what the request path gave (its value, or its error) */
	| { kind: 'accepted'; result: { ok: true; value: IDataObject } | { ok: false; error: Error } }
	/** it may have been carried out: `error` is the first try's */
	| { kind: 'unknown'; error: Error }
	/** refused, or never left: `error` is what the user sees */
	| { kind: 'notDone'; error: Error };

/** What a retry learns of an earlier try's write whose answer is no longer held. */
export type ForgottenOutcome = { kind: 'accepted' | 'unknown'; forgotten: true };

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

/**
 * The memory's bounds. Shipped values; the tests lower them to reach every bound with few writes
 * (nothing else changes them).
 */
export const limits = {
	/** answers held at most in the process (about 0.9 kB each for a Remove From Contact answer, measured) */
	maxAnswers: 20_000,
	/** how long a node run's memory outlives its last activity */
	runIdleMs: 60 * 60 * 1000,
};

/** The shipped bounds, for the README and the tests that state them. */
export const SHIPPED_LIMITS = Object.freeze({ ...limits });

/** A write on the wire: a retry that asks waits for it. */
interface Pending {
	promise: Promise<WriteOutcome>;
}

/** One write's memory: on the wire, settled with its answer, or only the fact (its kind). */
type Held = Pending | WriteOutcome | 'accepted' | 'unknown';

interface RunMemory {
	/** its key in `runs` */
	key: string;
	lastActive: number;
	/** writes on the wire */
	pending: number;
	/** item + request hash → what is held */
	writes: Map<string, Held>;
}

/** Node runs, least recently active first (an active run is moved to the end). */
const runs = new Map<string, RunMemory>();
/** The answers held, oldest first (a Map keeps its insertion order): run key + write key → both. */
const answers = new Map<string, [RunMemory, string]>();

/** JSON with the keys of every object sorted, so the same request always hashes the same. */
function canonical(value: unknown): string {
	if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
	if (value !== null && typeof value === 'object') {
		const object = value as Record<string, unknown>;
		const keys = Object.keys(object).filter((key) => object[key] !== undefined).sort();
		return `{${keys.map((key) => `${JSON.stringify(key)}:${canonical(object[key])}`).join(',')}}`;
	}
	return JSON.stringify(value) ?? 'undefined';
}

function runKeyOf(scope: WriteScope): string {
	return JSON.stringify([scope.execution, scope.node, scope.run]);
}

/** The item and a 128-bit hash of the request (its method as transport.ts gives it, upper case). */
function writeKeyOf(scope: WriteScope, sent: SentWrite): string {
	const hash = createHash('sha256')
		.update(canonical([sent.method, sent.baseURL ?? '', sent.url, sent.qs ?? {}, sent.body ?? null]))
		.digest('base64')
		.slice(0, 22);
	return `${scope.item} ${hash}`;
}

const answerKeyOf = (run: RunMemory, key: string): string => `${run.key}\n${key}`;

/** Drops the runs idle for longer than `runIdleMs` (none with a write on the wire), answers and all. */
function dropIdleRuns(now: number): void {
	for (const [key, run] of runs) {
		if (run.lastActive + limits.runIdleMs > now) break;
		if (run.pending > 0) continue;
		runs.delete(key);
		for (const writeKey of run.writes.keys()) answers.delete(answerKeyOf(run, writeKey));
	}
}

/** The run's memory, made the most recently active. */
function touch(key: string, now: number): RunMemory {
	let run = runs.get(key);
	if (run === undefined) run = { key, lastActive: now, pending: 0, writes: new Map() };
	else runs.delete(key);
	run.lastActive = now;
	runs.set(key, run);
	return run;
}

/** Keeps a settled write's answer; past `maxAnswers`, the oldest answers become bare facts. */
function holdAnswer(run: RunMemory, key: string, outcome: WriteOutcome): void {
	run.writes.set(key, outcome);
	answers.set(answerKeyOf(run, key), [run, key]);
	for (const [answerKey, [oldRun, oldKey]] of answers) {
		if (answers.size <= limits.maxAnswers) break;
		answers.delete(answerKey);
		// A held answer is returned, never replaced: the write still holds it here.
		oldRun.writes.set(oldKey, (oldRun.writes.get(oldKey) as Exclude<WriteOutcome, { kind: 'notDone' }>).kind);
	}
}

/** What an earlier try left for this write: its outcome (or bare fact), or undefined to send. */
async function earlierOutcome(held: Held): Promise<WriteOutcome | ForgottenOutcome | undefined> {
	if (held === 'accepted' || held === 'unknown') return { kind: held, forgotten: true };
	// A failure of the earlier try's own path (not an answer) leaves it to this try.
	const outcome = 'promise' in held ? await held.promise.catch((): WriteOutcome | undefined => undefined) : held;
	return outcome === undefined || outcome.kind === 'notDone' ? undefined : outcome;
}

/**
 * The write's outcome in this execution: from memory when an earlier try of this node run sent the
 * same request for the same item (accepted or unknown; only the fact when its answer was forgotten),
 * else `send`'s, remembered for a later try.
 */
export async function writeOnce(
	scope: WriteScope,
	sent: SentWrite,
	send: () => Promise<WriteOutcome>,
	// Monotonic: a wall clock stepped forward would drop a run, and a retry resend its writes.
	clock: () => number = monotonicNow,
): Promise<{ outcome: WriteOutcome | ForgottenOutcome; remembered: boolean }> {
	const now = clock();
	dropIdleRuns(now);
	const runKey = runKeyOf(scope);
	const key = writeKeyOf(scope, sent);
	const run = touch(runKey, now);
	// Nothing held: no await before the write is marked on the wire, so a second ask of the same
	// write (a retry while the first try's is still in flight) finds it and waits for it. A write
	// waited for touched the run when it settled (and a run with a write on the wire is kept).
	const held = run.writes.get(key);
	const earlier = held === undefined ? undefined : await earlierOutcome(held);
	if (earlier !== undefined) return { outcome: earlier, remembered: true };
	const promise = send();
	const pending: Pending = { promise };
	// Only nothing, or an earlier try's write that was refused or whose path failed, is replaced.
	run.writes.set(key, pending);
	run.pending++;
	let settled: WriteOutcome | undefined;
	try {
		settled = await promise;
		return { outcome: settled, remembered: false };
	} finally {
		run.pending--;
		touch(runKey, clock());
		// Refused, never left (or the path itself failed): nothing to remember, a retry sends it again.
		if (settled === undefined || settled.kind === 'notDone') run.writes.delete(key);
		else holdAnswer(run, key, settled);
	}
}

/** What the memory holds now (for the tests of its bounds and the README's figures). */
export function heldWrites(): { runs: number; facts: number; answers: number } {
	let facts = 0;
	for (const run of runs.values()) facts += run.writes.size;
	return { runs: runs.size, facts, answers: answers.size };
}

/** Forgets everything (a test's fresh start; what a restart of n8n does). */
export function forgetAllWrites(): void {
	runs.clear();
	answers.clear();
}
