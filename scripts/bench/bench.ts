/* eslint-disable -- development tooling, not shipped: n8n's node rules (eslint.config.mjs, n8n-node lint) are for nodes/ and credentials/ */
/**
 * The performance benchmark (issues 8 and 16), in one real n8n (2.41.1) with the packed package,
 * against the sandbox API (10 000 contacts on one tag = 100 pages, 10 000 chats in one category = 10
 * pages of 1 000, 5 000 messages in one chat = 5 pages of 1 000, 2 000 templates = 8 pages of 250;
 * 20 ms injected latency per request). Prints tables; asserts nothing (speed is not a test).
 *
 *   npm run bench            (= ts-node --transpile-only scripts/bench/bench.ts)
 *   options: --runs 5 --latency 20 --burst 500 --burst-runs 3 --burst-concurrency 20
 *            --only tag,chats,messages,templates,trigger,bulk,stall,scale   (a subset of the cases; default all but scale)
 *            --bulk-items 1000 --bulk-rate 50 --bulk-runs 3 --baseline-ref main   (the bulk case, scripts/bench/bulk.ts)
 *            --stall-items 1000,10000 --stall-engines default,legacy --stall-batching 1x1,1x2,2x5,50x50
 *            --stall-poll 50 --stall-timeout 600   (the stall case, scripts/bench/stall.ts; batching = items per batch x interval ms)
 *                                                 (with --baseline-ref given, the stall case also runs that ref's package, without Batching, in the same run)
 *            --floor-rounds 3 --floor-items 1000  (issue 44: alternated rounds of ours and the floor nodes in the stall case, and the sizes the floors also run at; scripts/bench/floor.ts)
 *            --scale-runs 3                       (measured runs per scale point, scripts/bench/scale.ts)
 *            --cpu-prof DIR                       (n8n writes a V8 CPU profile there when it stops)
 *            --n8n-probe FILE                     (scripts/bench/n8n-probe.cjs: n8n's SQLite calls, the poller's webhook calls, event-loop delay)
 *            --n8n-env KEY=VALUE[,KEY=VALUE]      (extra environment for n8n, e.g. N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE=true)
 *            --trigger-version 2                  (typeVersion of our trigger in the burst; 1 for the old one)
 *            --queue [--workers 2]                (only the trigger burst: one process vs queue mode, see mainQueue)
 *
 * Per list case (scripts/bench/lists.ts) the figure is the node's own `executionTime` in the
 * execution's runData (what n8n shows as the node's run time), median of `--runs` runs after one
 * warm-up, for
 *   - our node (Return All, its default Concurrent Page Requests, read from the built node),
 *   - n8n's HTTP Request node with its own pagination (same page size, same Authorization header
 *     through a Header Auth credential), which is what a user would otherwise build, and
 *   - the bare fetch client (scripts/bench/bare-client.mjs): the same walk as plain fetch + JSON, at
 *     the tag contacts' default concurrency where the list allows it (speculative offset pages for
 *     chats and messages, as the issue asks of the node);
 *   - for tag contacts, the two floor nodes (scripts/bench/floor.ts: minimal declarative nodes with
 *     n8n's own offset pagination, two properties and our count of them),
 * against the floor: unavoidable round trips × latency. The ratios are taken in the same run and
 * compared with today's goals (scripts/bench/goals.ts; issue 16's targets are retired).
 *
 * The trigger case sends a burst of deliveries straight from this process to the production URL
 * (bounded concurrency) and takes the time from the first send until the last of the executions
 * stopped (n8n's stoppedAt), for our trigger and for n8n's plain Webhook node (same body, same
 * response mode: onReceived).
 *
 * Everything runs on 127.0.0.1; n8n is stopped (its whole process group) and the sandbox closed at
 * the end, also on failure. Uses the e2e harness (test/e2e/harness) for provisioning, packing,
 * installing, starting n8n, the owner, API key and credentials.
 */
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, totalmem, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

import { option, textOption } from './options';
import {
	CHAT_CATEGORY,
	declaredConcurrency,
	LIST_CASES,
	listWorkflow,
	log,
	measureBareClient,
	measureList,
	median,
	ms,
	printTable,
	ratio,
	seedLists,
	type BareClient,
	type ListCase,
	type ListSizes,
	type Measured,
	type Sample,
} from './lists';
import { baselineRuns, measureBulk, packBaseline, printBulk, type BulkResult, type BulkSettings } from './bulk';
import { measureScale } from './scale';
import { evaluationGoals, GOALS, printGoals, type GoalLine } from './goals';
import { describeBatching, findSample, floorFigures, measureStall, printStall, printStallBaseline, STALL_BATCHED_GAP_GOAL_MS, type StallResult, type StallSample, type StallSettings } from './stall';
import { FLOOR_CREDENTIAL_TYPE, FLOOR_NODES, installFloor } from './floor';
import { DEMO, startSandbox } from '../../test/sandbox';
import type { Sandbox } from '../../test/sandbox';
import { importAndActivate, type E2EContext } from '../../test/e2e/harness/context';
import type { CredentialRecord, WorkflowDefinition, WorkflowNode, WorkflowRecord } from '../../test/e2e/harness/n8n-client';
import { buildPackage, packPackage, type PackedPackage } from '../../test/e2e/harness/package';
import { N8N_VERSIONS, provisionN8n, REPO_ROOT } from '../../test/e2e/harness/provision';
import { describeMemory, describeStartup, startQueueStack, type QueueStack } from '../../test/e2e/harness/queue-stack';
import { startN8nStack, type N8nStack } from '../../test/e2e/harness/stack';
import { ACTION_NODE_TYPE, CREDENTIAL_TYPE, TRIGGER_NODE_TYPE, webhookNode } from '../../test/e2e/harness/workflows';

// ---- options --------------------------------------------------------------------------------

