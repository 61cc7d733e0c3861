import { createHash } from 'crypto';
import type { IN8nHttpFullResponse } from 'n8n-workflow';

import { cancelledError, monotonicNow, wakeAfter } from './clock';
import { backoffDelay, DEFAULT_RETRY_POLICY, parseRetryAfter } from './retry';
import type { QueuedSend } from './waitLine';
import { WaitLine } from './waitLine';

/**
 * THE API's pace (DESIGN.md; docs/performance.md "Many items"): one limiter per API (base URL + a
 * hash of the token) per process, shared by every item, page and execution, around every send of
 * shared/transport.ts. n8n starts every item's request at once; without it most are refused.
 * - In flight: `initialInFlight` at first, one more per accepted answer, halved by a refusal.
 * - No rate until a 429. Then `beta` × the rate the API accepted since the last refusal (outside
 *   Retry-After waits, over at least `minWindowMs`, lowered at most once in that time), raised on
 *   each accepted answer along CUBIC's curve. A Retry-After wait holds back the queued sends and
 *   lets the API recover, so the rate drops less (`betaAfterRetryAfter`); with nothing accepted to
 *   measure, the retry policy's backoff holds them. 5xx and timeouts are no pace signal.
 * - Never stuck (DESIGN.md): a hold lasts only while the API refuses the others too (one probe per
 *   hold asks); a Retry-After longer than the node waits (retry.ts `maxRetryAfterMs`) holds nothing
 *   (unless nothing else succeeds: a spent quota, below);
 *   times are monotonic (clock.ts); a cancel takes its sends out at once, at any queue size; an
 *   interactive call goes before every queued send, and its time queued counts toward its Timeout
 *   (its deadline; transport.ts gives none to a bulk run's sends, which wait as the pace asks).
 * - One refused request among accepted ones holds and lowers nothing: a Retry-After of more than
 *   `probeAfterMs` is in doubt until the API answers a send made after the refused one; accepted,
 *   the refusal was that request's own, and the decrease and the hold are undone. A Retry-After of
 *   1 s or less (a rate limit's) and a 429 without one lower the pace at once.
 * - A spent quota stops the sending (DESIGN.md, decided 2026-11-26): a Retry-After longer than the
 *   node waits with nothing accepted since puts the quota in doubt: the waiting sends wait while one
 *   probe, sent after that answer came, asks. Refused the same way: the quota is spent, and every
 *   waiting and new send fails at once, unsent (`QuotaSpent`), until the time the API named or an
 *   accepted answer; one send per `spentProbeMs` still goes as a probe (the others wait for its
 *   answer) so a quota that comes back is noticed. Any accepted answer ends the doubt.
 * - Refusals of sends made before the last decrease belong to the same event.
 * - First come, first served, a retry first. A waiting send ends when its signal fires, leaving
 *   nothing queued or scheduled. A slot is held only while a request is on the wire, never while
 *   its item waits for its other pages, so items and pages cannot block each other.
 */
export const PACE = Object.freeze({
	initialInFlight: 10,
	maxInFlight: 64,
	beta: 0.7,
	/** the decrease when the API said how long to wait: that wait already let it recover */
	betaAfterRetryAfter: 0.9,
	/** CUBIC's C, in requests per second per second³ */
	cubicScale: 0.4,
	minWindowMs: 1000,
	/** requests per second, the lowest rate the limiter sets */
	minRate: 1,
	/** how long into a hold its one probe is sent (a shorter hold is waited out by every send) */
	probeAfterMs: 1000,
	/** while the quota is spent, one send this often goes as a probe; the others fail unsent */
	spentProbeMs: 60_000,
});

/**
 * A send refused before it left: the API's quota is spent (it asked to wait longer than the node
 * waits and accepted nothing since). The request was never sent.
 */
export class QuotaSpent extends Error {
	constructor(
		/** the wait the API asked for, in ms, in the answer that showed the quota spent */
		readonly askedMs: number,
		/** when the API said to try again (epoch ms, the wall clock) */
		readonly tryAfter: number,
	) {
		super('The API\'s quota is spent: not sent');
		this.name = 'QuotaSpent';
	}
}

