/* eslint-disable -- development tooling, not shipped: n8n's node rules (eslint.config.mjs, n8n-node lint) are for nodes/ and credentials/ */
/**
 * The memory of writes' figures (README "Retry On Fail"; issue 35, issue 42 Build 8), measured:
 * writes put through writes.ts as the request path puts them (the same scope, request and outcome
 * shapes; the outcomes' values and errors made by the node's own reader and error builder), the
 * heap measured after full garbage collections.
 *
 *   node --expose-gc -r ts-node/register/transpile-only scripts/tools/never-twice-at-size.ts [--writes N] [--json]
 *
 * It prints, for the README:
 * - bytes per FACT (what every write done costs for its run's whole life): in one run of 100 000
 *   writes, and in 100 000 executions of one write each (a run's own cost included);
 * - bytes per held ANSWER: a Tag → Remove From Contact answer (the sandbox's shape), and an unknown
 *   outcome (HTTP 502), whose error carries a copy of the node (its parameters) and a stack;
 * - the memory at the bound: 100 000 writes of one run with the shipped 20 000 answers held, of
 *   each kind;
 * - the release of idle runs: with the idle bound lowered to 2 s, the memory (and the heap) after
 *   the bound passed without any new write.
 * The same cases through n8n-core's WorkflowExecute at the shipped bounds are the jest suite's,
 * with its sizes raised (it needs ts-jest to load the node):
 *
 *   NEVER_TWICE_ITEMS=25000 NEVER_TWICE_ANSWERS=20000 npx jest test/reliability/never-twice-at-size.test.ts
 */
import { NodeApiError } from 'n8n-workflow';
import type { IDataObject, INode } from 'n8n-workflow';

import { apiError } from '../../nodes/shared/errors';
import type { WriteOutcome } from '../../nodes/shared/writes';
import { forgetAllWrites, heldWrites, limits, SHIPPED_LIMITS, writeOnce } from '../../nodes/shared/writes';
import { DEMO } from '../../test/sandbox';

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) {
	console.error('Run with node --expose-gc (see the header): the figures need full garbage collections.');
	process.exit(2);
}
const heap = (): number => {
	for (let i = 0; i < 4; i++) gc();
	return process.memoryUsage().heapUsed;
};

/** `--writes N`: writes per case (100 000); `--json`: only the four per-write figures, as JSON (memory-figures.test.ts). */
const argument = (name: string): string | undefined => {
	const at = process.argv.indexOf(`--${name}`);
	return at < 0 ? undefined : process.argv[at + 1];
};
const WRITES = Number(argument('writes') ?? 100_000);
const JSON_ONLY = process.argv.includes('--json');
const BASE_URL = 'https://api.example.com/v2';
const PATH = '/tag/remove-from-contact';

/** The action node as an execution holds it (what a NodeApiError copies): Tag → Remove From Contact. */
const NODE: INode = {
	id: '6f1c1a52-8d0f-4b7e-9d44-6a0f4d7c2b11',
	name: 'Remove VIP tag',
	type: 'n8n-nodes-conversation-inbox.conversationInbox',
	typeVersion: 2,
	position: [460, 300],
	parameters: { resource: 'tag', operation: 'removeFromContact', phoneNumber: '={{ $json.phone }}', tagIds: [DEMO.tags.vip.id], options: {} },
	credentials: { conversationInboxApi: { id: 'k3Vq9ZxY2bT8aPc1', name: 'Conversation Inbox account' } },
};

const phoneOf = (item: number): string => `5599${String(item).padStart(9, '0')}`;
const scopeOf = (execution: string, item: number) => ({ execution, node: NODE.id, run: 0, item });
const sentOf = (item: number) => ({ method: 'POST', baseURL: BASE_URL, url: PATH, body: { phoneNumber: phoneOf(item), tagIds: [DEMO.tags.vip.id] } });

/** The answer the sandbox gives a removal (data.contact, removedTags …), as the reader hands it on. */
function acceptedOf(item: number): WriteOutcome {
	const phoneNumber = phoneOf(item);
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
	return { kind: 'accepted', result: { ok: true, value } };
}

/** A 502 as the request path reports it: the error the item shows on its first try (node copy, stack). */
function unknownOf(): WriteOutcome {
	const error: NodeApiError = apiError({ ...NODE, parameters: structuredClone(NODE.parameters) }, { statusCode: 502, body: { success: false, message: 'Erro ao enviar mensagem' }, method: 'POST', path: PATH, redact: ['sandbox-token'] }, 0);
	return { kind: 'unknown', error };
}

