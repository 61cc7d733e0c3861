/* eslint-disable -- development tooling, not shipped: n8n's node rules (eslint.config.mjs, n8n-node lint) are for nodes/ and credentials/ */
/** setTimeout with bookkeeping, so reset() and close() can cancel everything still pending. */
export class Timers {
	private readonly pending = new Set<NodeJS.Timeout>();

	set(fn: () => void, ms: number): void {
		const handle = setTimeout(() => {
			this.pending.delete(handle);
			fn();
		}, ms);
		this.pending.add(handle);
	}

	sleep(ms: number): Promise<void> {
		return ms > 0 ? new Promise((resolve) => this.set(resolve, ms)) : Promise.resolve();
	}

	get size(): number {
		return this.pending.size;
	}

	clear(): void {
		for (const handle of this.pending) clearTimeout(handle);
		this.pending.clear();
	}
}
