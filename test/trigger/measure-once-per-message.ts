/* eslint-disable -- development tooling, not shipped: n8n's node rules (eslint.config.mjs, n8n-node lint) are for nodes/ and credentials/ */
/**
 * The memory of One Execution per Message (nodes/ConversationInboxTrigger/oncePerMessage.ts),
 * measured: the heap held per remembered delivery and at the bound, and the time one check takes.
 * The README's figures ("One execution per message") come from this script:
 *
 *   node --expose-gc -r ts-node/register/transpile-only test/trigger/measure-once-per-message.ts
 *
 * Keys as the trigger makes them: the node's identity (a webhook ID) and a message key
 * (`message:<integration ID>:<message ID>`, 25-character IDs as the sandbox gives them); and the
 * longer body keys (`body:<integration ID>:<SHA-256>`).
 */
import { randomBytes, randomUUID } from 'node:crypto';

import { deliveryKey, forgetDeliveries, MAX_ENTRIES, rememberedCount, seenBefore } from '../../nodes/ConversationInboxTrigger/oncePerMessage';

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with node --expose-gc (see the header)');

const id = (): string => `c${randomBytes(12).toString('hex').slice(0, 24)}`;
const INTEGRATION = id();

function heapAfterGc(): number {
	gc!();
	gc!();
	return process.memoryUsage().heapUsed;
}

/** A delivery's key, as webhook() makes it: the payload and its key are garbage once answered. */
function keyOf(n: number, kind: 'message' | 'body') {
	const payload =
		kind === 'message'
			? { data: { message: { id: id(), text: 'x' } } }
			: { timestamp: new Date(n).toISOString(), data: { message: { text: `text ${n}` } } };
	return deliveryKey('MESSAGE_RECEIVED', payload, {}, { integrationId: INTEGRATION, windowMinutes: 10 })!;
}

function fill(count: number, kind: 'message' | 'body'): { bytesPerEntry: number; msPerCheck: number } {
	forgetDeliveries();
	const nodes = Array.from({ length: 20 }, () => `webhook:${randomUUID()}`);
	const before = heapAfterGc();
	for (let n = 0; n < count; n++) seenBefore(nodes[n % nodes.length], keyOf(n, kind), 0);
	const after = heapAfterGc();
	if (rememberedCount() !== Math.min(count, MAX_ENTRIES)) throw new Error(`remembered ${rememberedCount()}, expected ${Math.min(count, MAX_ENTRIES)}`);
	// The check alone (keys made beforehand), on a full memory: each one drops the oldest.
	const keys = Array.from({ length: 20_000 }, (_, n) => keyOf(count + n, kind));
	const started = performance.now();
	for (let n = 0; n < keys.length; n++) seenBefore(nodes[n % nodes.length], keys[n], 0);
	const msPerCheck = (performance.now() - started) / keys.length;
	return { bytesPerEntry: (after - before) / Math.min(count, MAX_ENTRIES), msPerCheck };
}

for (const kind of ['message', 'body'] as const) {
	const atBound = fill(MAX_ENTRIES, kind);
	console.log(
		`${kind} keys: ${atBound.bytesPerEntry.toFixed(0)} B per remembered delivery; ${((atBound.bytesPerEntry * MAX_ENTRIES) / 1024 / 1024).toFixed(1)} MB at the bound (${MAX_ENTRIES} entries); ` +
			`${(atBound.msPerCheck * 1000).toFixed(2)} µs per check at the bound (the oldest dropped each time); ${rememberedCount()} held after ${MAX_ENTRIES + 20_000} deliveries`,
	);
}
forgetDeliveries();
console.log(`after forgetting: ${rememberedCount()} held, node ${process.version}`);
