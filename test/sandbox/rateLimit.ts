import { badRequest } from './errors';

/**
 * The API's rate limit, as a SaaS API sets one (DESIGN.md "The sandbox API server": it is not kinder
 * than a real API): a token bucket per API token. Each /v2 request takes one token; an empty bucket
 * answers 429 with `Retry-After` (whole seconds until the next token, at least 1), unless the limit
 * says not to send it. The bucket holds `burst` tokens and refills `perSecond` a second, computed
 * from the clock at each request (no timer). `perSecond: 0` never refills: a test then hands out
 * tokens itself with `refill(n)`, so what is accepted is decided by the test, not by the clock.
 */
export interface RateLimit {
	/** tokens added per second (0: only refill() adds them) */
	perSecond: number;
	/** bucket size, the most requests accepted at once after a quiet moment; default perSecond (min 1) */
	burst?: number;
	/** send Retry-After with the 429; default true */
	retryAfter?: boolean;
}

/**
 * What `npm run dev`, `npm run sandbox`, the e2e suites and the bench's bulk case meet: 10 requests
 * per second with bursts of 20, about what SaaS APIs of this kind publish (HubSpot: 100 per 10 s;
 * Zendesk Support: 700 a minute; Intercom: 1 000 a minute).
 */
export const SAAS_RATE_LIMIT: Readonly<RateLimit> = Object.freeze({ perSecond: 10, burst: 20, retryAfter: true });

interface Bucket {
	tokens: number;
	at: number;
}

export function parseRateLimit(value: unknown): RateLimit {
	if (!value || typeof value !== 'object') throw badRequest('rateLimit must be an object {perSecond, burst?, retryAfter?}');
	const { perSecond, burst, retryAfter } = value as Record<string, unknown>;
	if (typeof perSecond !== 'number' || !Number.isFinite(perSecond) || perSecond < 0) throw badRequest('rateLimit.perSecond must be a number >= 0');
	if (burst !== undefined && (!Number.isInteger(burst) || (burst as number) < 1)) throw badRequest('rateLimit.burst must be an integer >= 1');
	if (retryAfter !== undefined && typeof retryAfter !== 'boolean') throw badRequest('rateLimit.retryAfter must be a boolean');
	return { perSecond, burst: (burst as number | undefined) ?? Math.max(1, Math.ceil(perSecond)), retryAfter: retryAfter ?? true };
}

export class RateLimiter {
	/** 429s answered by the limit (not by faults), since the start, the last reset or set() */
	refused = 0;
	private limit: RateLimit | undefined;
	private readonly buckets = new Map<string, Bucket>();

	constructor(limit?: RateLimit) {
		this.set(limit);
	}

	get current(): RateLimit | undefined {
		return this.limit;
	}

	/** A new limit (undefined: none), every bucket full. */
	set(limit: RateLimit | undefined): void {
		this.limit = limit === undefined ? undefined : parseRateLimit(limit);
		this.buckets.clear();
		this.refused = 0;
	}

	/** Adds `count` tokens to every token's bucket (up to `burst`); buckets not yet used start full. */
	refill(count: number): void {
		if (!this.limit) return;
		for (const bucket of this.buckets.values()) bucket.tokens = Math.min(this.burst, bucket.tokens + count);
	}

	/** Takes one token of `key`'s bucket: undefined when accepted, else the 429's headers. */
	take(key: string, now = Date.now()): Record<string, string> | undefined {
		const { limit } = this;
		if (!limit) return undefined;
		let bucket = this.buckets.get(key);
		if (!bucket) {
			bucket = { tokens: this.burst, at: now };
			this.buckets.set(key, bucket);
		}
		bucket.tokens = Math.min(this.burst, bucket.tokens + ((now - bucket.at) / 1000) * limit.perSecond);
		bucket.at = now;
		if (bucket.tokens >= 1) {
			bucket.tokens -= 1;
			return undefined;
		}
		this.refused++;
		if (limit.retryAfter === false) return {};
		const seconds = limit.perSecond > 0 ? Math.max(1, Math.ceil((1 - bucket.tokens) / limit.perSecond)) : 1;
		return { 'retry-after': String(seconds) };
	}

	private get burst(): number {
		return this.limit?.burst ?? 1;
	}
}
