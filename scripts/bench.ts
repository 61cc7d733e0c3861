/**
 * The performance benchmark of issue 8, in one real n8n (2.41.1) with the packed package, against
 * the sandbox API (10 000 contacts on one tag, 2 000 templates, 5 000 chats, 20 ms injected latency
 * per request). Prints a table; asserts nothing (speed is not a test).
 *
 *   npm run bench            (= ts-node --transpile-only scripts/bench.ts)
 *   options: --runs 5 --latency 20 --burst 500 --burst-runs 3 --burst-concurrency 20
 *            --only tag,templates,chats,trigger   (a subset of the cases; default all)
 *            --cpu-prof DIR                       (n8n writes a V8 CPU profile there when it stops)
 *            --n8n-env KEY=VALUE[,KEY=VALUE]      (extra environment for n8n, e.g. N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE=true)
 *            --trigger-version 2                  (typeVersion of our trigger in the burst; 1 for the old one)
 *            --queue [--workers 2]                (only the trigger burst: one process vs queue mode, see mainQueue)
 *
 * Per list case the figure is the node's own `executionTime` in the execution's runData (what n8n
 * shows as the node's run time), median of `--runs` runs after one warm-up, for
 *   - our node (Return All), and
 *   - n8n's HTTP Request node with its own pagination (same page size, same Authorization header
 *     through a Header Auth credential), which is what a user would otherwise build;
 * against the floor: unavoidable round trips × latency.
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
import { spawn, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { cpus, totalmem, tmpdir } from 'node:os';
import { join } from 'node:path';

import { option, textOption } from './bench-options';
import { DEMO, startSandbox } from '../test/sandbox';
import type { Sandbox } from '../test/sandbox';
import { importAndActivate, webhookPathOf, type E2EContext } from '../test/e2e/harness/context';
import type { CredentialRecord, WorkflowDefinition, WorkflowNode, WorkflowRecord } from '../test/e2e/harness/n8n-client';
import { buildPackage, packPackage, type PackedPackage } from '../test/e2e/harness/package';
import { N8N_VERSIONS, provisionN8n, REPO_ROOT } from '../test/e2e/harness/provision';
import { describeMemory, describeStartup, startQueueStack, type QueueStack } from '../test/e2e/harness/queue-stack';
import { startN8nStack, type N8nStack } from '../test/e2e/harness/stack';
import { ACTION_NODE_TYPE, chainWorkflow, CREDENTIAL_TYPE, TRIGGER_NODE_TYPE, webhookNode } from '../test/e2e/harness/workflows';

// ---- options --------------------------------------------------------------------------------

const LATENCY_MS = option('latency', 20);
const RUNS = Math.max(1, Math.round(option('runs', 5)));
const BURST = Math.max(1, Math.round(option('burst', 500)));
const BURST_RUNS = Math.max(1, Math.round(option('burst-runs', 3)));
const BURST_CONCURRENCY = Math.max(1, Math.round(option('burst-concurrency', 20)));
const ONLY = new Set((textOption('only') ?? 'tag,templates,chats,trigger').split(','));
const CPU_PROFILE_DIR = textOption('cpu-prof');
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
const SEED = { contactsOnBigTag: 10_000, templates: 2_000, chats: 5_000 };
/** Our node's default (CONTACT_PAGE_CONCURRENCY in resources/tag/getContacts.ts). */
const TAG_CONCURRENCY = 4;
const HTTP_REQUEST_VERSION = 4.2;

const TARGETS = {
	tagVsHttpRequest: 3,
	listVsFloor: 1.1,
	triggerVsWebhook: 1.1,
	tarballBytes: 100 * 1024,
};

// ---- small helpers --------------------------------------------------------------------------

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

