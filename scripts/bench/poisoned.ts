/* eslint-disable -- development tooling, not shipped: n8n's node rules (eslint.config.mjs, n8n-node lint) are for nodes/ and credentials/ */
/**
 * Issue 35's figure for "one poisoned item holds nothing" (DESIGN.md "The API's pace", a spent
 * quota, decided 2026-11-26): Tag → Remove From Contact of 200 items through n8n-core's RoutingNode
 * against the sandbox (no rate limit), in one process, alternating
 *   - clean:     all 200 accepted;
 *   - poisoned:  the first item refused every time (429 with Retry-After: 60, then 86400),
 * each run with a fresh limiter (a fresh n8n process's). The time of a run is from its start to the
 * sandbox's last accepted answer of the 199 other items (the same 199 in every run); a poisoned
 * run is cancelled once they are done (its refused item would wait out its minute). Prints each
 * run, the medians and their ratio (target: at most 1.5).
 *
 *   npx ts-node --transpile-only scripts/bench/poisoned.ts [--rounds 5] [--items 200]
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

process.env.N8N_USER_FOLDER ??= mkdtempSync(join(tmpdir(), 'n8n-bench-'));

import { DirectoryLoader } from 'n8n-core';

import { forgetPaces } from '../../nodes/shared/pace';
import { runRoutingNode } from '../../test/helpers/n8n-harness';
import { BIG_TAG_CONTACTS, REMOVAL_PATH, itemsFor, membersOf, phoneOf, removeBigTag } from '../../test/reliability/bulk';
import { startSandbox } from '../../test/sandbox';

// By its full name: under plain Node resolution "ConversationInbox.node" finds the codex file
// ConversationInbox.node.json before the .ts source (as scripts/bench/pagination.ts).
const { ConversationInbox } = require(join(__dirname, '../../nodes/ConversationInbox/ConversationInbox.node.ts')) as typeof import('../../nodes/ConversationInbox/ConversationInbox.node');

/** The node as n8n's loader prepares it (Request Options added), as test/helpers/node-runner.ts does. */
function loadedNode(): InstanceType<typeof ConversationInbox> {
	const node = new ConversationInbox();
	// A VersionedNodeType: n8n's loader prepares every version.
	for (const version of Object.values(node.nodeVersions)) DirectoryLoader.applyDeclarativeNodeOptionParameters(version);
	return node;
}

const argument = (name: string, fallback: number): number => {
	const at = process.argv.indexOf(`--${name}`);
	return at === -1 ? fallback : Number(process.argv[at + 1]);
};
const ROUNDS = argument('rounds', 5);
const ITEMS = argument('items', 200);
const TARGET = 1.5;

const median = (values: number[]): number => {
	const sorted = [...values].sort((a, b) => a - b);
	const middle = sorted.length >> 1;
	return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

async function main(): Promise<void> {
	const sandbox = await startSandbox({ quiet: true, seed: { contactsOnBigTag: BIG_TAG_CONTACTS } });
	type Case = 'clean' | 'poisoned 60 s' | 'poisoned 86400 s';
	const cases: Array<{ name: Case; retryAfterSeconds?: number }> = [
		{ name: 'clean' },
		{ name: 'poisoned 60 s', retryAfterSeconds: 60 },
		{ name: 'poisoned 86400 s', retryAfterSeconds: 86_400 },
	];
	const times = new Map<Case, number[]>(cases.map((c) => [c.name, []]));
	/** from the first request's arrival: without n8n's preparation of the items, the pace alone */
	const sending = new Map<Case, number[]>(cases.map((c) => [c.name, []]));
	try {
		// One warm-up run (module loading, JIT), not counted.
		for (let round = 0; round <= ROUNDS; round++) {
			for (const { name, retryAfterSeconds } of cases) {
				sandbox.reset();
				forgetPaces();
				const phones = membersOf(sandbox).slice(0, ITEMS);
				const poisoned = phones[0];
				const others = new Set(phones.slice(1));
				if (retryAfterSeconds !== undefined) {
					sandbox.addFault({ path: REMOVAL_PATH, match: poisoned, kind: 'status', status: 429, retryAfterSeconds, times: Infinity });
				}
				const controller = new AbortController();
				const started = Date.now();
				const running = runRoutingNode('conversationInbox', loadedNode(), {
					parameters: removeBigTag,
					items: itemsFor(phones),
					signal: controller.signal,
					mode: 'trigger',
					continueOnFail: true,
					credentials: { baseUrl: sandbox.baseUrl, apiToken: sandbox.token },
				}).catch((error: unknown) => { if (!controller.signal.aborted) console.error(error); });
				const done = await sandbox.waitForRequests(
					(requests) => requests.filter((r) => r.path === REMOVAL_PATH && r.status === 200 && others.has(phoneOf(r))).length === others.size,
					120_000,
				);
				const lastAnswer = Math.max(...done.filter((r) => r.path === REMOVAL_PATH && r.status === 200 && others.has(phoneOf(r))).map((r) => r.answeredAt!));
				controller.abort();
				await running;
				const elapsed = lastAnswer - started;
				const firstRequest = Math.min(...done.filter((r) => r.path === REMOVAL_PATH).map((r) => r.at));
				const refused = sandbox.requests.filter((r) => r.path === REMOVAL_PATH && r.status === 429).length;
				if (round > 0) {
					times.get(name)!.push(elapsed);
					sending.get(name)!.push(lastAnswer - firstRequest);
				}
				console.log(`${round === 0 ? 'warm-up' : `round ${round}`}\t${name}\t${elapsed} ms to the ${others.size} others done\t(first request → last answer ${lastAnswer - firstRequest} ms; ${refused} refused)`);
			}
		}
	} finally {
		await sandbox.close();
	}
	console.log(`\n${ITEMS} items, ${ROUNDS} rounds, medians (time to the ${ITEMS - 1} other items done):`);
	for (const [label, figures] of [['from the start', times], ['first request → last answer', sending]] as const) {
		const clean = median(figures.get('clean')!);
		console.log(`${label}:\tclean ${clean} ms`);
		for (const name of ['poisoned 60 s', 'poisoned 86400 s'] as const) {
			const value = median(figures.get(name)!);
			const ratio = value / clean;
			console.log(`\t${name}\t${value} ms\t${ratio.toFixed(2)}× clean\t${ratio <= TARGET ? 'ok' : 'OVER'} (target ≤ ${TARGET}×)`);
		}
	}
}

main().then(
	() => process.exit(0),
	(error: unknown) => {
		console.error(error);
		process.exit(1);
	},
);