/**
 * A send refused before it left: the API has refused every request (HTTP 429) for at least
 * `forMs` and accepted none (`retryAfterMs`: the last refusal's Retry-After, if it had one). The
 * request was never sent (again).
 */
export class RefusingEverything extends Error {
	constructor(
		readonly forMs: number,
		readonly retryAfterMs: number | undefined,
	) {
		super('The API refuses every request: not sent');
		this.name = 'RefusingEverything';
	}
}

/**
 * What the API's refusals tell: with a Retry-After longer than the node waits, of its quota; any
 * refusal, once nothing was accepted for the longest the node waits, that it refuses everything.
 */
interface Quota {
	/**
	 * doubt: one refusal beyond the ceiling, nothing accepted since; spent: a send made after it was
	 * refused too; refusing: nothing accepted for `maxRetryAfterMs` (no time named: `until` Infinity)
	 */
	state: 'doubt' | 'spent' | 'refusing';
	/** the wait the API asked for last (ms), and when that ends: wall clock (named) and monotonic */
	askedMs: number;
	tryAfter: number;
	until: number;
	/** the probe on the wire (0: none) */
	probeSeq: number;
	/** spent or refusing: when the next send may go as a probe (monotonic ms) */
	nextProbeAt: number;
	/** refusing: since when the API refused everything (monotonic ms) */
	since: number;
}

/** The pace as it was before a refusal in doubt lowered it (restored when that refusal was the request's own). */
interface PaceBefore {
	seq: number;
	cap: number;
	rate: number | undefined;
	peakRate: number;
	recoverSeconds: number;
	eventSeq: number;
	eventAt: number;
	windowStart: number | undefined;
	acceptedAtWindowStart: number;
	nextSendAt: number;
}

/** A send let through by the limiter: it goes on the wire now, and the limiter learns from its answer. */
export interface Turn {
	send(request: () => Promise<IN8nHttpFullResponse>): Promise<IN8nHttpFullResponse>;
}

/** How a send waits for its turn. */
export interface TurnOptions {
	/** a retry: it goes before the first sends */
	isRetry?: boolean;
	/**
	 * someone waits for it in the editor (a picker, a manual run's item): it goes before every queued
	 * send, so it never waits behind a bulk run (only for a free slot, the spacing, a hold's probe)
	 */
	interactive?: boolean;
	/** when its Timeout is spent (monotonic ms, clock.ts): it then leaves the queue, never sent */
	deadline?: number;
}

type Answer = { kind: 'accepted' } | { kind: 'refused'; retryAfterMs?: number } | { kind: 'noSignal' };

interface Waiter extends QueuedSend {
	/** its place in the order of sends; undefined: its deadline came first */
	resolve: (seq: number | undefined) => void;
	reject: (error: unknown) => void;
	signal?: AbortSignal;
}

/** The waiters of one signal, and its one abort listener (not one per waiter: a run of 1 000 items shares one signal). */
interface SignalWaiters {
	waiters: Set<Waiter>;
	onAbort: () => void;
}