const LATENCY_MS = option('latency', 20);
const RUNS = Math.max(1, Math.round(option('runs', 5)));
const SCALE_RUNS = Math.max(1, Math.round(option('scale-runs', 3)));
const BURST = Math.max(1, Math.round(option('burst', 500)));
const BURST_RUNS = Math.max(1, Math.round(option('burst-runs', 3)));
const BURST_CONCURRENCY = Math.max(1, Math.round(option('burst-concurrency', 20)));
const ONLY = new Set((textOption('only') ?? 'tag,chats,messages,templates,trigger,bulk,stall').split(','));
/** Issue 24: the bulk case at the API's limit. */
const BULK: BulkSettings = {
	items: Math.max(1, Math.round(option('bulk-items', 1000))),
	rate: Math.max(1, Math.round(option('bulk-rate', 50))),
	latencyMs: LATENCY_MS,
	runs: Math.max(1, Math.round(option('bulk-runs', 3))),
};
const BASELINE_REF = textOption('baseline-ref') ?? 'main';
/** The stall case runs a baseline only when asked (it doubles the case's time): issue 36's "no worse than main in one run". */
const STALL_BASELINE_REF = textOption('baseline-ref');
/** `--name a,b,c` as a list (the fallback when absent). */
const listOption = (name: string, fallback: string): string[] => (textOption(name) ?? fallback).split(',').map((v) => v.trim()).filter(Boolean);
const CPU_PROFILE_DIR = textOption('cpu-prof');
/** n8n's node arguments: a V8 CPU profile written into CPU_PROFILE_DIR when it stops */
const N8N_NODE_ARGS = CPU_PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${CPU_PROFILE_DIR}`] : [];
/** --n8n-probe FILE (the stall case): scripts/bench/n8n-probe.cjs writes n8n's SQLite calls, the poller's webhook calls and its event-loop delay there */
const PROBE_FILE = textOption('n8n-probe');
/** --n8n-env: n8n settings to compare (the defaults are what is measured otherwise) */
const N8N_ENV: Record<string, string> = Object.fromEntries(
	(textOption('n8n-env') ?? '')
		.split(',')
		.filter((pair) => pair.includes('='))
		.map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]),
);
const TRIGGER_VERSION = option('trigger-version', 2);
/** --queue: the trigger burst on the queue-mode stack vs one process (test/e2e/harness/queue-stack.ts) */
const QUEUE = process.argv.includes('--queue');
const QUEUE_WORKERS = Math.max(1, Math.round(option('workers', 2)));
const REQUIRE_RUNS = 7;
/** Issue 16: every list has many pages. */
const SIZES: ListSizes = { tagContacts: 10_000, chats: 10_000, messages: 5_000, templates: 2_000 };
const HTTP_REQUEST_VERSION = 4.2;

/** Issue 31: the stall case. */
const STALL: StallSettings = {
	items: listOption('stall-items', '1000,10000').map((v) => Math.max(1, Math.round(Number(v)))),
	engines: listOption('stall-engines', 'default,legacy').map((engine) => {
		if (engine !== 'default' && engine !== 'legacy') throw new Error(`--stall-engines: "${engine}" is neither default nor legacy`);
		return engine;
	}),
	batching: listOption('stall-batching', '1x1,1x2,2x5,50x50').map((text) => {
		const match = /^(\d+)x(\d+)$/.exec(text);
		if (!match || Number(match[1]) < 1 || Number(match[2]) < 1) throw new Error(`--stall-batching: "${text}" is not <items per batch>x<interval ms> (both ≥ 1)`);
		return { size: Number(match[1]), intervalMs: Number(match[2]) };
	}),
	latencyMs: LATENCY_MS,
	pollMs: Math.max(1, option('stall-poll', 50)),
	timeoutMs: Math.max(10, option('stall-timeout', 600)) * 1000,
	env: {},
	floorRounds: Math.max(0, Math.round(option('floor-rounds', 3))),
	floorItems: listOption('floor-items', '1000').map((v) => Math.max(1, Math.round(Number(v)))),
};

// ---- small helpers --------------------------------------------------------------------------

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Runs `task(0..count-1)` with at most `limit` at a time. */
async function pool(count: number, limit: number, task: (index: number) => Promise<void>): Promise<void> {
	let next = 0;
	const worker = async (): Promise<void> => {
		while (next < count) await task(next++);
	};
	await Promise.all(Array.from({ length: Math.min(limit, count) }, worker));
}


// ---- trigger burst --------------------------------------------------------------------------

const TRIGGER_NODE = 'Inbox events';
const TRIGGER_EVENT = 'MESSAGE_RECEIVED';

function deliveryBody(i: number): Record<string, unknown> {
	return {
		event: TRIGGER_EVENT,
		integrationId: DEMO.integrations.whatsapp.id,
		data: {
			message: { id: `bench-${i}`, text: `Burst message ${i}`, direction: 'inbound', type: 'text', sentAt: new Date().toISOString() },
			contact: { phoneNumber: `55119${String(i).padStart(8, '0')}`, name: `Burst ${i}` },
		},
	};
}

interface BurstResult {
	/** first send → last execution's stoppedAt */
	ms: number;
	/** first send → last answer received */
	sendMs: number;
	statuses: Record<string, number>;
	failed: number;
	/** median of the executions' own run time (stoppedAt − startedAt) */
	executionMs: number;
}

async function burst(ctx: E2EContext, workflow: WorkflowRecord, url: string, headers: Record<string, string>): Promise<BurstResult> {
	const { client } = ctx;
	const known = await client.executionIds(workflow.id);
	const statuses: Record<string, number> = {};
	const started = Date.now();
	await pool(BURST, BURST_CONCURRENCY, async (i) => {
		const res = await fetch(url, {
			method: 'POST',
			headers: { 'content-type': 'application/json', ...headers },
			body: JSON.stringify(deliveryBody(i)),
		});
		await res.arrayBuffer();
		statuses[res.status] = (statuses[res.status] ?? 0) + 1;
	});
	const sendMs = Date.now() - started;
	const deadline = Date.now() + 300_000;
	for (;;) {
		const fresh = (await client.listExecutions(workflow.id)).filter((e) => !known.has(e.id));
		const done = fresh.filter((e) => e.stoppedAt && ['success', 'error', 'crashed', 'canceled'].includes(e.status));
		if (done.length >= BURST) {
			const last = Math.max(...done.map((e) => Date.parse(e.stoppedAt as string)));
			const own = median(done.map((e) => Date.parse(e.stoppedAt as string) - Date.parse(e.startedAt)));
			return { ms: last - started, sendMs, statuses, failed: done.filter((e) => e.status !== 'success').length, executionMs: own };
		}
		if (Date.now() > deadline) throw new Error(`burst on "${workflow.name}": ${done.length}/${BURST} executions finished after 300 s (answers ${JSON.stringify(statuses)})`);
		await sleep(1000);
	}
}

function triggerWorkflow(credential: CredentialRecord, webhookId: string): WorkflowDefinition {
	const node: WorkflowNode = {
		id: randomUUID(),
		name: TRIGGER_NODE,
		type: TRIGGER_NODE_TYPE,
		typeVersion: TRIGGER_VERSION,
		position: [0, 0],
		webhookId,
		parameters: {
			integrationId: { __rl: true, mode: 'id', value: DEMO.integrations.whatsapp.id },
			events: [TRIGGER_EVENT],
			transferType: 'ALL',
			delayMinutes: 0,
			options: {},
		},
		credentials: { [CREDENTIAL_TYPE]: { id: credential.id, name: credential.name } },
	};
	return { name: 'bench trigger', nodes: [node], connections: {}, settings: { executionOrder: 'v1' } };
}

/** Waits for the trigger's registration on the sandbox and its live URL; returns the headers the platform delivers with. */
async function triggerHeaders(ctx: E2EContext, workflowId: string, url: string): Promise<Record<string, string>> {
	const deadline = Date.now() + 30_000;
	while (Date.now() < deadline) {
		const registration = [...ctx.sandbox.state.webhooks.values()].find((w) => w.url === url && w.type === TRIGGER_EVENT);
		const probe = await ctx.client.raw('POST', url, { body: { probe: true } });
		if (registration && probe.status === 401) {
			return Object.fromEntries(registration.headers.map((h) => [h.key.toLowerCase(), h.value]));
		}
		await sleep(200);
	}
	throw new Error(`the trigger workflow ${workflowId} did not become live\n--- n8n log ---\n${ctx.stack.n8n.logTail(40)}`);
}

/**
 * Waits until a Webhook-node workflow's production URL is routed (2.x publishes asynchronously):
 * POSTs `body` until the answer is not 404. The delivery that gets through is the warm-up.
 */
async function waitRouted(url: string, body: unknown): Promise<void> {
	const deadline = Date.now() + 30_000;
	while (Date.now() < deadline) {
		const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
		await res.arrayBuffer();
		if (res.status !== 404) return;
		await sleep(200);
	}
	throw new Error(`${url} is not routed after 30 s`);
}

type BurstTarget = 'trigger' | 'plain' | 'plainV1';

/** A published workflow with our trigger, its production URL under `webhookBase`, and the platform's delivery headers. */
async function liveTrigger(ctx: E2EContext, webhookBase: string): Promise<{ workflow: WorkflowRecord; url: string; headers: Record<string, string> }> {
	const webhookId = randomUUID();
	const url = `${webhookBase}/webhook/${webhookId}/webhook`;
	const workflow = await ctx.client.createWorkflow(triggerWorkflow(ctx.stack.credential, webhookId));
	await ctx.client.activate(workflow.id);
	return { workflow, url, headers: await triggerHeaders(ctx, workflow.id, url) };
}

/**
 * The same bursts into our trigger, n8n's Webhook node v2 (the target) and v1 (control), in
 * rotating order; every workflow deactivated afterwards.
 */
async function measureTrigger(ctx: E2EContext): Promise<Record<BurstTarget, BurstResult[]>> {
	const { stack } = ctx;
	const { workflow: triggerWf, url: triggerUrl, headers } = await liveTrigger(ctx, stack.n8n.url);

	/** n8n's plain Webhook node (answers on receipt), in typeVersion 2 (current) or 1. */
	const plainWebhook = async (typeVersion: number): Promise<{ workflow: WorkflowRecord; url: string }> => {
		const path = `bench-plain-v${typeVersion}-${randomUUID()}`;
		const node = webhookNode('Webhook', path);
		node.typeVersion = typeVersion;
		node.parameters = { httpMethod: 'POST', path, responseMode: 'onReceived', options: {} };
		const workflow = await importAndActivate(ctx, { name: `bench plain webhook v${typeVersion}`, nodes: [node], connections: {}, settings: { executionOrder: 'v1' } });
		const url = `${stack.n8n.url}/webhook/${path}`;
		await waitRouted(url, deliveryBody(-1)); // also its warm-up delivery
		return { workflow, url };
	};
	const plain = await plainWebhook(2);
	// n8n 2.x lets only its own Webhook node (typeVersion >= 2, static parameters) answer without
	// taking the expression isolate (ExpressionEngineConfig.allowWebhookIsolateSkip, pool size 1);
	// typeVersion 1 of the same node does take it, as every other trigger does. Measured as a control.
	const plainV1 = await plainWebhook(1);

	// warm-up delivery for the trigger
	await fetch(triggerUrl, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(deliveryBody(-1)) }).then((r) => r.arrayBuffer());
	await sleep(2000);

	const runs: Record<BurstTarget, BurstResult[]> = { trigger: [], plain: [], plainV1: [] };
	for (let run = 0; run < BURST_RUNS; run++) {
		// rotate the order so that no side always runs on a warmer (or fuller) n8n
		const order: Array<[BurstTarget, () => Promise<BurstResult>]> = [
			['trigger', () => burst(ctx, triggerWf, triggerUrl, headers)],
			['plain', () => burst(ctx, plain.workflow, plain.url, {})],
			['plainV1', () => burst(ctx, plainV1.workflow, plainV1.url, {})],
		];
		for (let i = 0; i < run % order.length; i++) order.push(order.shift()!);
		for (const [which, go] of order) {
			const result = await go();
			runs[which].push(result);
			log(`burst ${run + 1} ${which}: ${result.ms} ms to the last execution (sent in ${result.sendMs} ms, answers ${JSON.stringify(result.statuses)}, failed ${result.failed}, median execution ${result.executionMs} ms)`);
			await sleep(1500);
		}
	}
	await stack.client.deactivate(triggerWf.id);
	await stack.client.deactivate(plain.workflow.id);
	await stack.client.deactivate(plainV1.workflow.id);
	return runs;
}

// ---- queue mode -----------------------------------------------------------------------------

/** The trigger's bursts (warm-up first) into one n8n setup; the workflow is unpublished afterwards. */
async function triggerBursts(ctx: E2EContext, webhookBase: string, label: string): Promise<BurstResult[]> {
	const { workflow, url, headers } = await liveTrigger(ctx, webhookBase);
	await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(deliveryBody(-1)) }).then((r) => r.arrayBuffer());
	await sleep(2000);
	const runs: BurstResult[] = [];
	for (let run = 0; run < BURST_RUNS; run++) {
		const result = await burst(ctx, workflow, url, headers);
		runs.push(result);
		log(`burst ${run + 1} ${label}: ${result.ms} ms to the last execution (sent in ${result.sendMs} ms, answers ${JSON.stringify(result.statuses)}, failed ${result.failed}, median execution ${result.executionMs} ms)`);
		await sleep(1500);
	}
	await ctx.client.deactivate(workflow.id);
	return runs;
}

/**
 * `--queue`: the trigger burst on one n8n process (the harness's default: regular mode, SQLite)
 * and on the queue-mode stack (main + `--workers` workers + webhook processor, Postgres, Redis),
 * one after the other, never both running at once.
 */
async function mainQueue(): Promise<void> {
	const install = await provisionN8n('2');
	log('building and packing the package');
	buildPackage();
	const packDir = mkdtempSync(join(tmpdir(), 'n8n-bench-pack-'));
	let sandbox: Sandbox | undefined;
	let single: N8nStack | undefined;
	let queue: QueueStack | undefined;
	try {
		const packed = packPackage(packDir);
		sandbox = await startSandbox({ quiet: true });
		const api = { baseUrl: sandbox.baseUrl, apiToken: sandbox.token };
		log(`single process: starting n8n ${install.version}`);
		single = await startN8nStack({ install, packed, api, folderPrefix: 'n8n-bench-', logLevel: 'info', env: N8N_ENV });
		const singleRuns = await triggerBursts({ major: '2', install, sandbox, stack: single, client: single.client }, single.n8n.url, 'single process');
		await single.stop();
		single = undefined;

		log(`queue mode: starting main + ${QUEUE_WORKERS} workers + webhook processor`);
		queue = await startQueueStack({ install, packed, api, workers: QUEUE_WORKERS, logLevel: 'info', env: N8N_ENV, log });
		const queueCtx: E2EContext = { major: '2', install, sandbox, stack: queue.asN8nStack(), client: queue.client };
		const queueRuns = await triggerBursts(queueCtx, queue.webhookUrl, `queue mode (${QUEUE_WORKERS} workers)`);
		const memory = queue.memory();
		const startup = queue.startup;

		const sMed = median(singleRuns.map((r) => r.ms));
		const qMed = median(queueRuns.map((r) => r.ms));
		const cpu = cpus();
		console.log('');
		console.log(`Machine: ${cpu[0]?.model ?? 'unknown CPU'} × ${cpu.length} cores, ${(totalmem() / 2 ** 30).toFixed(0)} GB RAM; n8n ${install.version}; bench on Node ${process.version}`);
		console.log(`Trigger burst: ${BURST} deliveries, ${BURST_CONCURRENCY} at a time, straight to the production URL with the platform's headers; ${BURST_RUNS} runs after 1 warm-up delivery.`);
		console.log('');
		printTable([
			['setup', 'runs (ms)', 'median', 'per delivery', 'one execution', 'failed', 'single / this'],
			['single process (regular mode, SQLite)', singleRuns.map((r) => r.ms).join(' / '), ms(sMed), `${(sMed / BURST).toFixed(1)} ms`, ms(median(singleRuns.map((r) => r.executionMs))), String(singleRuns.reduce((n, r) => n + r.failed, 0)), '1.00×'],
			[`queue mode: main + ${QUEUE_WORKERS} workers + webhook processor (Postgres, Redis)`, queueRuns.map((r) => r.ms).join(' / '), ms(qMed), `${(qMed / BURST).toFixed(1)} ms`, ms(median(queueRuns.map((r) => r.executionMs))), String(queueRuns.reduce((n, r) => n + r.failed, 0)), ratio(sMed / qMed)],
		]);
		console.log('(time from the first send until the last of the executions stopped, n8n\'s stoppedAt; every execution counted via the public API)');
		console.log('');
		console.log(`Queue stack start-up: ${describeStartup(startup)}`);
		console.log(`Memory after the bursts (RSS; children = n8n's task runner): ${describeMemory(memory)}`);
	} finally {
		await single?.stop();
		await queue?.stop();
		await sandbox?.close();
		rmSync(packDir, { recursive: true, force: true });
	}
}

