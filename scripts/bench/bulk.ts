/* eslint-disable -- development tooling, not shipped: n8n's node rules (eslint.config.mjs, n8n-node lint) are for nodes/ and credentials/ */
/**
 * The bench's `bulk` case (issue 24): N items of a write operation (Tag → Remove From Contact, one
 * contact per item) in one execution of a real n8n, against the sandbox limited to R requests per
 * second (a token bucket of R, 429 with Retry-After, and a case without it), for
 *   - our node (its defaults: the API's pace, nodes/shared/pace.ts),
 *   - n8n's HTTP Request node with its defaults (every item at once),
 *   - the HTTP Request node with Batching set by hand to the right figure (R items per 1 000 ms),
 *     what an expert who knows the limit builds,
 * against the floor N / R s. Printed per row: items done (contacts the sandbox accepted, each
 * counted once), time (the node's executionTime in runData), requests and refused (429) requests.
 * Then without a limit (the injected latency only): our node against the same node as released
 * before the pace (built from `--baseline-ref`, default main, every item at once), median of runs.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { log, median, ms, printTable, ratio, verdict } from './lists';
import type { RateLimit, Sandbox } from '../../test/sandbox';
import { DEMO } from '../../test/sandbox';
import { importAndActivate, webhookPathOf, type E2EContext } from '../../test/e2e/harness/context';
import type { CredentialRecord, WorkflowDefinition, WorkflowRecord } from '../../test/e2e/harness/n8n-client';
import type { PackedPackage } from '../../test/e2e/harness/package';
import { REPO_ROOT } from '../../test/e2e/harness/provision';
import { CREDENTIAL_TYPE, chainWorkflow } from '../../test/e2e/harness/workflows';

/** The measured node's name in both bulk cases' workflow (its executionTime is read by it). */
export const NODE = 'Bulk';
const PATH = '/v2/tag/remove-from-contact';
const BIG = DEMO.tags.big.id;
export const HTTP_REQUEST_VERSION = 4.2;

/** Issue 24's targets. */
export const BULK_TARGETS = { vsFloor: 1.15, refusedShare: 0.1, unlimitedVsAllAtOnce: 1.25 };

export interface BulkSample {
	client: string;
	limit: string;
	items: number;
	done: number;
	ms: number;
	requests: number;
	refused: number;
	status: string;
	/** from the execution's start to the first request at the sandbox: n8n prepares every item first */
	firstRequestMs: number;
	/** from the first request's arrival to the last answer */
	sendingMs: number;
}

type Client = 'ours' | 'http' | 'httpBatched';

/** Items per batch and the pause between two: Settings → Request Options → Batching (ours), Options → Batching (HTTP Request). */
export interface Batching {
	size: number;
	intervalMs: number;
}

/**
 * The workflow both bulk cases run (this file's and stall.ts's): Webhook → Split Out → one
 * node removing the big tag from each contact, our node (Phone Number `={{ $json.phone }}`) or n8n's
 * HTTP Request node doing the same POSTs with a Header Auth credential, each with `batching` if given.
 * The caller sets how the trigger answers.
 */
