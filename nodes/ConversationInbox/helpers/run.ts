import type { ICredentialDataDecryptedObject, IExecuteSingleFunctions } from 'n8n-workflow';

import { monotonicNow, waitFor } from '../../shared/clock';
import { cancelSignalOf, CREDENTIAL_NAME, nodeKeyOf, nodeOf, runIndexOf } from '../../shared/transport';

/**
 * What the items of one run of the action node share (issue 31, docs/performance.md "Freeze").
 *
 * n8n's routing engine prepares every input item before any request leaves, in one loop that never
 * yields, and starts each item's operation (operation.ts `runOperation`) as it goes; the items'
 * requests are awaited together after the loop. While that loop and what follows it run, n8n
 * answers nothing: no editor, no webhook, no `/healthz`. So:
 * - **The credential is read once per run** and handed to every request of it. n8n reads it once
 *   per run for its own `$credentials` too; read per item it cost two database queries and two
 *   decryptions per item (ours, and `httpRequestWithAuthentication`'s), queued in front of
 *   everything else n8n asks its database, a webhook's execution included.
 * - **Each item's own preparation waits for its turn, in slices** of at most `SLICE.items` items or
 *   `SLICE.ms`, with a turn of n8n's event loop between two slices: n8n answers between them and
 *   the first requests leave at once. n8n's own loop before it cannot be sliced by a node.
 *
 * A run is one execution (its cancel signal), node and run index. Without a cancel signal (no n8n
 * that runs this node lacks it) nothing is shared: one read and one slice per item.
 */
export const SLICE = Object.freeze({ items: 50, ms: 20 });

interface Waiter {
	resolve: () => void;
	reject: (error: Error) => void;
}

/** Turns of a run's items, in slices with a turn of n8n's event loop between two (see above). */
export class Slices {
	private sliceStart: number | undefined;
	private inSlice = 0;
	private readonly waiting: Waiter[] = [];
	private pumping = false;

	constructor(private readonly signal?: AbortSignal) {}

	/** Resolves when the caller may do its work; rejects when the execution is cancelled. */
	async turn(): Promise<void> {
		if (!this.pumping && this.waiting.length === 0 && this.hasRoom()) {
			this.take();
			return;
		}
		const turn = new Promise<void>((resolve, reject) => this.waiting.push({ resolve, reject }));
		if (!this.pumping) void this.pump();
		await turn;
	}

	private hasRoom(): boolean {
		if (this.sliceStart === undefined) return true;
		return this.inSlice < SLICE.items && monotonicNow() - this.sliceStart < SLICE.ms;
	}

	private take(): void {
		if (this.sliceStart === undefined) this.sliceStart = monotonicNow();
		this.inSlice++;
	}

	private async pump(): Promise<void> {
		this.pumping = true;
		try {
			while (this.waiting.length > 0) {
				if (!this.hasRoom()) {
					// A timer, not a promise: only a macrotask lets n8n's event loop answer in between.
					await waitFor(0, this.signal);
					this.sliceStart = undefined;
					this.inSlice = 0;
				}
				this.take();
				this.waiting.shift()?.resolve();
				// One promise step between two releases: the released items' work runs in between, so
				// the slice's clock counts it (a step or two late, not a slice late).
				await Promise.resolve();
			}
		} catch (error) {
			for (const waiter of this.waiting.splice(0)) waiter.reject(error as Error);
		} finally {
			this.pumping = false;
		}
	}
}

export interface Run {
	/** the credential, read once (a failed read is not kept: the next item reads again) */
	credentials: () => Promise<ICredentialDataDecryptedObject>;
	slices: Slices;
}

const runs = new WeakMap<AbortSignal, Map<string, Run>>();

function newRun(fn: IExecuteSingleFunctions, signal: AbortSignal | undefined): Run {
	let read: Promise<ICredentialDataDecryptedObject> | undefined;
	return {
		credentials: async () => {
			read ??= fn.getCredentials(CREDENTIAL_NAME).catch((error: unknown) => {
				read = undefined;
				throw error;
			});
			return await read;
		},
		slices: new Slices(signal),
	};
}

/** The run this item belongs to (created by its first item). */
export function runOf(fn: IExecuteSingleFunctions): Run {
	const signal = cancelSignalOf(fn);
	const runIndex = runIndexOf(fn);
	if (!signal || runIndex === undefined) return newRun(fn, signal);
	const key = `${nodeKeyOf(nodeOf(fn))}\u0000${runIndex}`;
	const ofExecution = runs.get(signal) ?? new Map<string, Run>();
	runs.set(signal, ofExecution);
	let run = ofExecution.get(key);
	if (!run) {
		run = newRun(fn, signal);
		ofExecution.set(key, run);
	}
	return run;
}