// ---- package figures ------------------------------------------------------------------------

interface RequireTimes {
	/** our three dist files, with n8n-workflow already loaded (as in n8n) */
	ours: number;
	/** n8n-workflow alone, for scale */
	n8nWorkflow: number;
}

/** Time to require the built node and credential files in a fresh Node process (the Node n8n runs on). */
function requireTimes(nodeBinary: string): RequireTimes {
	const files = [
		'dist/credentials/ConversationInboxApi.credentials.js',
		'dist/nodes/ConversationInbox/ConversationInbox.node.js',
		'dist/nodes/ConversationInboxTrigger/ConversationInboxTrigger.node.js',
	].map((f) => join(REPO_ROOT, f));
	const script = `
		const t0 = process.hrtime.bigint();
		require('n8n-workflow');
		const t1 = process.hrtime.bigint();
		for (const f of ${JSON.stringify(files)}) require(f);
		const t2 = process.hrtime.bigint();
		console.log(JSON.stringify({ n8nWorkflow: Number(t1 - t0) / 1e6, ours: Number(t2 - t1) / 1e6 }));`;
	const samples: RequireTimes[] = [];
	for (let i = 0; i < REQUIRE_RUNS; i++) {
		const result = spawnSync(nodeBinary, ['-e', script], { cwd: REPO_ROOT, encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } });
		if (result.status !== 0) throw new Error(`require timing failed: ${result.stderr}`);
		samples.push(JSON.parse(result.stdout.trim()) as RequireTimes);
	}
	return { ours: median(samples.map((s) => s.ours)), n8nWorkflow: median(samples.map((s) => s.n8nWorkflow)) };
}