export function removalWorkflow(
	name: string,
	path: string,
	client: 'ours' | 'http',
	batching: Batching | undefined,
	sandbox: Sandbox,
	credential: CredentialRecord,
	headerAuth: CredentialRecord,
): WorkflowDefinition {
	const split = { name: 'Split', type: 'n8n-nodes-base.splitOut', parameters: { fieldToSplitOut: 'body.contacts', options: {} } };
	const batch = batching ? { batching: { batch: { batchSize: batching.size, batchInterval: batching.intervalMs } } } : undefined;
	const ours = { resource: 'tag', operation: 'removeFromContact', phoneNumber: '={{ $json.phone }}', tagIds: [BIG], ...(batch ? { requestOptions: batch } : {}) };
	const http = {
		method: 'POST',
		url: `${sandbox.baseUrl}/tag/remove-from-contact`,
		authentication: 'genericCredentialType',
		genericAuthType: 'httpHeaderAuth',
		sendBody: true,
		specifyBody: 'json',
		jsonBody: `={{ JSON.stringify({ phoneNumber: $json.phone, tagIds: ['${BIG}'] }) }}`,
		options: batch ?? {},
	};
	const step =
		client === 'ours'
			? { name: NODE, parameters: ours, executeOnce: false }
			: { name: NODE, type: 'n8n-nodes-base.httpRequest', typeVersion: HTTP_REQUEST_VERSION, parameters: http, executeOnce: false };
	const definition = chainWorkflow(name, path, [split, step], credential);
	definition.nodes[2].credentials =
		client === 'ours' ? { [CREDENTIAL_TYPE]: { id: credential.id, name: credential.name } } : { httpHeaderAuth: { id: headerAuth.id, name: headerAuth.name } };
	return definition;
}

function bulkWorkflow(name: string, client: Client, sandbox: Sandbox, rate: number, credential: CredentialRecord, headerAuth: CredentialRecord): WorkflowDefinition {
	const batching = client === 'httpBatched' ? { size: rate, intervalMs: 1000 } : undefined;
	const definition = removalWorkflow(name, `bench-bulk-${client}-${Date.now()}`, client === 'ours' ? 'ours' : 'http', batching, sandbox, credential, headerAuth);
	// Only the first item goes back over HTTP: what is measured is the node, not the answer.
	definition.nodes[0].parameters = { ...definition.nodes[0].parameters, responseData: 'firstEntryJson' };
	return definition;
}

const sleep = (msecs: number): Promise<void> => new Promise((r) => setTimeout(r, msecs));

/** One run on a fresh seed of `items` contacts on the big tag; the node may fail (HTTP Request on a 429). */
async function runBulk(ctx: E2EContext, workflow: WorkflowRecord, items: number, limit: RateLimit | undefined, label: string, client: string): Promise<BulkSample> {
	const { client: n8n, sandbox } = ctx;
	sandbox.reset({ contactsOnBigTag: items });
	sandbox.setRateLimit(limit);
	const phones = sandbox.state.tagMembers(BIG).map((member) => member.phoneNumber);
	const known = await n8n.executionIds(workflow.id);
	const answer = await n8n.callWebhook(webhookPathOf(workflow), { contacts: phones.map((phone) => ({ phone })) });
	let done: { id: string } | undefined;
	for (const deadline = Date.now() + 600_000; !done; ) {
		// n8n under load sometimes answers 503 "Database is not ready!" for a moment: asked again.
		const list = await n8n.listExecutions(workflow.id).catch((error: unknown) => {
			log(`listing executions: ${String(error).slice(0, 120)}; asking again`);
			return [];
		});
		done = list.find((e) => !known.has(e.id) && e.stoppedAt);
		if (!done && Date.now() > deadline) throw new Error(`"${workflow.name}": no finished execution after 600 s (webhook ${answer.status})`);
		if (!done) await sleep(200);
	}
	const execution = await n8n.getExecution(done.id);
	const task = (execution.data.resultData.runData as unknown as Record<string, Array<{ executionTime: number }>>)[NODE]?.[0];
	const requests = sandbox.requests.filter((r) => r.path === PATH);
	const accepted = new Set(requests.filter((r) => r.status === 200).map((r) => String((r.body as { phoneNumber: string }).phoneNumber)));
	const sample: BulkSample = {
		client,
		limit: label,
		items,
		done: accepted.size,
		ms: task?.executionTime ?? Date.parse(execution.stoppedAt!) - Date.parse(execution.startedAt),
		requests: requests.length,
		refused: requests.filter((r) => r.status === 429).length,
		status: execution.status,
		firstRequestMs: requests.length ? requests[0].at - Date.parse(execution.startedAt) : 0,
		sendingMs: requests.length ? Math.max(...requests.map((r) => r.answeredAt ?? r.at)) - requests[0].at : 0,
	};
	log(`bulk ${client}, ${label}: ${sample.done}/${items} done in ${sample.ms} ms (first request after ${sample.firstRequestMs} ms, then ${sample.sendingMs} ms), ${sample.requests} requests, ${sample.refused} refused (${sample.status})`);
	return sample;
}

