import { createHash } from 'crypto';
import type { IN8nHttpFullResponse } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import { backoffDelay, DEFAULT_RETRY_POLICY, parseRetryAfter } from './retry';

/**
 * THE API's pace (DESIGN.md; docs/performance.md "Many items"): one limiter per API (base URL + a
 * hash of the token) per process, shared by every item, page and execution, around every send of
 * shared/transport.ts. n8n starts every item's request at once; without it most are refused.
 * - In flight: `initialInFlight` at first, one more per accepted answer, halved by a refusal.
 * - No rate until a 429. Then `beta` × the rate the API accepted since the last refusal (outside
 *   Retry-After waits, over at least `minWindowMs`, lowered at most once in that time), raised on
 *   each accepted answer along CUBIC's curve. A Retry-After wait holds back every queued send and
 *   lets the API recover, so the rate drops less (`betaAfterRetryAfter`); with nothing accepted to
 *   measure, the retry policy's backoff holds them. 5xx and timeouts are no pace signal.
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
});

/** A send let through by the limiter: it goes on the wire now, and the limiter learns from its answer. */
export interface Turn {
	send(request: () => Promise<IN8nHttpFullResponse>): Promise<IN8nHttpFullResponse>;
}

type Answer = { kind: 'accepted' } | { kind: 'refused'; retryAfterMs?: number } | { kind: 'noSignal' };

interface Waiter {
	resolve: (seq: number) => void;
	reject: (error: unknown) => void;
	signal?: AbortSignal;
}

/** The waiters of one signal, and its one abort listener (not one per waiter: a run of 1 000 items shares one signal). */
interface SignalWaiters {
	waiters: Set<Waiter>;
	onAbort: () => void;
}

const cancelled = (signal: AbortSignal): Error =>
	signal.reason instanceof Error ? signal.reason : new Error('The execution was cancelled');

export class ApiPace {
	/** requests on the wire */
	inFlight = 0;
	/** answers the API accepted (any answer but a 429 or a 5xx), since the process started */
	accepted = 0;
	/** 429 answers, since the process started */
	refused = 0;
	/** requests per second; undefined until the API first refuses */
	rate: number | undefined;
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
	/** refusal events with nothing accepted in between */
	private refusalsInARow = 0;
	private readonly queue: Waiter[] = [];
	private readonly bySignal = new Map<AbortSignal, SignalWaiters>();
	private wake: { at: number; stop: AbortController } | undefined;

	/** sends waiting for their turn */
	get waiting(): number {
		return this.queue.length;
	}

	/**
	 * Waits for a send's turn (a retry goes first); rejects with the signal's reason when it fires
	 * first. The turn's `send` must be called once: it runs the request and learns from its answer
	 * (an error thrown by the request passes through).
	 */
	async turn(signal: AbortSignal | undefined, isRetry: boolean): Promise<Turn> {
		const seq = await this.acquire(signal, isRetry);
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

	private async acquire(signal: AbortSignal | undefined, goesFirst: boolean): Promise<number> {
		if (signal?.aborted) throw cancelled(signal);
		return await new Promise<number>((resolve, reject) => {
			const waiter: Waiter = { resolve, reject, signal };
			if (signal) this.watch(signal).waiters.add(waiter);
			if (goesFirst) this.queue.unshift(waiter);
			else this.queue.push(waiter);
			this.pump();
		});
	}

	/** Lets waiting sends go while the cap, the hold and the rate allow. */
	private pump(): void {
		while (this.queue.length > 0 && this.inFlight < Math.floor(this.cap)) {
			const now = Date.now();
			const readyAt = Math.max(this.holdUntil, this.rate === undefined ? 0 : this.nextSendAt);
			if (readyAt > now) return this.wakeAt(readyAt, now);
			const waiter = this.queue.shift() as Waiter;
			if (waiter.signal) this.unwatch(waiter.signal, waiter);
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
			waiter.resolve(++this.sent);
		}
		// Nothing waits: no timer is left behind.
		if (this.queue.length === 0) this.stopWake();
	}

	private watch(signal: AbortSignal): SignalWaiters {
		let entry = this.bySignal.get(signal);
		if (!entry) {
			const onAbort = (): void => {
				const waiters = this.bySignal.get(signal)?.waiters ?? new Set<Waiter>();
				this.bySignal.delete(signal);
				this.queue.splice(0, this.queue.length, ...this.queue.filter((waiter) => !waiters.has(waiter)));
				for (const waiter of waiters) waiter.reject(cancelled(signal));
				this.pump();
			};
			entry = { waiters: new Set(), onAbort };
			this.bySignal.set(signal, entry);
			signal.addEventListener('abort', onAbort, { once: true });
		}
		return entry;
	}

	private unwatch(signal: AbortSignal, waiter: Waiter): void {
		const entry = this.bySignal.get(signal);
		if (!entry) return;
		entry.waiters.delete(waiter);
		if (entry.waiters.size > 0) return;
		this.bySignal.delete(signal);
		signal.removeEventListener('abort', entry.onAbort);
	}

	private wakeAt(at: number, now: number): void {
		if (this.wake && this.wake.at <= at) return;
		this.stopWake();
		const stop = new AbortController();
		this.wake = { at, stop };
		sleep(at - now, stop.signal).then(
			() => {
				if (this.wake?.stop === stop) this.wake = undefined;
				this.pump();
			},
			() => undefined,
		);
	}

	private stopWake(): void {
		this.wake?.stop.abort();
		this.wake = undefined;
	}

	/** `seq`: the send's place in the order of sends */
	private answered(seq: number, answer: Answer): void {
		this.inFlight--;
		const now = Date.now();
		if (answer.kind === 'accepted') {
			this.accepted++;
			this.refusalsInARow = 0;
			this.cap = Math.min(PACE.maxInFlight, this.cap + 1);
			if (this.rate !== undefined) this.rate = this.cubicRate(now);
		} else if (answer.kind === 'refused') {
			this.refused++;
			// Sent before the last decrease, or within its window: the same event.
			if (seq > this.eventSeq && (this.eventSeq === 0 || now - this.eventAt >= PACE.minWindowMs)) this.decrease(now, answer.retryAfterMs === undefined ? PACE.beta : PACE.betaAfterRetryAfter);
			this.hold(now, answer.retryAfterMs);
		}
		// Measured from the next send when the API goes idle, so an idle hour is not averaged in.
		if (this.inFlight === 0 && this.queue.length === 0) this.windowStart = undefined;
		this.pump();
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

	/** Retry-After holds back every waiting send; without one, the backoff when there is no rate. */
	private hold(now: number, retryAfterMs: number | undefined): void {
		let holdMs = 0;
		if (retryAfterMs !== undefined) holdMs = Math.min(retryAfterMs, DEFAULT_RETRY_POLICY.maxRetryAfterMs);
		else if (this.rate === undefined) holdMs = backoffDelay(Math.max(1, this.refusalsInARow), DEFAULT_RETRY_POLICY, Math.random());
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

/** The limiter of the API at `baseUrl` called with `token` (only a hash of the token is kept). */
export function paceOf(baseUrl: string, token: string): ApiPace {
	const key = `${baseUrl} ${createHash('sha256').update(token).digest('hex').slice(0, 16)}`;
	let pace = paces.get(key);
	if (!pace) {
		pace = new ApiPace();
		paces.set(key, pace);
	}
	return pace;
}

/** Forgets every API's pace, as a restarted process would (tests start each case this way). */
export function forgetPaces(): void {
	paces.clear();
}