const median = (values: number[]): number => {
	const sorted = [...values].sort((a, b) => a - b);
	const mid = Math.floor(sorted.length / 2);
	return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

const ms = (value: number): string => `${value.toFixed(0)} ms`;
const ratio = (value: number): string => `${value.toFixed(2)}×`;
const log = (text: string): void => void process.stderr.write(`[bench] ${text}\n`);

/** Runs `task(0..count-1)` with at most `limit` at a time. */
async function pool(count: number, limit: number, task: (index: number) => Promise<void>): Promise<void> {
	let next = 0;
	const worker = async (): Promise<void> => {
		while (next < count) await task(next++);
	};
	await Promise.all(Array.from({ length: Math.min(limit, count) }, worker));
}

// ---- list cases -----------------------------------------------------------------------------

interface ListCase {
	key: 'tag' | 'templates' | 'chats';
	label: string;
	/** the API path, to count pages in the sandbox's request log */
	path: string;
	ours: Record<string, unknown>;
	httpRequest: (baseUrl: string) => Record<string, unknown>;
	/** parameters of scripts/bench-bare-client.mjs for the same walk */
	bare: Record<string, unknown>;
}

const qs = (parameters: Record<string, string>): Record<string, unknown> => ({
	sendQuery: true,
	specifyQuery: 'keypair',
	queryParameters: { parameters: Object.entries(parameters).map(([name, value]) => ({ name, value })) },
});

/** The HTTP Request node as a user configures it: GET, Header Auth credential, Pagination option. */
function httpRequestParameters(url: string, query: Record<string, string>, pagination: Record<string, unknown>): Record<string, unknown> {
	return {
		method: 'GET',
		url,
		authentication: 'genericCredentialType',
		genericAuthType: 'httpHeaderAuth',
		...qs(query),
		options: { pagination: { pagination: { limitPagesFetched: false, requestInterval: 0, ...pagination } } },
	};
}

const LIST_CASES: ListCase[] = [
	{
		key: 'tag',
		label: 'tag contacts Return All (offset, 100/page, total)',
		path: '/v2/tag/list-contacts',
		bare: { tagId: DEMO.tags.big.id, concurrency: TAG_CONCURRENCY },
		ours: { resource: 'tag', operation: 'getContacts', tagId: DEMO.tags.big.id, returnAll: true },
		httpRequest: (baseUrl) =>
			httpRequestParameters(
				`${baseUrl}/tag/list-contacts`,
				{ tagId: DEMO.tags.big.id, limit: '100' },
				{
					paginationMode: 'updateAParameterInEachRequest',
					parameters: { parameters: [{ type: 'qs', name: 'offset', value: '={{ $pageCount * 100 }}' }] },
					paginationCompleteWhen: 'other',
					// The API gives the total: stop after the page that reaches it (no extra empty page).
					completeExpression: '={{ ($pageCount * 100) >= $response.body.data.total }}',
				},
			),
	},
	{
		key: 'templates',
		label: 'templates Return All (cursor, 250/page)',
		path: '/v2/provider-template/list',
		bare: { integrationId: DEMO.integrations.official.id },
		ours: {
			resource: 'template',
			operation: 'getAll',
			integrationId: { __rl: true, mode: 'id', value: DEMO.integrations.official.id },
			returnAll: true,
		},
		httpRequest: (baseUrl) =>
			httpRequestParameters(
				`${baseUrl}/provider-template/list`,
				{ integrationId: DEMO.integrations.official.id, limit: '250' },
				{
					paginationMode: 'updateAParameterInEachRequest',
					// n8n resolves the pagination parameters before the first request too ($pageCount 0,
					// no $response yet); an empty query value is "no cursor" for the API.
					parameters: { parameters: [{ type: 'qs', name: 'after', value: "={{ $pageCount === 0 ? '' : $response.body.response.paging.after }}" }] },
					paginationCompleteWhen: 'other',
					completeExpression: '={{ $response.body.response.paging.hasNext !== true }}',
				},
			),
	},
	{
		key: 'chats',
		label: 'chats Return All (offset, 1000/page, no total)',
		path: '/v2/inbox/find-all-chats',
		bare: { category: 'attendance' },
		ours: { resource: 'chat', operation: 'getAll', category: 'attendance', returnAll: true },
		httpRequest: (baseUrl) =>
			httpRequestParameters(
				`${baseUrl}/inbox/find-all-chats`,
				{ category: 'attendance', limit: '1000' },
				{
					paginationMode: 'updateAParameterInEachRequest',
					parameters: { parameters: [{ type: 'qs', name: 'offset', value: '={{ $pageCount * 1000 }}' }] },
					paginationCompleteWhen: 'other',
					completeExpression: '={{ $response.body.response.chats.length < 1000 }}',
				},
			),
	},
];

interface Sample {
	/** the node's executionTime from runData */
	nodeMs: number;
	/** the execution's stoppedAt − startedAt */
	executionMs: number;
	items: number;
	pages: number;
	maxInFlight: number;
	/** per request: arrival → answer at the API (latency + handler), median */
	apiPerRequestMs: number;
}

interface Measured {
	samples: Sample[];
	median: Sample;
}

type RunData = Record<string, Array<{ executionTime?: number; data?: { main: Array<unknown[] | null> } }>>;

function summarize(samples: Sample[]): Measured {
	const pick = (f: (s: Sample) => number): number => median(samples.map(f));
	return {
		samples,
		median: {
			nodeMs: pick((s) => s.nodeMs),
			executionMs: pick((s) => s.executionMs),
			items: pick((s) => s.items),
			pages: pick((s) => s.pages),
			maxInFlight: pick((s) => s.maxInFlight),
			apiPerRequestMs: pick((s) => s.apiPerRequestMs),
		},
	};
}

const NODE = 'List';

/** Webhook (answers its first item when the list node finished) → the list node. */
function listWorkflow(name: string, parameters: Record<string, unknown>, nodeType: string, typeVersion: number, credential: CredentialRecord, credentialType: string): WorkflowDefinition {
	const path = `bench-${randomUUID()}`;
	const definition = chainWorkflow(name, path, [{ name: NODE, type: nodeType, typeVersion, parameters }], credential);
	// Only the first item goes back over HTTP: what is measured is the node, not the answer.
	const webhook = definition.nodes[0];
	webhook.parameters = { ...webhook.parameters, responseData: 'firstEntryJson' };
	const node = definition.nodes[1];
	node.credentials = { [credentialType]: { id: credential.id, name: credential.name } };
	return definition;
}

async function runList(ctx: E2EContext, workflow: WorkflowRecord, path: string): Promise<Sample> {
	const { client, sandbox } = ctx;
	sandbox.clearRequests();
	const known = await client.executionIds(workflow.id);
	const response = await client.callWebhook(webhookPathOf(workflow), {});
	if (response.status !== 200) throw new Error(`webhook of "${workflow.name}" answered ${response.status}: ${response.text.slice(0, 500)}`);
	const [execution] = await client.waitForExecutions(workflow.id, known, 1, 120_000);
	if (execution.status !== 'success') {
		throw new Error(`execution ${execution.id} of "${workflow.name}" ended ${execution.status}: ${JSON.stringify(execution.data.resultData.error ?? {}).slice(0, 1500)}`);
	}
	const runData = execution.data.resultData.runData as unknown as RunData;
	const task = runData[NODE]?.[0];
	if (!task || typeof task.executionTime !== 'number') throw new Error(`execution ${execution.id}: no executionTime for node "${NODE}"`);
	const requests = sandbox.requests.filter((r) => r.path === path);
	const perRequest = requests.filter((r) => r.answeredAt !== undefined).map((r) => (r.answeredAt as number) - r.at);
	return {
		nodeMs: task.executionTime,
		executionMs: Date.parse(execution.stoppedAt ?? execution.startedAt) - Date.parse(execution.startedAt),
		items: task.data?.main[0]?.length ?? 0,
		pages: requests.length,
		maxInFlight: sandbox.maxInFlight,
		apiPerRequestMs: perRequest.length ? median(perRequest) : 0,
	};
}

async function measureList(ctx: E2EContext, workflow: WorkflowRecord, path: string, label: string): Promise<Measured> {
	await runList(ctx, workflow, path); // warm-up: modules, connections, expression engine
	const samples: Sample[] = [];
	for (let run = 0; run < RUNS; run++) samples.push(await runList(ctx, workflow, path));
	const m = summarize(samples);
	log(`${label}: ${samples.map((s) => s.nodeMs).join(', ')} ms → median ${m.median.nodeMs} ms (${m.median.items} items, ${m.median.pages} requests)`);
	return m;
}

interface BareClient {
	median: number;
	runs: number[];
	pages: number;
	items: number;
}

/**
 * The same walk by a bare fetch + JSON client in its own process on n8n's Node
 * (scripts/bench-bare-client.mjs): the floor that the API and network actually allow. Async spawn:
 * the sandbox answers from this process's event loop.
 */
async function measureBareClient(nodeBinary: string, item: ListCase, sandbox: Sandbox): Promise<BareClient> {
	const args = [join(REPO_ROOT, 'scripts', 'bench-bare-client.mjs'), item.key, sandbox.baseUrl, sandbox.token, String(RUNS), JSON.stringify(item.bare)];
	const child = spawn(nodeBinary, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NODE_OPTIONS: '' } });
	let stdout = '';
	let stderr = '';
	child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
	child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
	const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
	if (code !== 0) throw new Error(`bare client ${item.key} exited ${code}: ${stderr}`);
	const result = JSON.parse(stdout.trim()) as Omit<BareClient, 'median'>;
	log(`bare client ${item.key}: ${result.runs.join(', ')} ms → median ${median(result.runs)} ms (${result.items} items, ${result.pages} requests)`);
	return { ...result, median: median(result.runs) };
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
	const install = provisionN8n('2');
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

