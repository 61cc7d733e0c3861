/* eslint-disable -- development tooling, not shipped: n8n's node rules (eslint.config.mjs, n8n-node lint) are for nodes/ and credentials/ */
import { badRequest } from './errors';
import { matchesFilter, parseFilter, type RequestFilter } from './faults';
import type { RecordedRequest } from './server';

/**
 * Holds: a test pauses the /v2 requests that match a filter (as a fault's: method, path, match,
 * query; `skip` lets the first N through) until it releases them, so "these N requests are on the
 * wire at the same time" or "this answer comes before that one" is arranged by the test, not by
 * how fast the machine happens to be. A held request is recorded (it has arrived) and is then
 * handled normally once released (latency, faults, handler). reset() and close() release all.
 */
export interface HoldFilter extends RequestFilter {
	skip?: number;
}

export interface Hold {
	readonly id: number;
	readonly filter: HoldFilter;
	/** requests held so far (released ones included), in arrival order */
	readonly held: RecordedRequest[];
	readonly released: boolean;
	/** Resolves once `count` requests have been held (default timeout 10 000 ms). */
	waitFor(count: number, timeoutMs?: number): Promise<RecordedRequest[]>;
	/** Lets every held request go on; requests arriving later are not held. */
	release(): void;
}

interface Waiter {
	count: number;
	resolve: (held: RecordedRequest[]) => void;
}

class HoldEntry implements Hold {
	readonly held: RecordedRequest[] = [];
	released = false;
	private seen = 0;
	private readonly gates: Array<() => void> = [];
	private waiters: Waiter[] = [];

	constructor(
		readonly id: number,
		readonly filter: HoldFilter,
	) {}

	/** A promise to await when this hold takes the request; undefined when it lets it through. */
	take(record: RecordedRequest, content: string, query: URLSearchParams): Promise<void> | undefined {
		if (this.released || !matchesFilter(this.filter, record.method, record.path, content, query)) return undefined;
		if (++this.seen <= (this.filter.skip ?? 0)) return undefined;
		this.held.push(record);
		const gate = new Promise<void>((resolve) => this.gates.push(resolve));
		this.waiters = this.waiters.filter((w) => (this.held.length >= w.count ? (w.resolve([...this.held]), false) : true));
		return gate;
	}

	waitFor(count: number, timeoutMs = 10_000): Promise<RecordedRequest[]> {
		if (this.held.length >= count) return Promise.resolve([...this.held]);
		return new Promise((resolve, reject) => {
			const timer = setTimeout(() => {
				this.waiters = this.waiters.filter((w) => w !== waiter);
				reject(new Error(`hold ${this.id}: ${this.held.length} of ${count} requests held after ${timeoutMs} ms (${JSON.stringify(this.filter)})`));
			}, timeoutMs);
			const waiter: Waiter = {
				count,
				resolve: (held) => {
					clearTimeout(timer);
					resolve(held);
				},
			};
			this.waiters.push(waiter);
		});
	}

	release(): void {
		this.released = true;
		for (const open of this.gates.splice(0)) open();
	}

	view(): Record<string, unknown> {
		return { id: this.id, filter: this.filter, held: this.held.length, released: this.released };
	}
}

export class Holds {
	private active: HoldEntry[] = [];
	private nextId = 1;

	add(filter: unknown): Hold {
		const { skip, ...rest } = (filter ?? {}) as Record<string, unknown>;
		if (skip !== undefined && (!Number.isInteger(skip) || (skip as number) < 0)) throw badRequest('hold.skip must be an integer >= 0');
		const entry = new HoldEntry(this.nextId++, { ...parseFilter(rest, 'hold'), ...(skip !== undefined && { skip: skip as number }) });
		this.active.push(entry);
		return entry;
	}

	get(id: number): Hold | undefined {
		return this.active.find((h) => h.id === id);
	}

	list(): Array<Record<string, unknown>> {
		return this.active.map((h) => h.view());
	}

	/** The first hold that takes the request decides; resolves at once when none does. */
	async pass(record: RecordedRequest, content: string, query: URLSearchParams): Promise<void> {
		for (const entry of this.active) {
			const gate = entry.take(record, content, query);
			if (gate) return await gate;
		}
	}

	releaseAll(): void {
		for (const entry of this.active) entry.release();
		this.active = [];
	}
}