async function fill(executions: (item: number) => string, outcome: (item: number) => WriteOutcome, writes = WRITES): Promise<void> {
	for (let item = 0; item < writes; item++) {
		const execution = executions(item);
		await writeOnce(scopeOf(execution, execution === 'one run' ? item : 0), sentOf(item), async () => outcome(item));
	}
}

/** Heap growth per write of `fill`, in bytes, with `maxAnswers` answers held at most. */
async function perWrite(maxAnswers: number, executions: (item: number) => string, outcome: (item: number) => WriteOutcome): Promise<{ bytes: number; total: number }> {
	forgetAllWrites();
	limits.maxAnswers = maxAnswers;
	const before = heap();
	await fill(executions, outcome);
	const total = heap() - before;
	const held = heldWrites();
	if (held.facts !== WRITES || held.answers !== Math.min(maxAnswers, WRITES)) throw new Error(`held ${JSON.stringify(held)}`);
	forgetAllWrites();
	Object.assign(limits, SHIPPED_LIMITS);
	return { bytes: total / WRITES, total };
}

const oneRun = (): string => 'one run';
const oneWriteEach = (item: number): string => `execution ${item}`;
const B = (bytes: number): string => `${Math.round(bytes)} B`;
const MB = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

async function main(): Promise<void> {
	if (JSON_ONLY) {
		const fact = (await perWrite(0, oneRun, acceptedOf)).bytes;
		const executionOfOneWrite = (await perWrite(0, oneWriteEach, acceptedOf)).bytes;
		const removeHeld = (await perWrite(WRITES, oneRun, acceptedOf)).bytes - fact;
		const unknownHeld = (await perWrite(WRITES, oneRun, unknownOf)).bytes - fact;
		process.stdout.write(JSON.stringify({ fact, executionOfOneWrite, removeHeld, unknownHeld }));
		return;
	}
	console.log(`shipped bounds: ${SHIPPED_LIMITS.maxAnswers} answers held, a run kept ${SHIPPED_LIMITS.runIdleMs / 60_000} min after its last activity; ${WRITES} writes per case`);

	const factsOneRun = await perWrite(0, oneRun, acceptedOf);
	const factsOneEach = await perWrite(0, oneWriteEach, acceptedOf);
	console.log(`fact: ${B(factsOneRun.bytes)} a write in one run of ${WRITES}; ${B(factsOneEach.bytes)} a write in ${WRITES} executions of one write each (its run's own cost included)`);

	// Answers: every write's answer held (the bound above the count), minus the facts alone.
	const accepted = await perWrite(WRITES, oneRun, acceptedOf);
	const unknown = await perWrite(WRITES, oneRun, unknownOf);
	console.log(`held answer: ${B(accepted.bytes - factsOneRun.bytes)} a Remove From Contact answer; ${B(unknown.bytes - factsOneRun.bytes)} an unknown outcome (HTTP 502; its error alone: ${B(errorBytes())})`);

	const boundAccepted = await perWrite(SHIPPED_LIMITS.maxAnswers, oneRun, acceptedOf);
	const boundUnknown = await perWrite(SHIPPED_LIMITS.maxAnswers, oneRun, unknownOf);
	console.log(`at the bound (${WRITES} writes of one run, ${SHIPPED_LIMITS.maxAnswers} answers held): ${MB(boundAccepted.total)} with Remove From Contact answers, ${MB(boundUnknown.total)} with unknown outcomes`);

	// Release of idle runs: the idle bound lowered to 2 s, no write after the runs (10 000 executions
	// of one write each, written in well under the 2 s).
	forgetAllWrites();
	limits.runIdleMs = 2_000;
	const before = heap();
	await fill(oneWriteEach, acceptedOf, 10_000);
	const filled = heap() - before;
	const heldBefore = heldWrites();
	await new Promise((resolve) => setTimeout(resolve, 2_500));
	const heldAfter = heldWrites();
	const left = heap() - before;
	console.log(
		`release: ${heldBefore.runs} idle runs (${MB(filled)}) held; 2.5 s later, with the idle bound at 2 s and no write since: ${heldAfter.runs} runs, ${heldAfter.facts} facts (${MB(Math.max(0, left))} left)`,
	);
	Object.assign(limits, SHIPPED_LIMITS);
	forgetAllWrites();
}

/** What one such error object costs on its own (kept alive in a list), for comparison. */
function errorBytes(): number {
	const count = 2_000;
	const before = heap();
	const kept = Array.from({ length: count }, () => (unknownOf() as { error: Error }).error);
	const bytes = (heap() - before) / count;
	if (kept.length !== count) throw new Error('lost');
	return bytes;
}

main().then(
	() => process.exit(0),
	(error: unknown) => {
		console.error(error);
		process.exit(1);
	},
);
