import { createHash } from 'crypto';
import type { IDataObject } from 'n8n-workflow';

import { monotonicNow, wakeAfterUnref } from './clock';

/**
 * Never twice (DESIGN.md, "Never twice", amended 2026-11-26 and 2026-11-27): n8n's Retry On Fail
 * re-runs the whole node with the same execution, node, run index and items. Every write of that
 * node (each item) would be sent again, also those the API already carried out. So the one request
 * path (transport.ts) asks this memory before it sends a write, and tells it how the write ended:
 * - accepted (any 2xx that does not say `success: false`): a retry gets the same result, unsent;
 * - unknown (sent, then no answer, a 5xx, a page that is not the API's): a retry fails, unsent,
 *   saying why (the API may have done it);
 * - not done (refused: 4xx, 429, `success: false`; or it never left): forgotten, a retry sends it.
 * Only writes come here: reads, and POSTs that only ask (answers.ts QUESTIONS), never do.
 *
 * One write, one owner (decided 2026-11-27): each write of a node run has ONE life in this memory,
 * from its first send to its outcome, owned by the try that sent it. A later try that asks while it
 * is on the wire (n8n starts the next try when RoutingNode throws before it awaited the sends of
 * the try before) waits for that life to end, and learns its outcome; it never starts a second
 * one. When the life ends "not done", the memory forgets it BEFORE it wakes the tries waiting, so
 * the first of them to look sends the write again (a new life, which the others wait for): exactly
 * one send follows, whatever the number of tries waiting. The try that started a life may end first
 * (n8n does not await it); the life does not: it ends with the request's outcome.
 *
 * What is held, and for how long (the README's "Retry On Fail" says the same to users, with the
 * figures scripts/tools/never-twice-at-size.ts measures):
 * - One memory per node run (execution, node, run index): one execution never evicts another's.
 * - A run's memory lives until `limits.runIdleMs` after its LAST activity (a write asked about or
 *   answered), not after each write: a run of many hours keeps its first write. n8n waits at most
 *   5 s between tries, so a run idle that long can no longer be retried. A run with a write on the
 *   wire is never dropped. A timer releases an idle run when its time is up, without waiting for
 *   the next write (one timer for the whole memory, which keeps no process alive: clock.ts).
 * - The FACT that a write was done (or may have been) is kept for the run's whole life, whatever
 *   the size: its item and a 128-bit hash of the request (nothing of the request itself, never the
 *   token).
 * - Its ANSWER (what the retried item shows) is kept for at most `limits.maxAnswers` writes of the
 *   whole process, the oldest forgotten first: an accepted write's result, or of a write whose
 *   outcome is unknown only what its retried item says (the first try's message and HTTP code,
 *   not the error with its copy of the node and its stack). A retried item whose answer was
 *   forgotten says that the write was done on an earlier try, without the result; it is never sent
 *   again.
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

/** An accepted write's result: what the request path gave (its value, or its error). */
export type AcceptedResult = Extract<WriteOutcome, { kind: 'accepted' }>['result'];

/** What the memory keeps of a write whose outcome is unknown: what its retried item says (errors.ts notSentAgainError). */
export interface FirstFailure {
	message: string;
	httpCode?: string;
}

/**
 * What a later try learns of an earlier try's write: accepted (with its result) or unknown (with
 * what the first try's error said); without them when the answer was forgotten past the bound.
 */
export type Earlier = { kind: 'accepted'; result?: AcceptedResult } | { kind: 'unknown'; first?: FirstFailure };

/** How a write went in this try: sent (by this try, as the write's owner), or learnt from an earlier try. */
export type WriteResult = { sent: WriteOutcome } | { earlier: Earlier };

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

/**
 * The memory's time: a monotonic clock (a wall clock stepped forward would drop a run, and a retry
 * resend its writes) and the wake-up that releases idle runs. Shipped values; tests substitute them.
 */
export const memoryTime = {
	now: monotonicNow,
	wakeAfter: wakeAfterUnref,
};

/** A write on the wire: its owner's send. `settled` resolves once the memory holds how it ended. */
interface OnWire {
	settled: Promise<void>;
}

/** A settled write's answer, in `answers` (oldest first) while it is held. */
interface HeldAnswer {
	earlier: Earlier;
	run: RunMemory;
	key: string;
}

/** One write's memory: on the wire, settled with its answer, or only the fact (its kind). */
type Held = OnWire | HeldAnswer | 'accepted' | 'unknown';

interface RunMemory {
	/** its key in `runs` */
	key: string;
	lastActive: number;
	/** writes on the wire */
	onWire: number;
	/** forgotten (forgetAllWrites) with a write on the wire: what settles later is not kept */
	dropped: boolean;
	/** item + request hash → what is held */
	writes: Map<string, Held>;
}

/** Node runs, least recently active first (an active run is moved to the end). */
const runs = new Map<string, RunMemory>();
/** The answers held, oldest first (a Set keeps its insertion order). */
const answers = new Set<HeldAnswer>();
/** Tries waiting for a write on the wire (another try's) to end. */
let waiting = 0;
/** The one wake-up that releases idle runs: when it is due (memoryTime), and how to call it off. */
let release: { at: number; stop: () => void } | undefined;

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

/** A run leaves the memory, its answers with it (only a run without a write on the wire: nothing settles in it later). */
function drop(run: RunMemory): void {
	runs.delete(run.key);
	for (const held of run.writes.values()) if (typeof held === 'object' && 'earlier' in held) answers.delete(held);
}

