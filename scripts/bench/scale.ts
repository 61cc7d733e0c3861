/* eslint-disable -- development tooling, not shipped: n8n's node rules (eslint.config.mjs, n8n-node lint) are for nodes/ and credentials/ */
/**
 * The scale case of the benchmark (`npm run bench -- --only scale`): Return All of 10 000 and
 * 100 000 tag contacts and of 20 000 chats, each in a fresh n8n (2.x, the packed package), against
 * the sandbox with the bench's latency. Per point: the node's executionTime (median of
 * `--scale-runs`), and n8n's memory: the main n8n process's RSS before the first measured run
 * (started, one small warm-up run done) and its peak RSS (VmHWM in /proc/<pid>/status, start-up
 * included) read as soon as that first run's execution has finished, before its data is fetched
 * (fetching 100 000 items through n8n's API would raise the peak itself). Our node runs in the main
 * process (the task runner child only runs Code nodes).
 *
 * Then a tag of 200 000 contacts, past what one input item returns as items (100 000: n8n's
 * RoutingNode overflows its stack at about 125 000): Return All as saved (it must end in the node's
 * clear error after the first page, never in "Maximum call stack size exceeded") and with Options →
 * One Item per Page (it must end in items: every contact, one item per page).
 */
import { readFileSync } from 'node:fs';

import { DEMO } from '../../test/sandbox';
import type { Sandbox } from '../../test/sandbox';
import { importAndActivate, webhookPathOf, type E2EContext } from '../../test/e2e/harness/context';
import type { WorkflowRecord } from '../../test/e2e/harness/n8n-client';
import type { PackedPackage } from '../../test/e2e/harness/package';
import type { N8nInstall } from '../../test/e2e/harness/provision';
import { startN8nStack, type N8nStack } from '../../test/e2e/harness/stack';
import { ACTION_NODE_TYPE, CREDENTIAL_TYPE } from '../../test/e2e/harness/workflows';
import { LIST_CASES, listWorkflow, log, median, ms, NODE, printTable, ratio, runList, seedLists, verdict, type ListCase, type ListKey, type ListSizes } from './lists';

interface ScalePoint {
	key: ListKey;
	elements: number;
	/** the same operation on a few elements: the warm-up, so that the first measured run is warm */
	warmUp: Record<string, unknown>;
}

const POINTS: ScalePoint[] = [
	{ key: 'tag', elements: 10_000, warmUp: { tag: { __rl: true, mode: 'id', value: DEMO.tags.vip.id } } },
	{ key: 'tag', elements: 100_000, warmUp: { tag: { __rl: true, mode: 'id', value: DEMO.tags.vip.id } } },
	{ key: 'chats', elements: 20_000, warmUp: { category: 'pinned' } },
];

/** The other lists stay small: only the measured one is big. */
const SMALL: ListSizes = { tagContacts: 150, chats: 100, messages: 5, templates: 60 };

const RATIO_TARGET = 11;

/** VmRSS or VmHWM of a process in MB (Linux). */
function memoryMb(pid: number, field: 'VmRSS' | 'VmHWM'): number {
	const match = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
	if (!match) throw new Error(`no ${field} in /proc/${pid}/status`);
	return Math.round(Number(match[1]) / 1024);
}

interface ScaleResult {
	point: ScalePoint;
	runs: number[];
	nodeMs: number;
	items: number;
	pages: number;
	rssBeforeMb: number;
	peakMb: number;
}

export interface ScaleOptions {
	install: N8nInstall;
	packed: PackedPackage;
	sandbox: Sandbox;
	runs: number;
	env: Record<string, string>;
}

type MakeWorkflow = (name: string, parameters: Record<string, unknown>) => Promise<WorkflowRecord>;

