/* eslint-disable -- development tooling, not shipped: n8n's node rules (eslint.config.mjs, n8n-node lint) are for nodes/ and credentials/ */
/**
 * Queue mode as users run it (issue 30): no process starts with the package. Main installs it
 * through n8n's installer (`POST /rest/community-packages`, what Settings → Community Nodes calls);
 * workers that start with an empty .n8n/nodes and N8N_REINSTALL_MISSING_PACKAGES=true install it
 * themselves at start; main updates it (`PATCH`), and we read which version a running worker, a
 * worker that was down during the update, and a worker restarted after it, actually run.
 *
 * Where the package comes from: the local test registry (harness/registry.ts) under the name of
 * the public one, through harness/registry-front.ts: every n8n process runs in a mount namespace of
 * its own where registry.npmjs.org is a TLS front of the test registry. n8n keeps its default
 * registry, so no licence is involved (a custom registry is a licensed feature that n8n's E2E hook
 * can switch on for main only; workers serve no REST). Nothing is copied into a nodes folder: the
 * front counts the tarballs npm fetched, process by process.
 *
 * Which version ran: a probe workflow holds Tag → Get Contacts at node version 2 (one Tag field).
 * Today's build (published as 0.2.0) sends the request and returns the contact; 0.1.0 has no version
 * 2 and reads its own Tag ID / Tag Name fields, finds neither and refuses before sending anything.
 * The probe runs with one worker up, so the worker that ran it is known (and its log says so).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';

import { DEMO, startSandbox } from '../../sandbox';
import type { Sandbox } from '../../sandbox';
import { importAndActivate, webhookPathOf, type E2EContext } from '../harness/context';
import { nodeJson, type Execution, type WorkflowRecord } from '../harness/n8n-client';
import { processGroupMembers, type N8nProcess } from '../harness/n8n-process';
import type { PackedPackage } from '../harness/package';
import { N8N_VERSIONS, PACKAGE_NAME, type N8nInstall } from '../harness/provision';
import { describeWhen } from '../harness/gate';
import { EditorCalls, type InstalledPackageRow } from '../harness/installer';
import { describeStartup, startQueueStack, type QueueClient, type QueueStack } from '../harness/queue-stack';
import { RELEASED_0_1_0_TARBALL, repackWithVersion, startRegistry, type LocalRegistry } from '../harness/registry';
import { canUseMountNamespace, startRegistryFront, type FrontRequest, type RegistryFront } from '../harness/registry-front';
import { until } from '../harness/until';
import { chainWorkflow } from '../harness/workflows';
import { NEXT_VERSION as NEXT } from './install';
import { queueSuiteEnabled } from './queue';

const RELEASED = '0.1.0';
const FINISHED = ['success', 'error', 'crashed', 'canceled'];

const report = (line: string): void => void process.stderr.write(`[queue-install] ${line}\n`);
const secs = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;

function fromEnv<T>(name: string): T {
	const raw = process.env[name];
	if (!raw) throw new Error(`${name} is not set: run the e2e tests with jest -c jest.e2e.config.js (its globalSetup provisions n8n)`);
	return JSON.parse(raw) as T;
}

/** The version of our package in a process's nodes folder, or undefined when it is not there. */
function versionOnDisk(process: N8nProcess): string | undefined {
	try {
		const manifest = JSON.parse(readFileSync(join(process.userFolder, '.n8n', 'nodes', 'node_modules', PACKAGE_NAME, 'package.json'), 'utf8')) as { version?: string };
		return manifest.version;
	} catch {
		return undefined;
	}
}

const tarballOf = (version: string): RegExp => new RegExp(`/-/${PACKAGE_NAME}-${version.replace(/\./g, '\\.')}\\.tgz$`);

/**
 * npm's user agent names the process that ran it (npm_config_user_agent, set per process through
 * the stack's envFor), so the front can tell whose npm fetched what. n8n's own fetches say "node".
 */
const NPM_AGENT = 'npm/{npm-version} node/{node-version} n8n-e2e/';
const processName = (p: N8nProcess): string => basename(p.userFolder);
const npmOf = (p: N8nProcess) => (r: FrontRequest): boolean => r.userAgent === undefined ? false : r.userAgent.endsWith(` n8n-e2e/${processName(p)}`);
/** the tarballs of `version` that `p`'s npm fetched (`npm pack`, HTTP 200) */
const tarballsBy = (requests: FrontRequest[], p: N8nProcess, version: string): FrontRequest[] =>
	requests.filter((r) => npmOf(p)(r) && r.npmCommand === 'pack' && tarballOf(version).test(r.path) && r.status === 200);