export interface BulkSettings {
	items: number;
	rate: number;
	latencyMs: number;
	runs: number;
}

export interface BulkResult {
	limited: BulkSample[];
	unlimited: { ours: BulkSample[]; baseline?: BulkSample[] };
}

/** The limited rows (with and without Retry-After) and our node's runs without a limit. */
export async function measureBulk(ctx: E2EContext, headerAuth: CredentialRecord, settings: BulkSettings): Promise<{ limited: BulkSample[]; ours: BulkSample[] }> {
	const { sandbox, stack } = ctx;
	const clients: Array<[Client, string]> = [
		['ours', 'our node'],
		['http', 'HTTP Request, defaults'],
		['httpBatched', `HTTP Request, Batching ${settings.rate} per 1 000 ms`],
	];
	const workflows = new Map<Client, WorkflowRecord>();
	for (const [client, label] of clients) {
		workflows.set(client, await importAndActivate(ctx, bulkWorkflow(`bench bulk ${label}`, client, sandbox, settings.rate, stack.credential, headerAuth)));
	}
	sandbox.setLatency(settings.latencyMs);
	const limited: BulkSample[] = [];
	for (const retryAfter of [true, false]) {
		const limit: RateLimit = { perSecond: settings.rate, burst: settings.rate, retryAfter };
		const label = `${settings.rate}/s${retryAfter ? '' : ', no Retry-After'}`;
		for (const [client, name] of clients) limited.push(await runBulk(ctx, workflows.get(client)!, settings.items, limit, label, name));
	}
	const ours = await runsWithoutLimit(ctx, workflows.get('ours')!, settings, 'our node');
	for (const workflow of workflows.values()) await stack.client.deactivate(workflow.id);
	sandbox.setRateLimit(undefined);
	return { limited, ours };
}

/** Our node's bulk workflow, `runs` times without a limit (after one warm-up). */
export async function runsWithoutLimit(ctx: E2EContext, workflow: WorkflowRecord, settings: BulkSettings, client: string): Promise<BulkSample[]> {
	ctx.sandbox.setLatency(settings.latencyMs);
	await runBulk(ctx, workflow, settings.items, undefined, 'no limit (warm-up)', client);
	const samples: BulkSample[] = [];
	for (let run = 0; run < settings.runs; run++) samples.push(await runBulk(ctx, workflow, settings.items, undefined, 'no limit', client));
	return samples;
}

/** The baseline's workflow on another n8n (the package as released before the pace). */
export async function baselineRuns(ctx: E2EContext, settings: BulkSettings): Promise<BulkSample[]> {
	const definition = bulkWorkflow('bench bulk baseline', 'ours', ctx.sandbox, settings.rate, ctx.stack.credential, ctx.stack.credential);
	const workflow = await importAndActivate(ctx, definition);
	const samples = await runsWithoutLimit(ctx, workflow, settings, 'our node before the pace (all at once)');
	await ctx.stack.client.deactivate(workflow.id);
	return samples;
}

/**
 * The package as of `ref` (git archive of this repo), built and packed in a temporary folder with
 * the repo's node_modules; undefined when it cannot be built.
 */