// ---- the table ------------------------------------------------------------------------------

function printTable(rows: string[][], leftColumns = 1): void {
	const widths = rows[0].map((_, column) => Math.max(...rows.map((row) => (row[column] ?? '').length)));
	for (const [index, row] of rows.entries()) {
		console.log(row.map((cell, column) => (column < leftColumns ? cell.padEnd(widths[column]) : cell.padStart(widths[column]))).join('  '));
		if (index === 0) console.log(widths.map((w) => '-'.repeat(w)).join('  '));
	}
}

const verdict = (met: boolean): string => (met ? 'MET' : 'MISSED');

// ---- main -----------------------------------------------------------------------------------

async function main(): Promise<void> {
	const install = provisionN8n('2');
	log(`building and packing the package`);
	buildPackage();
	const packDir = mkdtempSync(join(tmpdir(), 'n8n-bench-pack-'));
	let sandbox: Sandbox | undefined;
	let stack: N8nStack | undefined;
	try {
		const packed: PackedPackage = packPackage(packDir);
		const tarballBytes = statSync(packed.tarball).size;
		log(`timing require() of the dist files (${REQUIRE_RUNS} fresh processes)`);
		const requires = requireTimes(install.node);

		log(`sandbox: ${JSON.stringify(SEED)}, latency ${LATENCY_MS} ms`);
		sandbox = await startSandbox({ quiet: true, latencyMs: LATENCY_MS, seed: SEED });
		log(`starting n8n ${install.version}`);
		stack = await startN8nStack({
			install,
			packed,
			api: { baseUrl: sandbox.baseUrl, apiToken: sandbox.token },
			folderPrefix: 'n8n-bench-',
			// not debug: its per-execution logging would be measured too (info prints the readiness line the harness waits for)
			logLevel: 'info',
			nodeArgs: CPU_PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${CPU_PROFILE_DIR}`] : [],
			env: N8N_ENV,
		});
		const ctx: E2EContext = { major: '2', install, sandbox, stack, client: stack.client };
		const headerAuth = await stack.client.createCredential({
			name: 'Inbox API (Header Auth)',
			type: 'httpHeaderAuth',
			data: { name: 'Authorization', value: `Bearer ${sandbox.token}` },
		});

		// ---- lists
		const lists: Array<{ item: ListCase; ours: Measured; http: Measured; bare: BareClient; ours0?: Measured; http0?: Measured; workflows: WorkflowRecord[] }> = [];
		for (const item of LIST_CASES.filter((c) => ONLY.has(c.key))) {
			const oursWf = await importAndActivate(ctx, listWorkflow(`bench ours ${item.key}`, item.ours, ACTION_NODE_TYPE, 1, stack.credential, CREDENTIAL_TYPE));
			const httpWf = await importAndActivate(
				ctx,
				listWorkflow(`bench http ${item.key}`, item.httpRequest(sandbox.baseUrl), 'n8n-nodes-base.httpRequest', HTTP_REQUEST_VERSION, headerAuth, 'httpHeaderAuth'),
			);
			const ours = await measureList(ctx, oursWf, item.path, `ours ${item.key}`);
			const http = await measureList(ctx, httpWf, item.path, `HTTP Request ${item.key}`);
			const bare = await measureBareClient(install.node, item, sandbox);
			lists.push({ item, ours, http, bare, workflows: [oursWf, httpWf] });
		}
		// The same runs without the injected latency: what is left is the cost of the requests
		// themselves (n8n's request path, transfer, JSON, items) and of the API's handler.
		sandbox.setLatency(0);
		for (const entry of lists) {
			entry.ours0 = await measureList(ctx, entry.workflows[0], entry.item.path, `ours ${entry.item.key} at 0 ms latency`);
			entry.http0 = await measureList(ctx, entry.workflows[1], entry.item.path, `HTTP Request ${entry.item.key} at 0 ms latency`);
			for (const workflow of entry.workflows) await stack.client.deactivate(workflow.id);
		}
		sandbox.setLatency(LATENCY_MS);

		const burstRuns = ONLY.has('trigger') ? await measureTrigger(ctx) : undefined;

		// ---- print
		const cpu = cpus();
		console.log('');
		console.log(`Machine: ${cpu[0]?.model ?? 'unknown CPU'} × ${cpu.length} cores, ${(totalmem() / 2 ** 30).toFixed(0)} GB RAM; n8n ${install.version} (${N8N_VERSIONS['2']}) on ${spawnSync(install.node, ['--version'], { encoding: 'utf8' }).stdout.trim()}, SQLite; bench on Node ${process.version}`);
		console.log(`n8n settings: ${Object.keys(N8N_ENV).length ? Object.entries(N8N_ENV).map(([k, v]) => `${k}=${v}`).join(', ') : "n8n's defaults (expression engine vm, pool size 1)"}`);
		console.log(`Sandbox API in the bench process on 127.0.0.1: ${SEED.contactsOnBigTag} contacts on one tag, ${SEED.templates} templates, ${SEED.chats} chats; ${LATENCY_MS} ms injected latency per request.`);
		console.log(`Lists: node executionTime from runData, median of ${RUNS} runs after 1 warm-up. HTTP Request node v${HTTP_REQUEST_VERSION} with its Pagination option, Header Auth credential.`);
		console.log('');

		const rows: string[][] = [['case', 'client', 'items', 'requests', 'in flight', 'median', 'at 0 ms latency', 'API per request', 'vs latency floor', 'vs bare client', 'vs HTTP Request']];
		for (const { item, ours, http, bare, ours0, http0 } of lists) {
			const pages = ours.median.pages;
			const floorSeq = pages * LATENCY_MS;
			// The tag walk's first page must come back (with the total) before the others can go.
			const floorConc = (1 + Math.ceil((pages - 1) / TAG_CONCURRENCY)) * LATENCY_MS;
			const floor = item.key === 'tag' ? floorConc : floorSeq;
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
			rows.push(row(item.key === 'tag' ? `our node (concurrency ${TAG_CONCURRENCY})` : 'our node', String(ours.median.items), ours.median, ours0, `${ratio(http.median.nodeMs / ours.median.nodeMs)} faster`));
			rows.push(row('HTTP Request node pagination', `${http.median.items} (pages)`, http.median, http0, '1.00×'));
			rows.push(['', item.key === 'tag' ? `bare fetch client (concurrency ${TAG_CONCURRENCY})` : 'bare fetch client', String(bare.items), String(bare.pages), item.key === 'tag' ? String(TAG_CONCURRENCY) : '1', ms(bare.median), '', '', ratio(bare.median / floor), '1.00×', '']);
			if (item.key === 'tag') {
				rows.push(['', 'floor: pages × latency', '', String(pages), '1', ms(floorSeq), '', '', '', '', '']);
				rows.push(['', `floor: (1 + ⌈(pages−1)/${TAG_CONCURRENCY}⌉) × latency`, '', String(pages), String(TAG_CONCURRENCY), ms(floorConc), '', '', '1.00×', '', '']);
			} else {
				rows.push(['', 'floor: pages × latency', '', String(pages), '1', ms(floorSeq), '', '', '1.00×', '', '']);
			}
		}
		printTable(rows, 2);

		const triggerRatio = burstRuns ? printBursts(burstRuns) : undefined;

		console.log('');
		printTable([
			['package', 'value'],
			['packed tarball (npm pack)', `${(tarballBytes / 1024).toFixed(1)} KB (${tarballBytes} bytes, ${packed.files.length} files)`],
			[`require() of the 3 dist files, fresh Node ${spawnSync(install.node, ['--version'], { encoding: 'utf8' }).stdout.trim()}, median of ${REQUIRE_RUNS}`, `${requires.ours.toFixed(1)} ms (after n8n-workflow; n8n-workflow itself ${requires.n8nWorkflow.toFixed(1)} ms)`],
		]);

		const tag = lists.find((l) => l.item.key === 'tag');
		const templates = lists.find((l) => l.item.key === 'templates');
		const chats = lists.find((l) => l.item.key === 'chats');
		console.log('');
		console.log('Targets');
		if (tag) {
			const x = tag.http.median.nodeMs / tag.ours.median.nodeMs;
			console.log(`  tag contacts ≥ ${TARGETS.tagVsHttpRequest}× faster than HTTP Request: ${ratio(x)} → ${verdict(x >= TARGETS.tagVsHttpRequest)}`);
			// The issue's floor for it: ⌈pages/concurrency⌉ × latency.
			const floorConc = Math.ceil(tag.ours.median.pages / TAG_CONCURRENCY) * LATENCY_MS;
			const y = tag.ours.median.nodeMs / floorConc;
			console.log(`  tag contacts within ${TARGETS.listVsFloor}× of ⌈pages/${TAG_CONCURRENCY}⌉ × latency: ${ratio(y)} (the bare fetch client: ${ratio(tag.bare.median / floorConc)}) → ${verdict(y <= TARGETS.listVsFloor)}`);
		}
		for (const l of [templates, chats]) {
			if (!l) continue;
			const floor = l.ours.median.pages * LATENCY_MS;
			const y = l.ours.median.nodeMs / floor;
			console.log(`  ${l.item.key} within ${TARGETS.listVsFloor}× of pages × latency: ${ratio(y)} (the bare fetch client: ${ratio(l.bare.median / floor)}; per request at the API ${ms(l.ours.median.apiPerRequestMs)}) → ${verdict(y <= TARGETS.listVsFloor)}`);
		}
		if (triggerRatio !== undefined) {
			console.log(`  trigger within ${TARGETS.triggerVsWebhook}× of the Webhook node: ${ratio(triggerRatio)} → ${verdict(triggerRatio <= TARGETS.triggerVsWebhook)}`);
		}
		console.log(`  tarball < 100 KB: ${(tarballBytes / 1024).toFixed(1)} KB → ${verdict(tarballBytes < TARGETS.tarballBytes)}`);
		console.log('');
		console.log('Columns: median = the node\'s executionTime; at 0 ms latency = the same node, same data, latency switched off (the cost of the requests themselves: n8n\'s request path, transfer, JSON, items, API handler); API per request = median arrival → answer at the sandbox (latency + handler); latency floor = unavoidable round trips × latency; bare fetch client = the same walk by plain fetch + JSON in its own process on n8n\'s Node (scripts/bench-bare-client.mjs), i.e. what the API and network allow any client.');
		console.log('HTTP Request outputs one item per page (the raw body); our node outputs one item per element.');
	} finally {
		await stack?.stop();
		await sandbox?.close();
		rmSync(packDir, { recursive: true, force: true });
	}
}

(QUEUE ? mainQueue() : main()).catch((error: unknown) => {
	console.error(error);
	process.exitCode = 1;
});
