/**
 * The scale case of the benchmark (`npm run bench -- --only scale`): Return All of 10 000 and
 * 100 000 tag contacts and of 20 000 chats, each in a fresh n8n (2.x, the packed package), against
 * the sandbox with the bench's latency. Per point: the node's executionTime (median of
 * `--scale-runs`), and n8n's memory: the main n8n process's RSS before the first measured run
 * (started, one small warm-up run done) and its peak RSS (VmHWM in /proc/<pid>/status, start-up
 * included) read as soon as that first run's execution has finished, before its data is fetched
 * (fetching 100 000 items through n8n's API would raise the peak itself). Our node runs in the main
 * process (the task runner child only runs Code nodes).
 */
import { readFileSync } from 'node:fs';

import { DEMO } from '../test/sandbox';
import type { Sandbox } from '../test/sandbox';
import { importAndActivate, type E2EContext } from '../test/e2e/harness/context';
import type { PackedPackage } from '../test/e2e/harness/package';
import type { N8nInstall } from '../test/e2e/harness/provision';
import { startN8nStack, type N8nStack } from '../test/e2e/harness/stack';
import { ACTION_NODE_TYPE, CREDENTIAL_TYPE } from '../test/e2e/harness/workflows';
import { LIST_CASES, listWorkflow, log, median, ms, printTable, ratio, runList, seedLists, verdict, type ListKey, type ListSizes } from './bench-lists';

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

async function measurePoint(options: ScaleOptions, point: ScalePoint): Promise<ScaleResult> {
	const { install, packed, sandbox } = options;
	const item = LIST_CASES.find((c) => c.key === point.key);
	if (!item) throw new Error(`no list case ${point.key}`);
	seedLists(sandbox, { ...SMALL, [point.key === 'tag' ? 'tagContacts' : point.key]: point.elements });
	log(`scale ${point.key} ${point.elements}: starting a fresh n8n ${install.version}`);
	let stack: N8nStack | undefined;
	try {
		stack = await startN8nStack({ install, packed, api: { baseUrl: sandbox.baseUrl, apiToken: sandbox.token }, folderPrefix: 'n8n-bench-scale-', logLevel: 'info', env: options.env });
		const ctx: E2EContext = { major: '2', install, sandbox, stack, client: stack.client };
		const workflow = (name: string, parameters: Record<string, unknown>) =>
			importAndActivate(ctx, listWorkflow(name, parameters, ACTION_NODE_TYPE, 2, stack!.credential, CREDENTIAL_TYPE));
		const warm = await workflow(`scale warm-up ${point.key}`, { ...item.ours, ...point.warmUp });
		const big = await workflow(`scale ${point.key} ${point.elements}`, item.ours);
		await runList(ctx, warm, item.path);
		const pid = stack.n8n.pid;
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
	} finally {
		await stack?.stop();
	}
}

/** Every scale point, one fresh n8n after the other, then their table. */
export async function measureScale(options: ScaleOptions): Promise<void> {
	const results: ScaleResult[] = [];
	for (const point of POINTS) results.push(await measurePoint(options, point));

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
}