/** Seeds the list `key` with `elements`, starts a fresh n8n, runs `body` in it, and stops it. */
async function inFreshN8n<T>(options: ScaleOptions, key: ListKey, elements: number, body: (ctx: E2EContext, workflow: MakeWorkflow, item: ListCase) => Promise<T>): Promise<T> {
	const { install, packed, sandbox } = options;
	const item = LIST_CASES.find((c) => c.key === key);
	if (!item) throw new Error(`no list case ${key}`);
	seedLists(sandbox, { ...SMALL, [key === 'tag' ? 'tagContacts' : key]: elements });
	log(`scale ${key} ${elements}: starting a fresh n8n ${install.version}`);
	let stack: N8nStack | undefined;
	try {
		stack = await startN8nStack({ install, packed, api: { baseUrl: sandbox.baseUrl, apiToken: sandbox.token }, folderPrefix: 'n8n-bench-scale-', logLevel: 'info', env: options.env });
		const { credential } = stack;
		const ctx: E2EContext = { major: '2', install, sandbox, stack, client: stack.client };
		const workflow: MakeWorkflow = async (name, parameters) =>
			await importAndActivate(ctx, listWorkflow(name, parameters, ACTION_NODE_TYPE, 2, credential, CREDENTIAL_TYPE));
		return await body(ctx, workflow, item);
	} finally {
		await stack?.stop();
	}
}

async function measurePoint(options: ScaleOptions, point: ScalePoint): Promise<ScaleResult> {
	return await inFreshN8n(options, point.key, point.elements, async (ctx, workflow, item) => {
		const warm = await workflow(`scale warm-up ${point.key}`, { ...item.ours, ...point.warmUp });
		const big = await workflow(`scale ${point.key} ${point.elements}`, item.ours);
		await runList(ctx, warm, item.path);
		const pid = ctx.stack.n8n.pid;
		const rssBeforeMb = memoryMb(pid, 'VmRSS');
		let peakMb = 0;
		const samples = [];
		for (let run = 0; run < options.runs; run++) {
			const finished = run === 0 ? () => void (peakMb = memoryMb(pid, 'VmHWM')) : undefined;
			samples.push(await runList(ctx, big, item.path, { timeoutMs: 600_000, finished }));
		}
		const runs = samples.map((s) => s.nodeMs);
		const result = { point, runs, nodeMs: median(runs), items: samples[0].items, pages: samples[0].pages, rssBeforeMb, peakMb };
		log(`scale ${point.key} ${point.elements}: ${runs.join(', ')} ms → median ${result.nodeMs} ms, ${result.items} items, ${result.pages} requests; RSS ${rssBeforeMb} MB before, peak ${peakMb} MB`);
		return result;
	});
}

/** Contacts on the tag past the bound of one input item. */
const BEYOND_BOUND = 200_000;

interface BeyondResult {
	label: string;
	status: string;
	/** the execution's error message, when it failed */
	error: string;
	items: number;
	contacts: number;
	requests: number;
	nodeMs: number;
	wallMs: number;
}

const sleepMs = (duration: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, duration));

/** One run that may fail: its status and error as n8n recorded them, its items and requests. */
async function runBeyond(ctx: E2EContext, workflow: WorkflowRecord, label: string): Promise<BeyondResult> {
	const { client, sandbox } = ctx;
	sandbox.clearRequests();
	const known = await client.executionIds(workflow.id);
	const started = Date.now();
	await client.callWebhook(webhookPathOf(workflow), {});
	let done: { id: string } | undefined;
	while (!done) {
		done = (await client.listExecutions(workflow.id)).find((e) => !known.has(e.id) && e.stoppedAt);
		if (!done && Date.now() - started > 600_000) throw new Error(`${label}: no finished execution after 600 s`);
		if (!done) await sleepMs(200);
	}
	const wallMs = Date.now() - started;
	const execution = await client.getExecution(done.id);
	const task = (execution.data.resultData.runData as unknown as Record<string, Array<{ executionTime?: number; data?: { main: Array<Array<{ json: Record<string, unknown> }> | null> } }>>)[NODE]?.[0];
	const out = task?.data?.main[0] ?? [];
	const contacts = out.reduce((sum, item) => sum + (Array.isArray(item.json.contacts) ? item.json.contacts.length : 1), 0);
	const error = execution.data.resultData.error as { message?: string } | undefined;
	return {
		label,
		status: execution.status,
		error: error?.message ?? '',
		items: out.length,
		contacts,
		requests: sandbox.requests.filter((r) => r.path === '/v2/tag/list-contacts').length,
		nodeMs: task?.executionTime ?? 0,
		wallMs,
	};
}

