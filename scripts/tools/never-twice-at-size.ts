/* eslint-disable -- development tooling, not shipped: n8n's node rules (eslint.config.mjs, n8n-node lint) are for nodes/ and credentials/ */
/**
 * The memory of writes at the SHIPPED bounds (issue 35): 100 000 writes of Tag → Remove From Contact
 * answers (the sandbox's answer shape) put through writes.ts, heap measured after a full GC: with
 * the shipped 20 000 answers held, and the facts alone.
 *
 *   node --expose-gc -r ts-node/register/transpile-only scripts/tools/never-twice-at-size.ts
 *
 * The same cases through n8n-core's WorkflowExecute at the shipped bounds are the jest suite's,
 * with its sizes raised (it needs ts-jest to load the node):
 *
 *   NEVER_TWICE_ITEMS=25000 NEVER_TWICE_ANSWERS=20000 npx jest test/reliability/never-twice-at-size.test.ts
 */
import type { IDataObject } from 'n8n-workflow';

import { forgetAllWrites, heldWrites, limits, SHIPPED_LIMITS, writeOnce } from '../../nodes/shared/writes';
import { DEMO } from '../../test/sandbox';


const gc = (globalThis as { gc?: () => void }).gc;
const heapMb = (): number => {
	gc?.();
	gc?.();
	return process.memoryUsage().heapUsed / 1024 / 1024;
};

async function measureMemory(writes: number, maxAnswers: number): Promise<void> {
	forgetAllWrites();
	limits.maxAnswers = maxAnswers;
	const before = heapMb();
	for (let item = 0; item < writes; item++) {
		const phoneNumber = `5599${String(item).padStart(9, '0')}`;
		const value: IDataObject = {
			success: true,
			data: {
				contact: { chatId: `${phoneNumber}@s.whatsapp.net`, phoneNumber, chatInternalId: `c${String(item).padStart(24, '0')}`, name: `Contact ${item}` },
				removedTags: [{ id: DEMO.tags.vip.id, name: 'VIP', color: '#ff0000', createdAt: '2026-11-01T00:00:00.000Z', updatedAt: '2026-11-01T00:00:00.000Z' }],
				notInContact: [],
				tags: [],
				automations: { requested: false, triggered: false, reason: 'not requested', chatInternalId: '', results: [] },
			},
		};
		await writeOnce(
			{ execution: 'memory', node: 'node', run: 0, item },
			{ method: 'POST', baseURL: 'http://127.0.0.1:1/v2', url: '/tag/remove-from-contact', body: { phoneNumber, tagIds: [DEMO.tags.vip.id] } },
			async () => ({ kind: 'accepted', result: { ok: true, value } }),
		);
	}
	const after = heapMb();
	const held = heldWrites();
	console.log(
		`memory: ${writes} writes of one run held as ${held.facts} facts and ${held.answers} answers (bound ${maxAnswers}): ` +
			`${(after - before).toFixed(1)} MB of heap${gc ? '' : ' (run with --expose-gc for a clean figure)'}`,
	);
	forgetAllWrites();
	Object.assign(limits, SHIPPED_LIMITS);
}

async function main(): Promise<void> {
	console.log(`shipped bounds: ${SHIPPED_LIMITS.maxAnswers} answers, a run kept ${SHIPPED_LIMITS.runIdleMs / 60_000} min after its last activity`);
	await measureMemory(100_000, SHIPPED_LIMITS.maxAnswers);
	// The facts alone: what every write costs whatever the bound.
	await measureMemory(100_000, 0);
}

main().then(
	() => process.exit(0),
	(error: unknown) => {
		console.error(error);
		process.exit(1);
	},
);