export class ApiPace {
	/** requests on the wire */
	inFlight = 0;
	/** answers the API accepted (any answer but a 429 or a 5xx), since the process started */
	accepted = 0;
	/** 429 answers, since the process started */
	refused = 0;
	/** requests per second; undefined until the API first refuses */
	rate: number | undefined;
	/** the last time a send asked for its turn or was answered (monotonic ms) */
	lastUsed = monotonicNow();
	private cap: number = PACE.initialInFlight;
	/** CUBIC: the rate measured at the last refusal, and the seconds until the rate is back at it */
	private peakRate = 0;
	private recoverSeconds = 0;
	private sent = 0;
	/** the last send before the last decrease */
	private eventSeq = 0;
	private eventAt = 0;
	/** where the rate the API accepts is measured from: the last refusal, or the last idle moment */
	private windowStart: number | undefined;
	private acceptedAtWindowStart = 0;
	private nextSendAt = 0;
	private holdUntil = 0;
	/** when the current hold began */
	private holdStart = 0;
	/** the send let through during a hold to ask whether the API refuses the others too (0: none on the wire) */
	private probeSeq = 0;
	/** the current hold's one probe was sent */
	private probeSpent = false;
	/** refusal events with nothing accepted in between */
	private refusalsInARow = 0;
	/**
	 * the first refusal since the last accepted answer (monotonic ms); undefined: none since. A
	 * refusal after a quiet spell (no answer for twice the longest the node waits: the node had
	 * stopped asking) starts anew.
	 */
	private refusedSince: number | undefined;
	/** the last answer of any kind (monotonic ms) */
	private lastAnswerAt = -Infinity;
	/** a refusal whose Retry-After holds the others until the API answers a send made after it */
	private doubted: PaceBefore | undefined;
	private quota: Quota | undefined;
	private readonly line = new WaitLine<Waiter>();
	private readonly bySignal = new Map<AbortSignal, SignalWaiters>();
	private wake: { at: number; stop: () => void } | undefined;

	/** sends waiting for their turn */
	get waiting(): number {
		return this.line.size;
	}

	/** whether the API refuses everything: nothing accepted for the longest the node waits (the sending is stopped) */
	get refusingEverything(): boolean {
		return this.quota?.state === 'refusing';
	}

	/** whether a refusal holds back the waiting sends now */
	get holding(): boolean {
		return this.holdUntil > monotonicNow();
	}

	/** Nothing on the wire or waiting for `idleMs`: the limiter can be dropped (a new one starts fresh). */
	idleFor(idleMs: number, now: number): boolean {
		// A quota known spent (or in doubt) is kept until the time the API named, so a run an hour
		// later does not send its first requests into it again. (An API refusing everything named no
		// time: after idling that long, a new limiter asks it afresh.)
		if (this.quota !== undefined && this.quota.state !== 'refusing' && now < this.quota.until) return false;
		return this.inFlight === 0 && this.line.size === 0 && now - this.lastUsed >= idleMs;
	}

	/**
	 * Waits for a send's turn; rejects with the signal's reason when it fires first; undefined when
	 * the deadline comes first (the send's Timeout was spent waiting: it never left). The turn's `send` must be called once: it runs the
	 * request and learns from its answer (an error thrown by the request passes through).
	 */
	async turn(signal: AbortSignal | undefined, options: TurnOptions = {}): Promise<Turn | undefined> {
		this.lastUsed = monotonicNow();
		if (signal?.aborted) throw cancelledError(signal);
		const seq = await this.acquire(signal, options);
		if (seq === undefined) return undefined;
		return {
			send: async (request) => {
				// No answer (the request threw) says nothing about the pace; it only frees the slot.
				let answer: Answer = { kind: 'noSignal' };
				try {
					const response = await request();
					answer = answerOf(response);
					return response;
				} finally {
					this.answered(seq, answer);
				}
			},
		};
	}

	private async acquire(signal: AbortSignal | undefined, options: TurnOptions): Promise<number | undefined> {
		return await new Promise<number | undefined>((resolve, reject) => {
			const waiter: Waiter = {
				resolve,
				reject,
				signal,
				deadline: options.deadline ?? Infinity,
				lane: options.interactive === true ? 'interactive' : options.isRetry === true ? 'retry' : 'first',
				settled: false,
			};
			if (signal) this.watch(signal).waiters.add(waiter);
			this.line.add(waiter);
			this.pump();
		});
	}