/** The tarball as `npm pack --dry-run` reports it (of the built repo). */
function tarballSize(): { bytes: number; files: number } {
	const result = spawnSync('npm', ['pack', '--dry-run', '--json'], { cwd: REPO_ROOT, encoding: 'utf8' });
	if (result.status !== 0) throw new Error(`npm pack --dry-run failed: ${result.stderr}`);
	const [info] = JSON.parse(result.stdout) as Array<{ size: number; entryCount: number }>;
	return { bytes: info.size, files: info.entryCount };
}

/** The trigger table; returns our median over the Webhook node v2's. */
function printBursts(runs: Record<BurstTarget, BurstResult[]>): number {
	const { trigger: triggerRuns, plain: plainRuns, plainV1: plainV1Runs } = runs;
	const tMed = median(triggerRuns.map((r) => r.ms));
	const pMed = median(plainRuns.map((r) => r.ms));
	const p1Med = median(plainV1Runs.map((r) => r.ms));
	console.log('');
	printTable([
		['trigger burst', 'deliveries', 'concurrency', 'runs (ms)', 'median', 'per delivery', 'one execution', 'failed', 'vs Webhook node'],
		['our trigger', String(BURST), String(BURST_CONCURRENCY), triggerRuns.map((r) => r.ms).join(' / '), ms(tMed), `${(tMed / BURST).toFixed(1)} ms`, ms(median(triggerRuns.map((r) => r.executionMs))), String(triggerRuns.reduce((n, r) => n + r.failed, 0)), ratio(tMed / pMed)],
		["n8n's Webhook node (v2)", String(BURST), String(BURST_CONCURRENCY), plainRuns.map((r) => r.ms).join(' / '), ms(pMed), `${(pMed / BURST).toFixed(1)} ms`, ms(median(plainRuns.map((r) => r.executionMs))), String(plainRuns.reduce((n, r) => n + r.failed, 0)), '1.00×'],
		["control: n8n's Webhook node v1", String(BURST), String(BURST_CONCURRENCY), plainV1Runs.map((r) => r.ms).join(' / '), ms(p1Med), `${(p1Med / BURST).toFixed(1)} ms`, ms(median(plainV1Runs.map((r) => r.executionMs))), String(plainV1Runs.reduce((n, r) => n + r.failed, 0)), ratio(p1Med / pMed)],
	]);
	console.log('(time from the first send until the last of the executions stopped, n8n\'s stoppedAt; every execution counted via the public API; one execution = median stoppedAt − startedAt)');
	return tMed / pMed;
}