export function packBaseline(ref: string, destDir: string): PackedPackage | undefined {
	const src = mkdtempSync(join(tmpdir(), 'n8n-bench-baseline-'));
	try {
		const archive = spawnSync('sh', ['-c', `git -C "${REPO_ROOT}" archive "${ref}" | tar -x -C "${src}"`], { encoding: 'utf8' });
		if (archive.status !== 0) throw new Error(archive.stderr);
		symlinkSync(join(REPO_ROOT, 'node_modules'), join(src, 'node_modules'));
		const build = spawnSync('npm', ['run', 'build', '--silent'], { cwd: src, encoding: 'utf8' });
		if (build.status !== 0 || !existsSync(join(src, 'dist', 'nodes', 'ConversationInbox', 'ConversationInbox.node.js'))) throw new Error(build.stderr || build.stdout);
		const pack = spawnSync('npm', ['pack', '--json', '--pack-destination', destDir], { cwd: src, encoding: 'utf8' });
		if (pack.status !== 0) throw new Error(pack.stderr);
		const [info] = JSON.parse(pack.stdout) as Array<{ filename: string; name: string; version: string; files: Array<{ path: string }> }>;
		return { tarball: join(destDir, info.filename), name: info.name, version: info.version, files: info.files.map((f) => f.path) };
	} catch (error) {
		log(`baseline ${ref} not built: ${String(error).slice(0, 500)}`);
		return undefined;
	} finally {
		rmSync(src, { recursive: true, force: true });
	}
}

export function printBulk(result: BulkResult, settings: BulkSettings): void {
	const floorMs = (settings.items / settings.rate) * 1000;
	console.log('');
	console.log(`Bulk: ${settings.items} items of Tag → Remove From Contact (one contact each) in one execution; sandbox limited to ${settings.rate} requests/s per token (token bucket of ${settings.rate}), ${settings.latencyMs} ms latency; floor ${settings.items} / ${settings.rate} s = ${ms(floorMs)}.`);
	console.log('');
	const rows: string[][] = [['limit', 'client', 'items done', 'time', 'vs floor', 'first request after', 'first request → last answer', 'requests', 'refused (429)', 'refused / items', 'execution']];
	for (const s of result.limited) {
		rows.push([s.limit, s.client, `${s.done} / ${s.items}`, ms(s.ms), ratio(s.ms / floorMs), ms(s.firstRequestMs), `${ms(s.sendingMs)} (${ratio(s.sendingMs / floorMs)})`, String(s.requests), String(s.refused), `${((100 * s.refused) / s.items).toFixed(1)} %`, s.status]);
	}
	printTable(rows, 2);
	const oursMedian = median(result.unlimited.ours.map((s) => s.ms));
	const baselineMedian = result.unlimited.baseline ? median(result.unlimited.baseline.map((s) => s.ms)) : undefined;
	console.log('');
	printTable([
		['no limit', 'runs (ms)', 'median', 'items done'],
		['our node (the pace)', result.unlimited.ours.map((s) => s.ms).join(', '), ms(oursMedian), result.unlimited.ours.map((s) => s.done).join(', ')],
		...(result.unlimited.baseline
			? [['our node before the pace (all at once)', result.unlimited.baseline.map((s) => s.ms).join(', '), ms(baselineMedian!), result.unlimited.baseline.map((s) => s.done).join(', ')]]
			: []),
	]);
	console.log('');
	const targets: string[][] = [['target (issue 24)', 'measured', '']];
	for (const s of result.limited.filter((x) => x.client === 'our node')) {
		targets.push([`${s.limit}: all done`, `${s.done} / ${s.items}`, verdict(s.done === s.items)]);
		targets.push([`${s.limit}: time <= ${BULK_TARGETS.vsFloor}× floor`, ratio(s.ms / floorMs), verdict(s.ms / floorMs <= BULK_TARGETS.vsFloor)]);
		targets.push([`${s.limit}: refused <= ${BULK_TARGETS.refusedShare * 100} % of items`, `${((100 * s.refused) / s.items).toFixed(1)} %`, verdict(s.refused <= BULK_TARGETS.refusedShare * s.items)]);
	}
	if (baselineMedian !== undefined) {
		targets.push([`no limit: <= ${BULK_TARGETS.unlimitedVsAllAtOnce}× all at once`, ratio(oursMedian / baselineMedian), verdict(oursMedian / baselineMedian <= BULK_TARGETS.unlimitedVsAllAtOnce)]);
	}
	printTable(targets);
}
