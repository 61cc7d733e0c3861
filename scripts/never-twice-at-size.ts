/* eslint-disable -- development tooling, not shipped: n8n's node rules (eslint.config.mjs, n8n-node lint) are for nodes/ and credentials/ */
/**
 * Never twice at the SHIPPED bounds (issue 35; the jest suite runs the same cases with the bounds
 * lowered, test/reliability/never-twice-at-size.test.ts):
 *
 *   node --expose-gc -r ts-node/register/transpile-only scripts/never-twice-at-size.ts [--items 25000,100000] [--memory-only]
 *
 * 1. The memory a run holds: 100 000 writes of Tag → Remove From Contact answers (the sandbox's
 *    answer shape) put through writes.ts, heap measured after a full GC: the facts, and the
 *    answers (20 000 held at most).
 * 2. For each --items N: n8n-core's WorkflowExecute runs Tag → Remove From Contact over N items
 *    with Retry On Fail (3 tries), one item refused (HTTP 400) on the first try, against the
 *    sandbox (no rate limit: the case is the memory); prints what the sandbox received per contact
 *    (every accepted write must be received once, the refused one twice) and the time.
 */
import { performance } from 'node:perf_hooks';

import type { IDataObject } from 'n8n-workflow';

import { forgetAllWrites, heldWrites, limits, SHIPPED_LIMITS, writeOnce } from '../nodes/shared/writes';
import { DEMO, startSandbox, type Sandbox } from '../test/sandbox';
import { runWorkflow } from '../test/helpers/workflow-runner';

const args = process.argv.slice(2);
const argOf = (name: string): string | undefined => {
	const index = args.indexOf(name);
	return index >= 0 ? args[index + 1] : undefined;
};
const ITEMS = (argOf('--items') ?? '25000').split(',').map(Number);
const MEMORY_ONLY = args.includes('--memory-only');

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

function seedContacts(sandbox: Sandbox, count: number): void {
	for (let index = 0; index < count; index++) {
		sandbox.state.addContact({
			phoneNumber: `5599${String(index).padStart(9, '0')}`,
			lid: null,
			name: `Contact ${index}`,
			params: {},
			tags: new Map([[DEMO.tags.vip.id, 0]]),
			customFields: new Map(),
			assignedTemplateIds: [],
			createdAt: new Date(0).toISOString(),
		});
	}
}

async function retryRun(sandbox: Sandbox, count: number): Promise<void> {
	sandbox.reset();
	forgetAllWrites();
	seedContacts(sandbox, count);
	const phone = (index: number) => `5599${String(index).padStart(9, '0')}`;
	const refused = count - 2;
	sandbox.addFault({ kind: 'status', status: 400, method: 'POST', path: '/tag/remove-from-contact', match: phone(refused), times: 1 });
	const items = Array.from({ length: count }, (_, index) => ({ phone: phone(index) }));
	const started = performance.now();
	const result = await runWorkflow(sandbox, {
		parameters: { resource: 'tag', operation: 'removeFromContact', phoneNumber: '={{ $json.phone }}', tagIds: [DEMO.tags.vip.id] },
		items,
		executionId: `never-twice-at-size-${count}`,
		onError: 'stopWorkflow',
		retryOnFail: true,
		maxTries: 3,
		waitBetweenTries: 10,
	});
	const seconds = (performance.now() - started) / 1000;
	const counts = new Map<string, number>();
	for (const request of sandbox.requests) {
		if (request.path !== '/v2/tag/remove-from-contact') continue;
		const phoneNumber = (request.body as IDataObject).phoneNumber as string;
		counts.set(phoneNumber, (counts.get(phoneNumber) ?? 0) + 1);
	}
	let once = 0;
	let twice = 0;
	let other = 0;
	for (let index = 0; index < count; index++) {
		const received = counts.get(phone(index)) ?? 0;
		if (index === refused ? received === 2 : received === 1) once++;
		else if (received === 2) twice++;
		else other++;
	}
	const output = result.outputs[0] ?? [];
	const forgotten = output.filter((item) => /no longer held in memory/.test(String(item.json.note))).length;
	const held = heldWrites();
	console.log(
		`${count} items, Retry On Fail 3 tries, item ${refused} refused once: ${once} received as expected (accepted once; the refused one refused + accepted), ` +
			`${twice} accepted writes received twice, ${other} other; execution ${result.error ? `failed: ${result.error.message}` : 'succeeded'}; ` +
			`${output.length} output items (${forgotten} answered from the fact alone); memory after: ${held.facts} facts, ${held.answers} answers; ${seconds.toFixed(1)} s`,
	);
}

async function main(): Promise<void> {
	console.log(`shipped bounds: ${SHIPPED_LIMITS.maxAnswers} answers, a run kept ${SHIPPED_LIMITS.runIdleMs / 60_000} min after its last activity`);
	await measureMemory(100_000, SHIPPED_LIMITS.maxAnswers);
	// The facts alone: what every write costs whatever the bound.
	await measureMemory(100_000, 0);
	if (MEMORY_ONLY) return;
	const sandbox = await startSandbox({ quiet: true });
	try {
		for (const count of ITEMS) await retryRun(sandbox, count);
	} finally {
		await sandbox.close();
	}
}

main().then(
	() => process.exit(0),
	(error: unknown) => {
		console.error(error);
		process.exit(1);
	},
);