// ---- the list table -------------------------------------------------------------------------

interface ListResult {
	item: ListCase;
	/** our node's declared Concurrent Page Requests default; undefined: one page after the other */
	oursConcurrency: number | undefined;
	bareConcurrency: number;
	ours: Measured;
	http: Measured;
	bare: BareClient;
	ours0?: Measured;
	http0?: Measured;
	/** issue 44: the floor nodes (tag contacts only) */
	floors?: { two: Measured; shape: Measured; two0?: Measured; shape0?: Measured; shapeProperties: number };
	workflows: WorkflowRecord[];
}

/** Requests a walk cannot do without: ⌈items/size⌉ when the end is known, else the full pages and the short (or empty) one after them. */
const neededRequests = (item: ListCase, items: number): number =>
	item.paging === 'untilShort' ? Math.floor(items / item.pageSize) + 1 : Math.max(1, Math.ceil(items / item.pageSize));

/** Round trips for `requests` when the first goes alone and the rest `concurrency` at a time. */
const roundTrips = (requests: number, concurrency: number): number => 1 + Math.ceil((requests - 1) / concurrency);

const atConcurrency = (concurrency: number | undefined): string => (concurrency && concurrency > 1 ? `concurrency ${concurrency}` : 'one page at a time');

function printLists(lists: ListResult[]): void {
	const rows: string[][] = [['case', 'client', 'items', 'requests', 'in flight', 'median', 'at 0 ms latency', 'API per request', 'vs latency floor', 'vs bare client', 'vs HTTP Request']];
	for (const { item, oursConcurrency, bareConcurrency, ours, http, bare, ours0, http0 } of lists) {
		const needed = neededRequests(item, bare.items);
		const floor = roundTrips(needed, bareConcurrency) * LATENCY_MS;
		const row = (client: string, items: string, m: Sample, zero: Measured | undefined, faster: string): string[] => [
			'',
			client,
			items,
			String(m.pages),
			String(m.maxInFlight),
			ms(m.nodeMs),
			zero ? ms(zero.median.nodeMs) : '',
			ms(m.apiPerRequestMs),
			ratio(m.nodeMs / floor),
			ratio(m.nodeMs / bare.median),
			faster,
		];
		rows.push([item.label, '', '', '', '', '', '', '', '', '', '']);
		rows.push(row(`our node (${atConcurrency(oursConcurrency)})`, String(ours.median.items), ours.median, ours0, `${ratio(http.median.nodeMs / ours.median.nodeMs)} faster`));
		rows.push(row('HTTP Request node pagination', `${http.median.items} (pages)`, http.median, http0, '1.00×'));
		const floors = lists.find((entry) => entry.item === item)?.floors;
		if (floors) {
			rows.push(row('floor: 2 properties (n8n offset pagination, 1 page at a time)', String(floors.two.median.items), floors.two.median, floors.two0, `${ratio(http.median.nodeMs / floors.two.median.nodeMs)} faster`));
			rows.push(row(`floor: our shape (${floors.shapeProperties} properties, the same)`, String(floors.shape.median.items), floors.shape.median, floors.shape0, `${ratio(http.median.nodeMs / floors.shape.median.nodeMs)} faster`));
		}
		rows.push(['', `bare fetch client (${atConcurrency(bareConcurrency)})`, String(bare.items), String(bare.pages), String(bare.maxInFlight), ms(bare.median), '', '', ratio(bare.median / floor), '1.00×', '']);
		if (bareConcurrency > 1) rows.push(['', 'floor: requests × latency', '', String(needed), '1', ms(needed * LATENCY_MS), '', '', '', '', '']);
		const floorLabel = bareConcurrency > 1 ? `floor: (1 + ⌈(requests−1)/${bareConcurrency}⌉) × latency` : 'floor: requests × latency';
		rows.push(['', floorLabel, '', String(needed), String(bareConcurrency), ms(floor), '', '', '1.00×', '', '']);
	}
	printTable(rows, 2);
	console.log('Columns: median = the node\'s executionTime; at 0 ms latency = the same node, same data, latency switched off (the cost of the requests themselves: n8n\'s request path, transfer, JSON, items, API handler); API per request = median arrival → answer at the sandbox (latency + handler); in flight = the most requests the sandbox had at once; latency floor = unavoidable round trips × latency at the bare client\'s concurrency; bare fetch client = the same walk by plain fetch + JSON in its own process on n8n\'s Node (scripts/bench/bare-client.mjs), i.e. what the API and network allow any client.');
	console.log('HTTP Request outputs one item per page (the raw body); our node outputs one item per element.');
}

