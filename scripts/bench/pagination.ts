/* eslint-disable -- development tooling, not shipped: n8n's node rules (eslint.config.mjs, n8n-node lint) are for nodes/ and credentials/ */
/**
 * Wall time of the node's Return All over the sandbox API with injected latency, through n8n-core's
 * real RoutingNode and real HTTP (no n8n server): tag contacts one page at a time vs. several at a
 * time, and the sequential lists (chats, templates) against their floor (pages × latency).
 * Prints figures; asserts nothing (speed is not a test).
 *
 *   npx ts-node --transpile-only scripts/bench/pagination.ts [--latency 20] [--runs 5]
 */
import { mkdtempSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';

// n8n-core writes its settings under N8N_USER_FOLDER on first use (as test/setup-env.ts does).
process.env.N8N_USER_FOLDER ??= mkdtempSync(join(tmpdir(), 'n8n-bench-'));

import type { INodeParameters } from 'n8n-workflow';

import { runRoutingNode } from '../../test/helpers/n8n-harness';
import { option } from './options';
import { DEMO, startSandbox } from '../../test/sandbox';
import type { Sandbox } from '../../test/sandbox';


// By its full name: under plain Node resolution "ConversationInbox.node" finds the codex file
// ConversationInbox.node.json before the .ts source.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { ConversationInbox } = require(join(__dirname, '../../nodes/ConversationInbox/ConversationInbox.node.ts')) as typeof import('../../nodes/ConversationInbox/ConversationInbox.node');

const LATENCY_MS = option('latency', 20);
const RUNS = Math.max(1, Math.round(option('runs', 5)));
const SEED = { contactsOnBigTag: 10_000, templates: 2_000, chats: 25_000, messagesPerChat: 0 };

interface Case {
	label: string;
	parameters: INodeParameters;
	/** path of the list endpoint, to count its requests */
	path: string;
	/** round trips that cannot be avoided at this concurrency */
	floorTrips: (pages: number) => number;
}

const tagContacts = (concurrency: number): Case => ({
	label: `tag contacts, concurrency ${concurrency}${concurrency === 1 ? ' (sequential)' : ''}`,
	parameters: {
		resource: 'tag',
		operation: 'getContacts',
		tagId: DEMO.tags.big.id,
		returnAll: true,
		options: { concurrentPageRequests: concurrency },
	},
	path: '/v2/tag/list-contacts',
	floorTrips: (pages) => 1 + Math.ceil((pages - 1) / concurrency),
});

const CASES: Case[] = [
	tagContacts(1),
	tagContacts(2),
	tagContacts(4),
	tagContacts(10),
	{
		label: 'chats (attendance), 1000/page',
		parameters: { resource: 'chat', operation: 'getAll', category: 'attendance', returnAll: true },
		path: '/v2/inbox/find-all-chats',
		floorTrips: (pages) => pages,
	},
	{
		label: 'templates, 250/page (cursor)',
		parameters: {
			resource: 'template',
			operation: 'getAll',
			integrationId: DEMO.integrations.official.id,
			returnAll: true,
		},
		path: '/v2/provider-template/list',
		floorTrips: (pages) => pages,
	},
];

const median = (values: number[]): number => {
	const sorted = [...values].sort((a, b) => a - b);
	const mid = Math.floor(sorted.length / 2);
	return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

async function runCase(sandbox: Sandbox, item: Case): Promise<{ ms: number; items: number; pages: number; inFlight: number }> {
	sandbox.clearRequests();
	const started = process.hrtime.bigint();
	const out = await runRoutingNode('conversationInbox', new ConversationInbox(), {
		parameters: item.parameters,
		credentials: { baseUrl: sandbox.baseUrl, apiToken: sandbox.token },
	});
	const ms = Number(process.hrtime.bigint() - started) / 1e6;
	const pages = sandbox.requests.filter((r) => r.path === item.path).length;
	return { ms, items: out.length, pages, inFlight: sandbox.maxInFlight };
}

async function main(): Promise<void> {
	const sandbox = await startSandbox({ quiet: true, latencyMs: LATENCY_MS, seed: SEED });
	try {
		console.log(
			`Node ${process.version}, ${cpus()[0]?.model ?? 'unknown CPU'} × ${cpus().length}; sandbox latency ${LATENCY_MS} ms per request; median of ${RUNS} runs (after 1 warm-up)`,
		);
		const rows: string[][] = [['case', 'items', 'requests', 'max in flight', 'median ms', 'floor ms', 'vs floor', 'vs sequential']];
		let sequentialMs: number | undefined;
		for (const item of CASES) {
			await runCase(sandbox, item); // warm-up (module loading, connections)
			const samples: number[] = [];
			let last = { ms: 0, items: 0, pages: 0, inFlight: 0 };
			for (let run = 0; run < RUNS; run++) {
				last = await runCase(sandbox, item);
				samples.push(last.ms);
			}
			const ms = median(samples);
			const floor = item.floorTrips(last.pages) * LATENCY_MS;
			if (item.label.includes('(sequential)')) sequentialMs = ms;
			const speedup = item.label.startsWith('tag contacts') && sequentialMs ? `${(sequentialMs / ms).toFixed(2)}x faster` : '';
			rows.push([
				item.label,
				String(last.items),
				String(last.pages),
				String(last.inFlight),
				ms.toFixed(0),
				String(floor),
				`${(ms / floor).toFixed(2)}x`,
				speedup,
			]);
		}
		const widths = rows[0].map((_, column) => Math.max(...rows.map((row) => row[column].length)));
		for (const [index, row] of rows.entries()) {
			console.log(row.map((cell, column) => (column === 0 ? cell.padEnd(widths[column]) : cell.padStart(widths[column]))).join('  '));
			if (index === 0) console.log(widths.map((w) => '-'.repeat(w)).join('  '));
		}
		console.log('floor = unavoidable round trips × latency: tag contacts 1 + ⌈(pages − 1) / concurrency⌉, the sequential lists one per page.');
	} finally {
		await sandbox.close();
	}
}

main().catch((error: unknown) => {
	console.error(error);
	process.exitCode = 1;
});