/** The tag past the bound, in one fresh n8n: as saved (the clear error) and one item per page. */
async function measureBeyond(options: ScaleOptions): Promise<BeyondResult[]> {
	return await inFreshN8n(options, 'tag', BEYOND_BOUND, async (ctx, workflow, item) => {
		const asSaved = await workflow(`scale tag ${BEYOND_BOUND}`, item.ours);
		const perPage = await workflow(`scale tag ${BEYOND_BOUND} one item per page`, { ...item.ours, options: { oneItemPerPage: true } });
		const results = [
			await runBeyond(ctx, asSaved, 'Return All'),
			await runBeyond(ctx, perPage, 'Return All, One Item per Page'),
		];
		for (const r of results) log(`scale tag ${BEYOND_BOUND}, ${r.label}: ${r.status}, ${r.items} items, ${r.contacts} contacts, ${r.requests} requests, ${r.nodeMs} ms${r.error ? `; error: ${r.error}` : ''}`);
		return results;
	});
}

/** Every scale point, one fresh n8n after the other, then their table. */
export async function measureScale(options: ScaleOptions): Promise<void> {
	const results: ScaleResult[] = [];
	for (const point of POINTS) results.push(await measurePoint(options, point));
	const beyond = await measureBeyond(options);

	console.log('');
	console.log(`Scale: our node's Return All in a fresh n8n per point; time = node executionTime, median of ${options.runs}; memory = the n8n main process (pid's /proc status): RSS after start-up and a small warm-up run, and peak RSS (VmHWM, start-up included) when the first measured run's execution has finished.`);
	printTable([
		['case', 'items', 'requests', 'runs (ms)', 'median', 'per 1 000 items', 'RSS before', 'peak RSS (VmHWM)', 'peak − before'],
		...results.map((r) => [
			`${r.point.key === 'tag' ? 'tag contacts' : r.point.key} Return All, ${r.point.elements.toLocaleString('en')}`,
			String(r.items),
			String(r.pages),
			r.runs.join(' / '),
			ms(r.nodeMs),
			ms((r.nodeMs / r.items) * 1000),
			`${r.rssBeforeMb} MB`,
			`${r.peakMb} MB`,
			`${r.peakMb - r.rssBeforeMb} MB`,
		]),
	]);
	const [small, large] = results.filter((r) => r.point.key === 'tag');
	const growth = large.nodeMs / small.nodeMs;
	const complete = results.every((r) => r.items === r.point.elements);
	console.log(`  every point returned all its elements: ${complete ? 'yes' : 'NO'}`);
	console.log(`  time(100k) / time(10k) tag contacts: ${ratio(growth)} (≤ ${RATIO_TARGET}) → ${verdict(growth <= RATIO_TARGET)}; peak RSS 100k / 10k: ${ratio(large.peakMb / small.peakMb)}`);

	console.log('');
	console.log(`Past the bound: a tag of ${BEYOND_BOUND.toLocaleString('en')} contacts (one input item returns at most 100 000 as items; n8n's RoutingNode overflows at about 125 000).`);
	printTable([
		['case', 'execution', 'items', 'contacts', 'requests', 'node time', 'error'],
		...beyond.map((r) => [r.label, r.status, String(r.items), String(r.contacts), String(r.requests), ms(r.nodeMs), r.error || '-']),
	]);
	const overflow = beyond.some((r) => /call stack/i.test(r.error));
	const [saved, perPage] = beyond;
	const ok = !overflow && saved.status === 'error' && /more than one input item can return/.test(saved.error) && saved.requests === 1 && perPage.status === 'success' && perPage.contacts === BEYOND_BOUND;
	console.log(`  ends in the clear error (1 request) or in every contact as items, never a stack overflow → ${verdict(ok)}`);
}