/**
 * The stall case's n8n: the bench's node arguments and environment, plus with --n8n-probe the probe
 * preloaded, its file, and n8n's own node_modules for its sqlite3 (`bin` is <dir>/node_modules/n8n/bin/n8n).
 */
function stallN8n(bin: string): { env: Record<string, string>; nodeArgs: string[] } {
	if (!PROBE_FILE) return { env: N8N_ENV, nodeArgs: N8N_NODE_ARGS };
	return {
		env: { ...N8N_ENV, N8N_PROBE_FILE: resolve(PROBE_FILE), N8N_PROBE_MODULES: resolve(bin, '..', '..', '..') },
		nodeArgs: [...N8N_NODE_ARGS, '--require', join(__dirname, 'n8n-probe.cjs')],
	};
}

/** The HTTP Request node's longest gap with the same setting in the same run, for scale (not a goal). */
const sameRun = (http: StallSample | undefined): string => (http ? `; HTTP Request node, same setting and run: ${http.gapMs} ms` : '');

/** Today's goals (scripts/bench/goals.ts), each against the figure measured in this run. */
function goalLines(lists: ListResult[], bulk: BulkResult | undefined, stall: StallResult | undefined): GoalLine[] {
	const lines: GoalLine[] = [];
	for (const { item, bareConcurrency, ours, bare } of lists) {
		const same = ours.median.items === bare.items;
		const y = ours.median.nodeMs / bare.median;
		lines.push({
			goal: `${item.key}: ≤ ${GOALS.listVsBare}× the bare fetch client (${atConcurrency(bareConcurrency)})`,
			measured: same ? `${y.toFixed(3)}×` : `${y.toFixed(3)}× (our node returned ${ours.median.items} items, the bare client ${bare.items}: NOT THE SAME LIST)`,
			met: same && y <= GOALS.listVsBare,
		});
	}
	if (!lists.length) lines.push({ goal: `lists: ≤ ${GOALS.listVsBare}× the bare fetch client`, measured: '' });
	if (bulk) {
		const floorMs = (BULK.items / BULK.rate) * 1000;
		for (const s of bulk.limited.filter((x) => x.client === 'our node')) {
			lines.push({ goal: `bulk ${BULK.items} items at ${s.limit}: ≤ ${GOALS.bulkVsFloor}× the floor (${BULK.items / BULK.rate} s)`, measured: `${(s.ms / floorMs).toFixed(3)}× (${s.done} / ${s.items} done)`, met: s.done === s.items && s.ms / floorMs <= GOALS.bulkVsFloor });
		}
	} else lines.push({ goal: `bulk: ≤ ${GOALS.bulkVsFloor}× the floor`, measured: '' });
	const defaultEngine = stall?.engines.find((e) => e.engine === 'default');
	if (stall && defaultEngine) {
		for (const items of [...stall.settings.items].sort((a, b) => a - b)) {
			const ours = findSample(stall, 'default', 'ours', items, false);
			const limit = GOALS.stallGapPerItemMs * items;
			lines.push({
				goal: `stall ${items} items, no Batching: longest gap ≤ ${GOALS.stallGapPerItemMs} ms per item (${limit} ms)`,
				measured: ours ? `${ours.gapMs} ms (${(ours.gapMs / items).toFixed(2)} ms per item)${ours.timedOut ? ', timed out' : ''}${sameRun(findSample(stall, 'default', 'http', items, false))}` : 'not run (skipped)',
				met: ours ? !ours.timedOut && ours.gapMs <= limit : undefined,
			});
			const batched = findSample(stall, 'default', 'ours', items, true);
			lines.push({
				goal: `stall ${items} items, with Batching ${stall.chosen ? `(${describeBatching(stall.chosen)}${stall.chosenWithinGoal ? '' : ': the shortest gap of the candidates'})` : '(no candidate ran)'}: longest gap ≤ ${GOALS.stallBatchedGapMs} ms`,
				measured: batched ? `${batched.gapMs} ms${sameRun(findSample(stall, 'default', 'http', items, true))}` : stall.chosen ? 'not run (skipped)' : `no candidate kept it within ${STALL_BATCHED_GAP_GOAL_MS} ms`,
				met: batched ? !batched.timedOut && batched.gapMs <= GOALS.stallBatchedGapMs : stall.chosen ? undefined : false,
			});
		}
		const ours = findSample(stall, 'default', 'ours', 1000, false);
		const http = findSample(stall, 'default', 'http', 1000, false);
		lines.push({
			goal: `1 000 items without a limit: ≤ ${GOALS.stallVsHttpRequest}× the HTTP Request node's time`,
			measured: ours && http ? `${(ours.nodeMs / http.nodeMs).toFixed(3)}× (${ours.nodeMs} / ${http.nodeMs} ms)` : 'not measured (--stall-items has no 1000)',
			met: ours && http ? ours.nodeMs / http.nodeMs <= GOALS.stallVsHttpRequest : undefined,
		});
		const floor = floorFigures(stall);
		lines.push({
			goal: `the floor: ours / a declarative node of our shape (${stall.floor?.shapeProperties ?? '?'} properties) ≤ ${GOALS.oursVsSameShapeFloor}, n8n CPU per item`,
			measured: floor ? `${(floor.ours / floor.shape).toFixed(3)}× (${floor.ours.toFixed(2)} / ${floor.shape.toFixed(2)} ms, median of ${floor.rounds} rounds of ${floor.items} items)` : 'not run (--floor-rounds 0)',
			met: floor ? floor.ours / floor.shape <= GOALS.oursVsSameShapeFloor : undefined,
		});
		lines.push({
			goal: `the floor: ours / a declarative node of 2 properties (${stall.floor?.shapeProperties ?? '?'} vs 2: the cost of the shape; reported)`,
			measured: floor ? `${(floor.ours / floor.two).toFixed(3)}× (${floor.ours.toFixed(2)} / ${floor.two.toFixed(2)} ms)` : 'not run (--floor-rounds 0)',
			reported: floor !== undefined,
		});
	} else lines.push({ goal: `stall: longest gap ≤ ${GOALS.stallGapPerItemMs} ms per item, ≤ ${GOALS.stallBatchedGapMs} ms with Batching; 1 000 items ≤ ${GOALS.stallVsHttpRequest}× HTTP Request; the floor ≤ ${GOALS.oursVsSameShapeFloor}`, measured: '' });
	return [...lines, ...evaluationGoals()];
}