	/** Lets waiting sends go while the cap, the hold and the rate allow; ends those out of time. */
	private pump(): void {
		const now = monotonicNow();
		for (const waiter of this.line.expired(now)) {
			this.unwatch(waiter);
			waiter.resolve(undefined);
		}
		if (!this.passQuota(now)) {
			if (this.line.size === 0) this.stopWake();
			else this.wakeAt(this.line.nextDeadline(), now);
			return;
		}
		let blockedUntil = Infinity;
		while (this.line.size > 0 && this.inFlight < Math.floor(this.cap)) {
			const held = this.holdUntil > now;
			// During a hold one send (the probe) asks whether the API refuses the others too.
			if (held && (this.probeSpent || this.probeSeq !== 0 || now < this.holdStart + PACE.probeAfterMs)) {
				blockedUntil = this.probeSpent || this.probeSeq !== 0 ? this.holdUntil : Math.min(this.holdUntil, this.holdStart + PACE.probeAfterMs);
				break;
			}
			if (this.rate !== undefined && this.nextSendAt > now) {
				blockedUntil = this.nextSendAt;
				break;
			}
			const waiter = this.line.take() as Waiter;
			this.unwatch(waiter);
			const seq = this.letGo(now);
			if (held) {
				this.probeSeq = seq;
				this.probeSpent = true;
			}
			waiter.resolve(seq);
		}
		// Nothing waits: no timer is left behind. Else one wake-up, at the first moment one may go or time out.
		if (this.line.size === 0) this.stopWake();
		else this.wakeAt(Math.min(blockedUntil, this.line.nextDeadline()), now);
	}

	/**
	 * While the quota is in doubt or spent: one probe goes (in doubt at once, spent once a minute)
	 * and the others wait for its answer; spent with no probe due, every waiting send fails at once,
	 * unsent. True when the quota holds nothing.
	 */
	private passQuota(now: number): boolean {
		const quota = this.quota;
		if (quota === undefined) return true;
		if (now >= quota.until) {
			// The time the API named has come.
			this.quota = undefined;
			return true;
		}
		if (quota.probeSeq !== 0) return false;
		if (quota.state !== 'doubt' && now < quota.nextProbeAt) {
			for (let waiter = this.line.take(); waiter !== undefined; waiter = this.line.take()) {
				this.unwatch(waiter);
				waiter.reject(quota.state === 'spent' ? new QuotaSpent(quota.askedMs, quota.tryAfter) : new RefusingEverything(now - quota.since, quota.askedMs > 0 ? quota.askedMs : undefined));
			}
			return false;
		}
		if (this.line.size > 0 && this.inFlight < Math.floor(this.cap)) {
			const waiter = this.line.take() as Waiter;
			this.unwatch(waiter);
			quota.probeSeq = this.letGo(now);
			waiter.resolve(quota.probeSeq);
		}
		return false;
	}

	/** A send goes on the wire: its place in the order of sends. */
	private letGo(now: number): number {
		if (this.windowStart === undefined) {
			this.windowStart = now;
			this.acceptedAtWindowStart = this.accepted;
		}
		this.inFlight++;
		if (this.rate !== undefined) {
			// A timer that fires late is made up with the next send (a bucket of two sends, not one),
			// else every late wake-up would lower the rate.
			const interval = 1000 / this.rate;
			this.nextSendAt = Math.max(now - interval, this.nextSendAt) + interval;
		}
		return ++this.sent;
	}

	private watch(signal: AbortSignal): SignalWaiters {
		let entry = this.bySignal.get(signal);
		if (!entry) {
			const onAbort = (): void => {
				const waiters = this.bySignal.get(signal)?.waiters ?? new Set<Waiter>();
				this.bySignal.delete(signal);
				// Marked, not spliced: the line skips them (no spread, no recursion at any size).
				for (const waiter of waiters) {
					this.line.remove(waiter);
					waiter.reject(cancelledError(signal));
				}
				this.pump();
			};
			entry = { waiters: new Set(), onAbort };
			this.bySignal.set(signal, entry);
			signal.addEventListener('abort', onAbort, { once: true });
		}
		return entry;
	}

	private unwatch(waiter: Waiter): void {
		const { signal } = waiter;
		const entry = signal === undefined ? undefined : this.bySignal.get(signal);
		if (!signal || !entry) return;
		entry.waiters.delete(waiter);
		if (entry.waiters.size > 0) return;
		this.bySignal.delete(signal);
		signal.removeEventListener('abort', entry.onAbort);
	}

