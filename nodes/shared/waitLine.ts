export type Lane = 'interactive' | 'retry' | 'first';

/** One send waiting for its turn at the API's limiter (pace.ts). */
export interface QueuedSend {
	/** when its Timeout is spent (monotonic ms); Infinity: no deadline */
	readonly deadline: number;
	/** who goes first: an interactive call, then retries, then first sends */
	readonly lane: Lane;
	/** taken out of the line (let through, timed out or cancelled); its entries are then skipped */
	settled: boolean;
}

/**
 * The sends waiting at one API's limiter: first come, first served in three lanes (interactive
 * calls, then retries, then first sends), and the one
 * whose deadline comes first at hand. Taking a send out (a cancel, a timeout) only marks it
 * settled: entries are skipped when reached and the arrays are rebuilt in one loop once most of
 * them are dead, so a cancel of any number of sends costs no recursion, no argument spread and no
 * search through the line.
 */
export class WaitLine<T extends QueuedSend> {
	private readonly lanes: Record<Lane, { items: T[]; head: number }> = {
		interactive: { items: [], head: 0 },
		retry: { items: [], head: 0 },
		first: { items: [], head: 0 },
	};
	/** a binary min-heap by deadline of the sends that have one */
	private deadlines: T[] = [];
	private live = 0;
	private liveWithDeadline = 0;

	/** sends waiting */
	get size(): number {
		return this.live;
	}

	add(send: T): void {
		this.lanes[send.lane].items.push(send);
		this.live++;
		if (send.deadline !== Infinity) {
			this.liveWithDeadline++;
			this.heapPush(send);
		}
	}

	/** The next send to let through, taken out of the line. */
	take(): T | undefined {
		const send = this.nextOf('interactive') ?? this.nextOf('retry') ?? this.nextOf('first');
		if (send) this.settle(send);
		return send;
	}

	/** Takes `send` out of the line (a cancel). */
	remove(send: T): void {
		if (!send.settled) this.settle(send);
	}

	/** The sends whose deadline is at or before `now`, taken out of the line. */
	expired(now: number): T[] {
		const out: T[] = [];
		for (let top = this.liveTop(); top !== undefined && top.deadline <= now; top = this.liveTop()) {
			this.settle(top);
			out.push(top);
		}
		return out;
	}

	/** The earliest deadline of a waiting send; Infinity when none has one. */
	nextDeadline(): number {
		return this.liveTop()?.deadline ?? Infinity;
	}

	private settle(send: T): void {
		send.settled = true;
		this.live--;
		if (send.deadline !== Infinity) this.liveWithDeadline--;
		this.compact();
	}

	private nextOf(lane: Lane): T | undefined {
		const line = this.lanes[lane];
		while (line.head < line.items.length && line.items[line.head].settled) line.head++;
		return line.head < line.items.length ? line.items[line.head] : undefined;
	}

	/** The heap's top, once the dead entries above it are dropped. */
	private liveTop(): T | undefined {
		while (this.deadlines.length > 0 && this.deadlines[0].settled) this.heapPop();
		return this.deadlines[0];
	}

	/** Rebuilds the arrays without their dead entries once those are most of them (amortised O(1)). */
	private compact(): void {
		const lines = Object.values(this.lanes);
		let entries = 0;
		for (const line of lines) entries += line.items.length - line.head;
		if (entries > 2 * this.live + 64) {
			for (const line of lines) {
				line.items = liveOf(line.items, line.head);
				line.head = 0;
			}
		}
		if (this.deadlines.length > 2 * this.liveWithDeadline + 64) {
			this.deadlines = liveOf(this.deadlines, 0);
			for (let i = (this.deadlines.length >> 1) - 1; i >= 0; i--) this.siftDown(i);
		}
	}

	private heapPush(send: T): void {
		const heap = this.deadlines;
		heap.push(send);
		for (let i = heap.length - 1; i > 0; ) {
			const parent = (i - 1) >> 1;
			if (heap[parent].deadline <= heap[i].deadline) break;
			[heap[parent], heap[i]] = [heap[i], heap[parent]];
			i = parent;
		}
	}

	private heapPop(): void {
		const heap = this.deadlines;
		const last = heap.pop() as T;
		if (heap.length === 0) return;
		heap[0] = last;
		this.siftDown(0);
	}

	private siftDown(start: number): void {
		const heap = this.deadlines;
		for (let i = start; ; ) {
			const left = 2 * i + 1;
			const right = left + 1;
			let least = i;
			if (left < heap.length && heap[left].deadline < heap[least].deadline) least = left;
			if (right < heap.length && heap[right].deadline < heap[least].deadline) least = right;
			if (least === i) return;
			[heap[least], heap[i]] = [heap[i], heap[least]];
			i = least;
		}
	}
}

/** The entries of `items` from `from` on that are not settled, in order (a loop: any length). */
function liveOf<T extends QueuedSend>(items: T[], from: number): T[] {
	const out: T[] = [];
	for (let i = from; i < items.length; i++) if (!items[i].settled) out.push(items[i]);
	return out;
}