// ---- main -----------------------------------------------------------------------------------

/** Each selected list case: our node, the HTTP Request node, the bare client; then the same at 0 ms latency. */
async function measureLists(ctx: E2EContext, headerAuth: CredentialRecord, pageConcurrency: number, floor: { credential: CredentialRecord; shapeProperties: number }): Promise<ListResult[]> {
	const { stack, sandbox } = ctx;
	const lists: ListResult[] = [];
	for (const item of LIST_CASES.filter((c) => ONLY.has(c.key))) {
		const oursWf = await importAndActivate(ctx, listWorkflow(`bench ours ${item.key}`, item.ours, ACTION_NODE_TYPE, 2, stack.credential, CREDENTIAL_TYPE));
		const httpWf = await importAndActivate(
			ctx,
			listWorkflow(`bench http ${item.key}`, item.httpRequest(sandbox.baseUrl), 'n8n-nodes-base.httpRequest', HTTP_REQUEST_VERSION, headerAuth, 'httpHeaderAuth'),
		);
		const ours = await measureList(ctx, oursWf, item.path, `ours ${item.key}`, RUNS);
		const http = await measureList(ctx, httpWf, item.path, `HTTP Request ${item.key}`, RUNS);
		// A cursor list cannot be fetched ahead: its next page needs the one before.
		const bareConcurrency = item.paging === 'cursor' ? 1 : pageConcurrency;
		const bare = await measureBareClient(ctx.install.node, item, sandbox, RUNS, bareConcurrency);
		const entry: ListResult = { item, oursConcurrency: declaredConcurrency(item.resource, item.operation), bareConcurrency, ours, http, bare, workflows: [oursWf, httpWf] };
		if (item.key === 'tag') {
			// The floor nodes (issue 44): the same list through n8n's own declarative pagination.
			const floorParameters = { operation: 'getContacts', tagId: DEMO.tags.big.id };
			const twoWf = await importAndActivate(ctx, listWorkflow('bench floor two tag', floorParameters, FLOOR_NODES.list.two, 1, floor.credential, FLOOR_CREDENTIAL_TYPE));
			const shapeWf = await importAndActivate(ctx, listWorkflow('bench floor shape tag', floorParameters, FLOOR_NODES.list.shape, 1, floor.credential, FLOOR_CREDENTIAL_TYPE));
			entry.floors = {
				two: await measureList(ctx, twoWf, item.path, 'floor (2 properties) tag', RUNS),
				shape: await measureList(ctx, shapeWf, item.path, `floor (our shape, ${floor.shapeProperties}) tag`, RUNS),
				shapeProperties: floor.shapeProperties,
			};
			entry.workflows.push(twoWf, shapeWf);
		}
		lists.push(entry);
	}
	// The same runs without the injected latency: what is left is the cost of the requests
	// themselves (n8n's request path, transfer, JSON, items) and of the API's handler.
	sandbox.setLatency(0);
	for (const entry of lists) {
		entry.ours0 = await measureList(ctx, entry.workflows[0], entry.item.path, `ours ${entry.item.key} at 0 ms latency`, RUNS);
		entry.http0 = await measureList(ctx, entry.workflows[1], entry.item.path, `HTTP Request ${entry.item.key} at 0 ms latency`, RUNS);
		if (entry.floors) {
			entry.floors.two0 = await measureList(ctx, entry.workflows[2], entry.item.path, `floor (2 properties) ${entry.item.key} at 0 ms latency`, RUNS);
			entry.floors.shape0 = await measureList(ctx, entry.workflows[3], entry.item.path, `floor (our shape) ${entry.item.key} at 0 ms latency`, RUNS);
		}
		for (const workflow of entry.workflows) await stack.client.deactivate(workflow.id);
	}
	sandbox.setLatency(LATENCY_MS);
	return lists;
}