	private wakeAt(at: number, now: number): void {
		if (at === Infinity) return;
		if (this.wake && this.wake.at <= at) return;
		this.stopWake();
		const wake = {
			at,
			stop: wakeAfter(Math.max(0, at - now), () => {
				if (this.wake === wake) this.wake = undefined;
				this.pump();
			}).stop,
		};
		this.wake = wake;
	}

	private stopWake(): void {
		this.wake?.stop();
		this.wake = undefined;
	}

	/** `seq`: the send's place in the order of sends */
	private answered(seq: number, answer: Answer): void {
		this.inFlight--;
		const now = monotonicNow();
		this.lastUsed = now;
		const quiet = now - this.lastAnswerAt > 2 * DEFAULT_RETRY_POLICY.maxRetryAfterMs;
		this.lastAnswerAt = now;
		const probe = seq === this.probeSeq;
		if (probe) this.probeSeq = 0;
		const quotaProbe = this.quota !== undefined && seq === this.quota.probeSeq;
		if (quotaProbe && this.quota) this.quota.probeSeq = 0;
		if (answer.kind === 'accepted') {
			this.accepted++;
			this.refusalsInARow = 0;
			this.refusedSince = undefined;
			// Something succeeds: the quota is not spent.
			this.quota = undefined;
			// A send made after the refusal in doubt was accepted while it held the others: it was that
			// request's own (its item, its contact), not the API's pace. As if it never came.
			if (this.doubted !== undefined && seq > this.doubted.seq && this.holdUntil > now) this.undoDoubted();
			this.cap = Math.min(PACE.maxInFlight, this.cap + 1);
			if (this.rate !== undefined) this.rate = this.cubicRate(now);
			// The probe was accepted: the refusal concerned that request (its item, its contact), not
			// the API's pace; the others go (the refused request still waits out its own Retry-After).
			if (probe) this.holdUntil = 0;
		} else if (answer.kind === 'refused') {
			this.refused++;
			if (this.refusedSince === undefined || quiet) this.refusedSince = now;
			if (this.quota?.state === 'refusing') {
				// Still refusing everything: the probe's answer, or a send that left before the stop.
				if (quotaProbe) this.quota.nextProbeAt = now + PACE.spentProbeMs;
			} else if (answer.retryAfterMs !== undefined && answer.retryAfterMs > DEFAULT_RETRY_POLICY.maxRetryAfterMs) {
				// Longer than the node ever waits: that request fails at once (retry.ts) and holds
				// nothing else, unless nothing else succeeds (the quota, below).
				this.quotaRefused(now, answer.retryAfterMs, quotaProbe);
			} else if (now - this.refusedSince >= DEFAULT_RETRY_POLICY.maxRetryAfterMs) {
				// Nothing accepted for the longest the node waits: the API refuses everything.
				this.quota = { state: 'refusing', askedMs: answer.retryAfterMs ?? 0, tryAfter: 0, until: Infinity, probeSeq: 0, nextProbeAt: now + PACE.spentProbeMs, since: this.refusedSince };
			} else {
				// The API refuses a send made after the one in doubt too: its refusal was the API's.
				if (this.doubted !== undefined && seq > this.doubted.seq) this.doubted = undefined;
				// The quota's probe answered at the API's pace: the quota is back.
				if (quotaProbe) this.quota = undefined;
				const before = this.snapshot(seq);
				const holding = this.holdUntil > now;
				// Sent before the last decrease, or within its window: the same event.
				if (seq > this.eventSeq && (this.eventSeq === 0 || now - this.eventAt >= PACE.minWindowMs)) this.decrease(now, answer.retryAfterMs === undefined ? PACE.beta : PACE.betaAfterRetryAfter);
				this.hold(now, answer.retryAfterMs);
				// A wait worth asking about (it has a probe), starting a hold: in doubt until a later send answers.
				if (!holding && this.doubted === undefined && answer.retryAfterMs !== undefined && answer.retryAfterMs > PACE.probeAfterMs) this.doubted = before;
			}
		} else if (quotaProbe && this.quota !== undefined && this.quota.state !== 'doubt') {
			// The probe said nothing (5xx, no answer): still spent (or refusing), the next probe in a minute.
			this.quota.nextProbeAt = now + PACE.spentProbeMs;
		}
		// The hold is over (waited out, or ended by a probe): nothing is in doubt any more.
		if (this.holdUntil <= now) this.doubted = undefined;
		// Measured from the next send when the API goes idle, so an idle hour is not averaged in.
		if (this.inFlight === 0 && this.line.size === 0) this.windowStart = undefined;
		this.pump();
	}