const describeRequests = (requests: FrontRequest[]): string => requests.map((r) => `${r.method} ${r.path} ${r.status}${r.npmCommand ? ` (npm ${r.npmCommand})` : ' (n8n)'}`).join('; ');

/** n8n logs this when its installer has (re)loaded a package, at start or on main's command. */
const INSTALLED = `Community package installed: ${PACKAGE_NAME}`;
const count = (text: string, needle: string): number => text.split(needle).length - 1;

interface InstallContext extends E2EContext {
	queue: QueueStack;
	front: RegistryFront;
	registry: LocalRegistry;
}

interface Probe {
	execution: Execution;
	/** which code ran it: today's (NEXT) or the released one */
	behaves: typeof NEXT | typeof RELEASED;
	/** the Get Contacts requests the probe sent */
	listRequests: number;
	detail: string;
}

export function describeQueueInstall(): void {
	const namespaces = canUseMountNamespace();
	const enabled = queueSuiteEnabled() && namespaces;
	const off = namespaces
		? 'E2E_QUEUE=0, or N8N_E2E_VERSIONS does not select n8n 2'
		: 'no mount namespace here (unshare --mount and a bind mount need root or CAP_SYS_ADMIN; a Docker container needs --cap-add SYS_ADMIN and AppArmor unconfined)';
	describeWhen(enabled, `n8n ${N8N_VERSIONS['2']} in queue mode: the package through n8n's installer, on workers that start without it`, off, () => {
		let current: InstallContext | undefined;
		let sandbox: Sandbox | undefined;
		let registry: LocalRegistry | undefined;
		let front: RegistryFront | undefined;
		let queue: QueueStack | undefined;
		let repackDir: string | undefined;
		let installAnswer: InstalledPackageRow | undefined;
		let installMs = 0;
		let installRequests: FrontRequest[] = [];
		const setupTimes: string[] = [];
		const groups: number[] = [];
		const labels = new Map<N8nProcess, string>();

		beforeAll(async () => {
			const install = fromEnv<N8nInstall>('E2E_N8N_2');
			const packed = fromEnv<PackedPackage>('E2E_PACKED');
			let t = Date.now();
			sandbox = await startSandbox({ quiet: true });
			registry = await startRegistry();
			setupTimes.push(`registry ${secs(Date.now() - t)}`);
			t = Date.now();
			repackDir = mkdtempSync(join(tmpdir(), 'n8n-e2e-next-'));
			registry.publish(RELEASED_0_1_0_TARBALL);
			registry.publish(repackWithVersion(packed.tarball, NEXT, repackDir));
			setupTimes.push(`publish ${RELEASED} + ${NEXT} ${secs(Date.now() - t)}`);
			t = Date.now();
			front = await startRegistryFront(registry.url);
			setupTimes.push(`TLS front ${secs(Date.now() - t)} (registry.npmjs.org → ${front.address}:443)`);
			const theFront = front;
			queue = await startQueueStack({
				install,
				packed,
				api: { baseUrl: sandbox.baseUrl, apiToken: sandbox.token },
				// Main and the webhook processor first; the workers start once main has the package.
				workers: 0,
				emptyNodes: true,
				launcher: theFront.launcher,
				env: { ...theFront.env, N8N_REINSTALL_MISSING_PACKAGES: 'true' },
				envFor: (folder) => ({ npm_config_user_agent: `${NPM_AGENT}${basename(folder)}` }),
				log: report,
				prepare: async (client: QueueClient) => {
					const from = theFront.requests.length;
					const started = Date.now();
					installAnswer = await new EditorCalls(client).installPackage(PACKAGE_NAME, RELEASED);
					installMs = Date.now() - started;
					installRequests = theFront.requests.slice(from);
				},
			});
			labels.set(queue.main, 'main');
			labels.set(queue.webhook, 'webhook processor');
			report(`setup: ${setupTimes.join(', ')}; stack ${describeStartup(queue.startup)} (includes main's install, ${secs(installMs)})`);
			current = { major: '2', install, sandbox, stack: queue.asN8nStack(), client: queue.client, queue, front, registry, productionUrl: queue.webhook.url };
		}, 600_000);

		afterAll(async () => {
			if (queue) groups.push(queue.main.pid, queue.webhook.pid, ...queue.workers.map((w) => w.pid), queue.postgres.process.pid, queue.redis.process.pid);
			await queue?.stop();
			await front?.stop();
			await registry?.stop();
			await sandbox?.close();
			if (repackDir) rmSync(repackDir, { recursive: true, force: true });
			for (const pid of groups) expect(processGroupMembers(pid)).toEqual([]);
		}, 120_000);

		const ctx = (): InstallContext => {
			if (!current) throw new Error('the queue-mode stack did not start (see the beforeAll error)');
			return current;
		};
		const label = (p: N8nProcess): string => labels.get(p) ?? `pid ${p.pid}`;

		/** Starts a worker and names it; returns it with its start time and the front's requests during it. */
		async function startWorker(name: string, start: () => Promise<N8nProcess>): Promise<{ worker: N8nProcess; ms: number; requests: FrontRequest[] }> {
			const c = ctx();
			const from = c.front.requests.length;
			const t = Date.now();
			const worker = await start();
			labels.set(worker, name);
			return { worker, ms: Date.now() - t, requests: c.front.requests.slice(from) };
		}

		let probeWorkflow: WorkflowRecord | undefined;
		let createWorkflow: WorkflowRecord | undefined;

		/** Runs the probe once; exactly one worker must be up, and it must be the one that ran it. */
		async function probe(expectedWorker: N8nProcess): Promise<Probe> {
			const c = ctx();
			expect(c.queue.workers).toHaveLength(1);
			expect(c.queue.workers[0] === expectedWorker).toBe(true);
			if (!probeWorkflow) throw new Error('the probe workflow was not created');
			const listBefore = c.sandbox.requests.filter((r) => r.path === '/v2/tag/list-contacts').length;
			const known = await c.client.executionIds(probeWorkflow.id);
			await c.client.callWebhook(webhookPathOf(probeWorkflow), {});
			const [summary] = await c.client.waitForExecutions(probeWorkflow.id, known, 1, 60_000);
			const execution = await until('the probe execution to finish', async () => {
				const e = await c.client.getExecution(summary.id);
				return FINISHED.includes(e.status) ? e : undefined;
			}, 60_000);
			expect(c.queue.executionsStartedBy(expectedWorker)).toContain(execution.id);
			const listRequests = c.sandbox.requests.filter((r) => r.path === '/v2/tag/list-contacts').length - listBefore;
			const error = execution.data.resultData.error?.message;
			if (execution.status === 'success') {
				const contacts = nodeJson(execution, 'Probe');
				expect(contacts).toHaveLength(1);
				expect(listRequests).toBe(1);
				return { execution, behaves: NEXT, listRequests, detail: `success, ${contacts.length} contact` };
			}
			// 0.1.0's rule for its two fields, before anything is sent.
			expect(listRequests).toBe(0);
			expect(error).toMatch(/Tag ID|Tag Name/);
			return { execution, behaves: RELEASED, listRequests, detail: `${execution.status}: ${error}` };
		}

		test(`main installs ${RELEASED} through n8n's installer (POST /rest/community-packages), from the registry behind registry.npmjs.org`, () => {
			const c = ctx();
			expect(installAnswer?.installedVersion).toBe(RELEASED);
			expect(installAnswer?.installedNodes.map((n) => n.type).sort()).toEqual([`${PACKAGE_NAME}.conversationInbox`, `${PACKAGE_NAME}.conversationInboxTrigger`]);
			expect(versionOnDisk(c.queue.main)).toBe(RELEASED);
			// npm (n8n runs `npm pack`) fetched the released tarball through the front, over TLS.
			expect(tarballsBy(c.front.requests, c.queue.main, RELEASED)).toHaveLength(1);
			report(`main: install ${RELEASED} took ${secs(installMs)}; the front answered ${installRequests.length} requests: ${describeRequests(installRequests)}`);
		});

		test('the webhook processor, which started with an empty nodes folder, took the package on main\'s install command', async () => {
			const c = ctx();
			await until('the webhook processor to install the package', () => (count(c.queue.webhook.log(), INSTALLED) >= 1 ? true : undefined), 60_000);
			expect(versionOnDisk(c.queue.webhook)).toBe(RELEASED);
			expect(tarballsBy(c.front.requests, c.queue.webhook, RELEASED)).toHaveLength(1);
		});

		test(`two workers that start with an empty .n8n/nodes and N8N_REINSTALL_MISSING_PACKAGES=true install ${RELEASED} themselves, from the registry`, async () => {
			const c = ctx();
			const from = c.front.requests.length;
			const t = Date.now();
			const [a, b] = await Promise.all([startWorker('worker A', () => c.queue.startWorker()), startWorker('worker B', () => c.queue.startWorker())]);
			const bothMs = Date.now() - t;
			for (const { worker } of [a, b]) {
				// n8n's own words: the package was missing at start, and it reinstalled it.
				expect(worker.startupLog()).toContain('Attempting to reinstall missing packages');
				expect(worker.startupLog()).toContain('Packages reinstalled successfully');
				expect(versionOnDisk(worker)).toBe(RELEASED);
			}
			const during = c.front.requests.slice(from);
			// Each worker's own npm fetched the tarball once (`npm pack`, as n8n runs it).
			for (const { worker } of [a, b]) expect(tarballsBy(during, worker, RELEASED)).toHaveLength(1);
			report(`workers A and B: ready with ${RELEASED} after ${secs(a.ms)} / ${secs(b.ms)} (both ${secs(bothMs)}, install at start included); the front answered ${during.length} requests: ${describeRequests(during)}`);
		}, 300_000);

		test('executions of our node run on those workers', async () => {
			const c = ctx();
			const credential = c.queue.credential;
			createWorkflow = await importAndActivate(c, chainWorkflow('queue install: create a tag', `queue-install-create-${Date.now()}`, [{ name: 'Create', typeVersion: 1, parameters: { resource: 'tag', operation: 'create', name: '={{ $json.body.name }}' } }], credential));
			probeWorkflow = await importAndActivate(c, chainWorkflow('queue install: version probe', `queue-install-probe-${Date.now()}`, [{ name: 'Probe', typeVersion: 2, parameters: { resource: 'tag', operation: 'getContacts', tag: { __rl: true, mode: 'id', value: DEMO.tags.big.id }, limit: 1 } }], credential));
			const known = await c.client.executionIds(createWorkflow.id);
			const RUNS = 4;
			for (let i = 0; i < RUNS; i++) expect((await c.client.callWebhook(webhookPathOf(createWorkflow), { name: `Queue install ${i}` })).status).toBe(200);
			const executions = await c.client.waitForExecutions(createWorkflow.id, known, RUNS, 60_000);
			expect(executions.map((e) => e.status)).toEqual(Array.from({ length: RUNS }, () => 'success'));
			for (let i = 0; i < RUNS; i++) expect(c.sandbox.state.tagByName(`Queue install ${i}`)).toBeDefined();
			const perWorker = c.queue.workers.map((w) => executions.filter((e) => c.queue.executionsStartedBy(w).includes(e.id)).length);
			// Each execution started on exactly one of the two workers, none on main or the webhook processor.
			expect(perWorker.reduce((sum, n) => sum + n, 0)).toBe(RUNS);
			for (const p of [c.queue.main, c.queue.webhook]) expect(p.log()).not.toMatch(/Worker started execution/);
			report(`${RUNS} executions of Tag → Create: per worker ${c.queue.workers.map((w, i) => `${label(w)} ${perWorker[i]}`).join(', ')}`);
		}, 120_000);

		let runningAfterUpdate: N8nProcess | undefined;
		let downDuringUpdate: N8nProcess | undefined;

		test(`the probe tells the versions apart: on ${RELEASED} it is refused before sending`, async () => {
			const c = ctx();
			const [a, b] = c.queue.workers;
			await c.queue.stopWorker(b);
			downDuringUpdate = b;
			runningAfterUpdate = a;
			const result = await probe(a);
			expect(result.behaves).toBe(RELEASED);
			report(`probe on ${label(a)} before the update (${RELEASED} on disk): ${result.detail}`);
		}, 120_000);

		test(`update to ${NEXT} on main (PATCH /rest/community-packages): a running worker takes it on main's command`, async () => {
			const c = ctx();
			const worker = runningAfterUpdate!;
			const installedBefore = count(worker.log(), INSTALLED);
			const webhookInstalledBefore = count(c.queue.webhook.log(), INSTALLED);
			const from = c.front.requests.length;
			const t = Date.now();
			// The page's Update: no version, n8n takes the latest the registry has.
			const answer = await new EditorCalls(c.client).updatePackage(PACKAGE_NAME);
			const updateMs = Date.now() - t;
			expect(answer.installedVersion).toBe(NEXT);
			expect(versionOnDisk(c.queue.main)).toBe(NEXT);
			await until(`${label(worker)} to install ${NEXT}`, () => (count(worker.log(), INSTALLED) > installedBefore ? true : undefined), 120_000);
			const workerMs = Date.now() - t;
			expect(versionOnDisk(worker)).toBe(NEXT);
			// The webhook processor takes the update on its own; until it has, it still builds the
			// execution's node parameters with the old version and the worker refuses them (a CI run
			// saw "The 'Probe' node has issues: Parameter "Tag" is required"). Probe once both have it.
			await until(`the webhook processor to install ${NEXT}`, () => (count(c.queue.webhook.log(), INSTALLED) > webhookInstalledBefore ? true : undefined), 120_000);
			expect(versionOnDisk(c.queue.webhook)).toBe(NEXT);
			const during = c.front.requests.slice(from);
			// Main's npm and the running worker's own npm each fetched the new tarball once.
			expect(tarballsBy(during, c.queue.main, NEXT)).toHaveLength(1);
			expect(tarballsBy(during, worker, NEXT)).toHaveLength(1);
			const result = await probe(worker);
			expect(result.behaves).toBe(NEXT);
			report(`update: main answered in ${secs(updateMs)}; ${label(worker)} (running) had ${NEXT} loaded ${secs(workerMs)} after the call; the front answered ${during.length} requests: ${describeRequests(during)}`);
			report(`probe on ${label(worker)} (running during the update): ${result.detail} → runs ${result.behaves}`);
		}, 300_000);

		test('a worker that was down during the update, started again: which version it runs', async () => {
			const c = ctx();
			const worker = downDuringUpdate!;
			await c.queue.stopWorker(runningAfterUpdate!);
			const diskBefore = versionOnDisk(worker);
			const { worker: again, ms, requests } = await startWorker(`${label(worker)} (restarted)`, () => c.queue.restartWorker(worker));
			const result = await probe(again);
			const reinstalled = again.startupLog().includes('Attempting to reinstall missing packages');
			report(
				`${label(again)}, down during the update: ${diskBefore} on disk before its start, ${versionOnDisk(again)} after; ready in ${secs(ms)}; reinstall at start: ${reinstalled ? 'yes' : 'no'}; ` +
					`the front answered ${requests.length} requests; probe: ${result.detail} → runs ${result.behaves} (main's record: ${NEXT})`,
			);
			// n8n 2.41.1 reinstalls at start only what is missing (checkForMissingPackages looks at
			// whether the package's nodes loaded, not at their version): the old version stays.
			expect(diskBefore).toBe(RELEASED);
			expect(requests.filter(npmOf(again))).toEqual([]);
			expect(reinstalled).toBe(false);
			expect(result.behaves).toBe(RELEASED);
		}, 300_000);

		test(`a worker restarted after it took the update runs ${NEXT}; a new worker with an empty folder installs ${NEXT}`, async () => {
			const c = ctx();
			await c.queue.stopWorker(c.queue.workers[0]);
			const restarted = await startWorker('worker A (restarted)', () => c.queue.restartWorker(runningAfterUpdate!));
			const onRestarted = await probe(restarted.worker);
			expect(onRestarted.behaves).toBe(NEXT);
			await c.queue.stopWorker(restarted.worker);
			const fresh = await startWorker('worker C (new, empty folder)', () => c.queue.startWorker());
			expect(fresh.worker.startupLog()).toContain('Attempting to reinstall missing packages');
			expect(versionOnDisk(fresh.worker)).toBe(NEXT);
			expect(tarballsBy(fresh.requests, fresh.worker, NEXT)).toHaveLength(1);
			expect(restarted.requests.filter(npmOf(restarted.worker))).toEqual([]);
			const onFresh = await probe(fresh.worker);
			expect(onFresh.behaves).toBe(NEXT);
			report(`worker A restarted after the update: ready in ${secs(restarted.ms)}, ${versionOnDisk(restarted.worker)} on disk, probe → ${onRestarted.behaves}; worker C (empty folder): ready with ${NEXT} in ${secs(fresh.ms)}, probe → ${onFresh.behaves}`);
			const all = c.front.requests;
			const byProcess = new Map<string, number>();
			for (const r of c.front.tarballs()) {
				const who = /n8n-e2e\/(\S+)$/.exec(r.userAgent ?? '')?.[1] ?? 'unknown';
				byProcess.set(who, (byProcess.get(who) ?? 0) + 1);
			}
			report(
				`the front answered ${all.length} requests in all: ${all.filter((r) => r.npmCommand).length} from npm, ${all.filter((r) => !r.npmCommand).length} from n8n itself; ` +
					`tarballs ${RELEASED}: ${c.front.tarballs().filter((r) => tarballOf(RELEASED).test(r.path)).length}, ${NEXT}: ${c.front.tarballs().filter((r) => tarballOf(NEXT).test(r.path)).length}; ` +
					`tarballs per process (user folder): ${[...byProcess.entries()].map(([who, n]) => `${who} ${n}`).join(', ')}`,
			);
		}, 300_000);
	});
}