async function main(): Promise<void> {
	const install = await provisionN8n('2');
	log(`building and packing the package`);
	buildPackage();
	const packDir = mkdtempSync(join(tmpdir(), 'n8n-bench-pack-'));
	let sandbox: Sandbox | undefined;
	let stack: N8nStack | undefined;
	let userFolder: string | undefined;
	try {
		const packed: PackedPackage = packPackage(packDir);
		const tarball = tarballSize();
		log(`timing require() of the dist files (${REQUIRE_RUNS} fresh processes)`);
		const requires = requireTimes(install.node);
		// The tag contacts' default; chats and messages get the same option and default (issue 16).
		const pageConcurrency = declaredConcurrency('tag', 'getContacts');
		if (pageConcurrency === undefined) throw new Error('the built node declares no Concurrent Page Requests for Tag → Get Contacts');
		const nodeVersion = spawnSync(install.node, ['--version'], { encoding: 'utf8' }).stdout.trim();

		sandbox = await startSandbox({ quiet: true, latencyMs: LATENCY_MS });
		let lists: ListResult[] = [];
		let burstRuns: Record<BurstTarget, BurstResult[]> | undefined;
		let bulk: BulkResult | undefined;
		let stall: StallResult | undefined;
		if (LIST_CASES.some((c) => ONLY.has(c.key)) || ONLY.has('trigger') || ONLY.has('bulk')) {
			log(`sandbox: ${JSON.stringify(SIZES)}, latency ${LATENCY_MS} ms`);
			seedLists(sandbox, SIZES);
			log(`starting n8n ${install.version}`);
			// Our package and the floor package (scripts/bench/floor.ts) in one user folder.
			userFolder = mkdtempSync(join(tmpdir(), 'n8n-bench-'));
			const { shape: shapeProperties } = installFloor(userFolder, sandbox.baseUrl);
			stack = await startN8nStack({
				install,
				packed,
				api: { baseUrl: sandbox.baseUrl, apiToken: sandbox.token },
				userFolder,
				// not debug: its per-execution logging would be measured too (info prints the readiness line the harness waits for)
				logLevel: 'info',
				nodeArgs: N8N_NODE_ARGS,
				env: N8N_ENV,
			});
			const ctx: E2EContext = { major: '2', install, sandbox, stack, client: stack.client };
			const headerAuth = await stack.client.createCredential({
				name: 'Inbox API (Header Auth)',
				type: 'httpHeaderAuth',
				data: { name: 'Authorization', value: `Bearer ${sandbox.token}` },
			});
			const floorCredential = await stack.client.createCredential({ name: 'Bench floor', type: FLOOR_CREDENTIAL_TYPE, data: { apiToken: sandbox.token } });
			lists = await measureLists(ctx, headerAuth, pageConcurrency, { credential: floorCredential, shapeProperties });
			burstRuns = ONLY.has('trigger') ? await measureTrigger(ctx) : undefined;
			if (ONLY.has('bulk')) {
				const { limited, ours } = await measureBulk(ctx, headerAuth, BULK);
				bulk = { limited, unlimited: { ours } };
			}
			await stack.stop();
			stack = undefined;
			// The node as released before the pace, in its own n8n: every item at once.
			// Its own folder: the baseline's tarball has the same file name as today's.
			const baseline = bulk && BASELINE_REF !== 'none' ? packBaseline(BASELINE_REF, mkdtempSync(join(packDir, 'baseline-'))) : undefined;
			if (bulk && baseline) {
				log(`starting n8n with the package of ${BASELINE_REF} (the bulk case's baseline)`);
				stack = await startN8nStack({ install, packed: baseline, api: { baseUrl: sandbox.baseUrl, apiToken: sandbox.token }, folderPrefix: 'n8n-bench-baseline-', logLevel: 'info', env: N8N_ENV });
				bulk.unlimited.baseline = await baselineRuns({ major: '2', install, sandbox, stack, client: stack.client }, BULK);
				await stack.stop();
				stack = undefined;
			}
		}

		const cpu = cpus();
		console.log('');
		console.log(`Machine: ${cpu[0]?.model ?? 'unknown CPU'} × ${cpu.length} cores, ${(totalmem() / 2 ** 30).toFixed(0)} GB RAM; n8n ${install.version} (${N8N_VERSIONS['2']}) on ${nodeVersion}, SQLite; bench on Node ${process.version}`);
		console.log(`n8n settings: ${Object.keys(N8N_ENV).length ? Object.entries(N8N_ENV).map(([k, v]) => `${k}=${v}`).join(', ') : "n8n's defaults (expression engine vm, pool size 1)"}`);
		if (lists.length) {
			console.log(`Sandbox API in the bench process on 127.0.0.1: ${SIZES.tagContacts} contacts on one tag, ${SIZES.chats} chats in category ${CHAT_CATEGORY}, ${SIZES.messages} messages in one chat, ${SIZES.templates} templates; ${LATENCY_MS} ms injected latency per request.`);
			console.log(`Lists: node executionTime from runData, median of ${RUNS} runs after 1 warm-up. HTTP Request node v${HTTP_REQUEST_VERSION} with its Pagination option, Header Auth credential. Page concurrency of the bare client: ${pageConcurrency} (Tag → Get Contacts' default Concurrent Page Requests).`);
			console.log('');
			printLists(lists);
		}
		const triggerRatio = burstRuns ? printBursts(burstRuns) : undefined;
		if (bulk) printBulk(bulk, BULK);

		if (ONLY.has('stall')) {
			stall = await measureStall({ install, packed, sandbox, settings: { ...STALL, ...stallN8n(install.bin) } });
			printStall(stall);
			const baseline = STALL_BASELINE_REF && STALL_BASELINE_REF !== 'none' ? packBaseline(STALL_BASELINE_REF, mkdtempSync(join(packDir, 'baseline-'))) : undefined;
			if (baseline) {
				// The same runs (Batching aside) with the ref's package, each engine in a fresh n8n, after today's.
				log(`stall: the package of ${STALL_BASELINE_REF} (the baseline), the same runs without Batching`);
				const before = await measureStall({ install, packed: baseline, sandbox, settings: { ...STALL, ...stallN8n(install.bin), batching: [] } });
				console.log(`\nStall with the package of ${STALL_BASELINE_REF} (the baseline):`);
				printStall(before);
				printStallBaseline(stall, before, STALL_BASELINE_REF!);
			}
		}

		if (ONLY.has('scale')) await measureScale({ install, packed, sandbox, runs: SCALE_RUNS, env: N8N_ENV });

		console.log('');
		printTable([
			['package', 'value'],
			['tarball (npm pack --dry-run)', `${(tarball.bytes / 1024).toFixed(1)} KB (${tarball.bytes} bytes, ${tarball.files} files)`],
			[`require() of the 3 dist files, fresh ${nodeVersion}, median of ${REQUIRE_RUNS}`, `${requires.ours.toFixed(1)} ms (after n8n-workflow; n8n-workflow itself ${requires.n8nWorkflow.toFixed(1)} ms)`],
		]);
		if (triggerRatio !== undefined) console.log(`\nTrigger burst: ${ratio(triggerRatio)} the Webhook node's time (a figure, no goal).`);
		printGoals(goalLines(lists, bulk, stall));
	} finally {
		await stack?.stop();
		await sandbox?.close();
		rmSync(packDir, { recursive: true, force: true });
		if (userFolder && process.env.E2E_KEEP_USER_FOLDER !== '1') rmSync(userFolder, { recursive: true, force: true });
	}
}

(QUEUE ? mainQueue() : main()).catch((error: unknown) => {
	console.error(error);
	process.exitCode = 1;
});