	/** A refusal with a Retry-After longer than the node waits: the quota in doubt, or spent when it was the probe's. */
	private quotaRefused(now: number, retryAfterMs: number, quotaProbe: boolean): void {
		const asked = { askedMs: retryAfterMs, tryAfter: Date.now() + retryAfterMs, until: now + retryAfterMs };
		if (this.quota === undefined) {
			this.quota = { state: 'doubt', ...asked, probeSeq: 0, nextProbeAt: 0, since: now };
		} else if (quotaProbe) {
			// A send made after the API refused this way was refused the same way: nothing succeeds.
			this.quota = { ...this.quota, ...asked, state: 'spent', nextProbeAt: now + PACE.spentProbeMs };
		}
	}

	private snapshot(seq: number): PaceBefore {
		return {
			seq,
			cap: this.cap,
			rate: this.rate,
			peakRate: this.peakRate,
			recoverSeconds: this.recoverSeconds,
			eventSeq: this.eventSeq,
			eventAt: this.eventAt,
			windowStart: this.windowStart,
			acceptedAtWindowStart: this.acceptedAtWindowStart,
			nextSendAt: this.nextSendAt,
		};
	}

	/** The refusal in doubt was that request's own: the pace as before it, and no hold. */
	private undoDoubted(): void {
		const before = this.doubted as PaceBefore;
		this.doubted = undefined;
		this.cap = before.cap;
		this.rate = before.rate;
		this.peakRate = before.peakRate;
		this.recoverSeconds = before.recoverSeconds;
		this.eventSeq = before.eventSeq;
		this.eventAt = before.eventAt;
		this.windowStart = before.windowStart;
		this.acceptedAtWindowStart = before.acceptedAtWindowStart;
		this.nextSendAt = before.nextSendAt;
		this.holdUntil = 0;
	}

	/** A new refusal event: a lower rate, from what the API accepted since the last one. */
	private decrease(now: number, beta: number): void {
		const acceptedInWindow = this.accepted - this.acceptedAtWindowStart;
		// A Retry-After wait in the window is not the API's rate: measured from its end.
		const from = Math.max(this.windowStart ?? now, Math.min(this.holdUntil, now));
		const windowMs = Math.max(PACE.minWindowMs, now - from);
		const peak = acceptedInWindow > 0 ? (acceptedInWindow * 1000) / windowMs : this.rate;
		if (acceptedInWindow === 0) this.refusalsInARow++;
		if (peak !== undefined) {
			this.peakRate = Math.max(PACE.minRate, peak);
			this.recoverSeconds = Math.cbrt((this.peakRate * (1 - beta)) / PACE.cubicScale);
			this.rate = Math.max(PACE.minRate, this.peakRate * beta);
			this.nextSendAt = now + 1000 / this.rate;
		}
		this.cap = Math.max(1, Math.floor(this.cap / 2));
		this.eventSeq = this.sent;
		this.eventAt = now;
		this.windowStart = now;
		this.acceptedAtWindowStart = this.accepted;
	}