/** Drops the runs idle for longer than `runIdleMs` (none with a write on the wire), answers and all. */
function dropIdleRuns(now: number): void {
	for (const run of runs.values()) {
		if (run.lastActive + limits.runIdleMs > now) break;
		if (run.onWire === 0) drop(run);
	}
}

/** Makes the run the most recently active. */
function touch(run: RunMemory, now: number): void {
	if (run.dropped) return;
	runs.delete(run.key);
	run.lastActive = now;
	runs.set(run.key, run);
}

/**
 * Arms the wake-up for the first moment a run may be released: the least recently active run
 * without a write on the wire (a run with one is touched, and this called again, when it settles;
 * a run that only answers from memory has a write settled before, which armed it).
 * That moment never comes earlier than one armed before (runs are in order of last activity, and a
 * run is touched to the end), so an armed wake-up is kept: when it fires it releases what is due and
 * arms the next. One timer for the whole memory, whatever the number of writes.
 */
function scheduleRelease(): void {
	let due: number | undefined;
	for (const run of runs.values()) {
		if (run.onWire > 0) continue;
		due = run.lastActive + limits.runIdleMs;
		break;
	}
	// Earlier than the one armed only when the bound was lowered (tests).
	if (due === undefined || (release !== undefined && release.at <= due)) return;
	release?.stop();
	const at = due;
	const wake = memoryTime.wakeAfter(at - memoryTime.now(), () => {
		if (release?.at !== at) return;
		release = undefined;
		dropIdleRuns(memoryTime.now());
		scheduleRelease();
	});
	release = { at, stop: wake.stop };
}

/** The run's memory, made the most recently active (after idle runs were released). */
function activeRun(key: string): RunMemory {
	const now = memoryTime.now();
	dropIdleRuns(now);
	const run = runs.get(key) ?? { key, lastActive: now, onWire: 0, dropped: false, writes: new Map() };
	touch(run, now);
	return run;
}

/**
 * A fresh copy of a text: the error's message may be a slice of a larger text (the API's whole
 * answer), which a slice would keep in memory with it.
 */
const ownCopy = (text: string): string => JSON.parse(JSON.stringify(text)) as string;

/** What is kept of a settled write: its answer; past `maxAnswers`, the oldest answers become bare facts. */
function keep(run: RunMemory, key: string, outcome: Exclude<WriteOutcome, { kind: 'notDone' }>): void {
	let earlier: Earlier;
	if (outcome.kind === 'accepted') {
		earlier = { kind: 'accepted', result: outcome.result };
	} else {
		const { httpCode } = outcome.error as { httpCode?: unknown };
		earlier = { kind: 'unknown', first: { message: ownCopy(outcome.error.message), ...(typeof httpCode === 'string' && { httpCode }) } };
	}
	const answer: HeldAnswer = { earlier, run, key };
	run.writes.set(key, answer);
	answers.add(answer);
	for (const oldest of answers) {
		if (answers.size <= limits.maxAnswers) break;
		answers.delete(oldest);
		// A held answer is returned, never replaced: the write still holds it here.
		oldest.run.writes.set(oldest.key, oldest.earlier.kind);
	}
}

/** This try owns the write's life: it sends, and the memory keeps the outcome before any waiting try looks. */
async function own(run: RunMemory, key: string, send: () => Promise<WriteOutcome>): Promise<WriteResult> {
	let settle: () => void = () => undefined;
	run.writes.set(key, { settled: new Promise<void>((resolve) => (settle = resolve)) });
	run.onWire++;
	let outcome: WriteOutcome | undefined;
	try {
		outcome = await send();
		return { sent: outcome };
	} finally {
		run.onWire--;
		touch(run, memoryTime.now());
		// Refused, never left (or the path itself failed): forgotten, so the next try sends it again.
		if (outcome === undefined || outcome.kind === 'notDone') run.writes.delete(key);
		else if (!run.dropped) keep(run, key, outcome);
		settle();
		scheduleRelease();
	}
}

/**
 * The write's outcome in this execution: learnt from an earlier try of this node run that sent the
 * same request for the same item (accepted or unknown; only the fact when its answer was
 * forgotten), else `send`'s, this try owning the write's life. A write on the wire is waited for.
 */
export async function writeOnce(scope: WriteScope, sent: SentWrite, send: () => Promise<WriteOutcome>): Promise<WriteResult> {
	const runKey = runKeyOf(scope);
	const key = writeKeyOf(scope, sent);
	for (;;) {
		// No await between looking and owning: two tries cannot both find nothing.
		const run = activeRun(runKey);
		const held = run.writes.get(key);
		if (held === undefined) return await own(run, key, send);
		if (held === 'accepted' || held === 'unknown') return { earlier: { kind: held } };
		if ('earlier' in held) return { earlier: held.earlier };
		// On the wire: its end decides; look again then (not done: the first to look sends it).
		waiting++;
		await held.settled;
		waiting--;
	}
}

/** What the memory holds now (for the tests of its bounds and the README's figures). */
export function heldWrites(): { runs: number; facts: number; answers: number; onWire: number; waiting: number } {
	let facts = 0;
	let onWire = 0;
	for (const run of runs.values()) {
		facts += run.writes.size - run.onWire;
		onWire += run.onWire;
	}
	return { runs: runs.size, facts, answers: answers.size, onWire, waiting };
}

/** Forgets everything (a test's fresh start; what a restart of n8n does). */
export function forgetAllWrites(): void {
	waiting = 0;
	for (const run of runs.values()) run.dropped = true;
	runs.clear();
	answers.clear();
	release?.stop();
	release = undefined;
}