	/**
	 * Retry-After holds back the waiting sends; without one (or 0), the backoff when there is no rate.
	 * A Retry-After may concern the whole API or only the refused request (a per-contact or
	 * per-endpoint limit); only the API's answer to another request tells which. So a hold lets one
	 * send through after `probeAfterMs`, its probe: accepted, the hold ends; refused, the rest wait
	 * it out. One request is the price of asking, once per hold; a hold of a second or less (a
	 * rate limit's usual Retry-After) is waited out by all, as asking would cost a refusal each time.
	 */
	private hold(now: number, retryAfterMs: number | undefined): void {
		let holdMs = 0;
		// A Retry-After of 0 is taken at its word once; refused again with nothing accepted, it is no wait.
		if (retryAfterMs !== undefined && (retryAfterMs > 0 || this.refusalsInARow < 2)) holdMs = retryAfterMs;
		else if (this.rate === undefined) holdMs = backoffDelay(Math.max(1, this.refusalsInARow), DEFAULT_RETRY_POLICY, Math.random());
		if (holdMs <= 0) return;
		if (this.holdUntil <= now) {
			this.probeSpent = false;
			this.holdStart = now;
		}
		this.holdUntil = Math.max(this.holdUntil, now + holdMs);
	}

	/** CUBIC: β × peak right after the refusal, back at the peak after `recoverSeconds`, then above. */
	private cubicRate(now: number): number {
		const t = (now - this.eventAt) / 1000 - this.recoverSeconds;
		return Math.max(PACE.minRate, PACE.cubicScale * t * t * t + this.peakRate);
	}
}

/** What an answer tells about the pace: a 429 refused it; 5xx says nothing; the rest was accepted. */
function answerOf(response: IN8nHttpFullResponse): Answer {
	const { statusCode } = response;
	if (statusCode === 429) {
		const header = Object.entries(response.headers ?? {}).find(([name]) => name.toLowerCase() === 'retry-after');
		return { kind: 'refused', retryAfterMs: parseRetryAfter(header?.[1], Date.now()) };
	}
	if (statusCode >= 500) return { kind: 'noSignal' };
	return { kind: 'accepted' };
}

const paces = new Map<string, ApiPace>();

/**
 * A limiter idle this long is dropped (a new one starts fresh): with many credentials or rotated
 * tokens they would pile up for the life of the process. Far longer than any wait of a send in use
 * (a Retry-After is waited for at most 60 s), so a limiter in use is never dropped.
 */
export const IDLE_PACE_MS = 10 * 60_000;
let lastSweep = 0;

/**
 * The token's digest per credential object (a run's, shared by all its items and pages): hashed
 * once per run instead of once per send (issue 37). The entry goes with the object, which holds the
 * token anyway; the limiters below keep only the digest.
 */
const digests = new WeakMap<object, { token: string; digest: string }>();

function digestOf(token: string, owner: object | undefined): string {
	const known = owner === undefined ? undefined : digests.get(owner);
	if (known !== undefined && known.token === token) return known.digest;
	const digest = createHash('sha256').update(token).digest('hex').slice(0, 16);
	if (owner !== undefined) digests.set(owner, { token, digest });
	return digest;
}

/**
 * The limiter of the API at `baseUrl` called with `token` (only a hash of the token is kept);
 * `owner`, the credential object the token comes from, saves hashing it again.
 */
export function paceOf(baseUrl: string, token: string, owner?: object): ApiPace {
	const now = monotonicNow();
	// Lazily, no timer: at most one sweep a minute, on the next call.
	if (now - lastSweep >= 60_000) {
		lastSweep = now;
		for (const [key, idle] of paces) if (idle.idleFor(IDLE_PACE_MS, now)) paces.delete(key);
	}
	const key = `${baseUrl} ${digestOf(token, owner)}`;
	let pace = paces.get(key);
	if (!pace) {
		pace = new ApiPace();
		paces.set(key, pace);
	}
	pace.lastUsed = now;
	return pace;
}

/** How many limiters the process keeps. */
export function pacesKept(): number {
	return paces.size;
}

/** Forgets every API's pace, as a restarted process would (tests start each case this way). */
export function forgetPaces(): void {
	paces.clear();
	lastSweep = 0;
}
