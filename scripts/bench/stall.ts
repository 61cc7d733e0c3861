/* eslint-disable -- development tooling, not shipped: n8n's node rules (eslint.config.mjs, n8n-node lint) are for nodes/ and credentials/ */
/**
 * The bench's `stall` case (issue 31): does n8n keep answering while our node runs one execution of
 * many items? In a fresh real n8n (2.x, the packed package) per expression engine (n8n's default,
 * then `N8N_EXPRESSION_ENGINE=legacy`), against the sandbox with the bench's latency and no rate
 * limit, a poller in its own process (scripts/bench/stall-poller.mjs) asks n8n's `/healthz` and a
 * trivial webhook workflow (Webhook node, answers on receipt) every `--stall-poll` ms while one
 * execution of N items runs (Webhook → Split Out → the node):
 *   - our node: Tag → Remove From Contact, Phone Number `={{ $json.phone }}`;
 *   - n8n's HTTP Request node doing the same POSTs (the same phone mapped per item);
 *   - our node with Settings → Request Options → Batching, on the first engine: the candidates of
 *     `--stall-batching` are tried at the smallest N, and the fastest one whose longest gap is within
 *     the goal (250 ms; else the one with the shortest gap) is then measured at every N, and the
 *     HTTP Request node with the same setting beside it.
 * Figures per run: the longest gap between two answers to the poller (either target; both shown)
 * and where the webhook's lay (before n8n's loop ended, while the requests went, or after),
 * the first-request delay (the sandbox's arrival time of the first request minus the execution's
 * startedAt), the node's run time (its executionTime in runData), items done (contacts the sandbox
 * accepted), n8n's CPU time during the run (its main process, /proc, less the poller's answers at their idle cost:
 * the figure a busy shared machine distorts least). Plus an idle n8n (the poller alone) for scale.
 *
 * Bounded: every execution has n8n's own execution timeout and a deadline here (`--stall-timeout`
 * s); a run past it is reported as such, its execution is stopped, and the engine's remaining runs
 * are skipped (n8n may still be frozen). The poller stops itself after that deadline too.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { HTTP_REQUEST_VERSION, NODE, removalWorkflow, type Batching } from './bulk';
import { FLOOR_CREDENTIAL_TYPE, FLOOR_NODES, installFloor } from './floor';
import { log, median, ms, printTable, ratio } from './lists';
import { GOALS } from './goals';
import { DEMO } from '../../test/sandbox';
import type { Sandbox } from '../../test/sandbox';
import { importAndActivate, webhookPathOf, type E2EContext } from '../../test/e2e/harness/context';
import type { CredentialRecord, WorkflowDefinition, WorkflowRecord } from '../../test/e2e/harness/n8n-client';
import type { PackedPackage } from '../../test/e2e/harness/package';
import type { N8nInstall } from '../../test/e2e/harness/provision';
import { REPO_ROOT } from '../../test/e2e/harness/provision';
import { startN8nStack, type N8nStack } from '../../test/e2e/harness/stack';
import { chainWorkflow, webhookNode } from '../../test/e2e/harness/workflows';

const PATH = '/v2/tag/remove-from-contact';
const BIG = DEMO.tags.big.id;
const POLLER = join(REPO_ROOT, 'scripts', 'bench', 'stall-poller.mjs');
/** The Batching goal: the longest gap with the documented setting (issue 31). */
export const STALL_BATCHED_GAP_GOAL_MS = 250;

export type Engine = 'default' | 'legacy';
export type { Batching };
export const describeBatching = (b: Batching | undefined): string => (b ? `${b.size} items per batch, ${b.intervalMs} ms` : 'none');

export interface StallSettings {
	items: number[];
	engines: Engine[];
	/** candidates, tried in this order at the smallest item count */
	batching: Batching[];
	latencyMs: number;
	pollMs: number;
	/** per run */
	timeoutMs: number;
	/** extra n8n environment (the bench's --n8n-env) */
	env: Record<string, string>;
	/** extra arguments for n8n's node (the bench's --cpu-prof) */
	nodeArgs?: string[];
	/** issue 44: rounds of ours and the two floor nodes, alternated, at the smallest item count (0: none) */
	floorRounds: number;
	/** issue 44: the item counts at which the floor nodes run beside ours (the rounds: the smallest count) */
	floorItems: number[];
}

/** our node, n8n's HTTP Request node, and the two floor nodes (./floor.ts): two properties, and our count of them */
export type Client = 'ours' | 'http' | 'floorTwo' | 'floorShape';

export interface StallSample {
	engine: Engine;
	client: Client;
	batching?: Batching;
	items: number;
	done: number;
	status: string;
	/** longest time without an answer from n8n: the larger of the two targets' */
	gapMs: number;
	healthzGapMs: number;
	webhookGapMs: number;
	/** where the webhook's longest gap lay: its start and end, ms after the execution's startedAt */
	webhookGapAt: [number, number];
	/** the sandbox's last answer to the node, and the execution's stoppedAt, ms after its startedAt */
	lastAnswerMs: number;
	stoppedMs: number;
	/** poller requests answered / sent during the run */
	answered: number;
	polls: number;
	firstRequestMs: number;
	/** CPU time of n8n's main process from the trigger until the execution was seen finished */
	rawCpuMs: number;
	/** the same less what the poller's answers in that time cost n8n (at the idle cost per answer) */
	cpuMs: number;
	nodeMs: number;
	timedOut: boolean;
}

export interface StallEngineResult {
	engine: Engine;
	idle: { gapMs: number; healthzGapMs: number; webhookGapMs: number; cpuMsPerAnswer: number };
	samples: StallSample[];
	/** what was skipped and why (a run past its bound) */
	skipped: string[];
}

export interface StallResult {
	settings: StallSettings;
	engines: StallEngineResult[];
	/** the candidates tried (first engine, smallest N) */
	search: StallSample[];
	/** the Batching setting measured everywhere: the fastest within the goal, else the one with the shortest gap */
	chosen?: Batching;
	/** issue 44: ours and the floors, alternated rounds at the smallest item count (first engine) */
	floor?: { rounds: StallSample[]; twoProperties: number; shapeProperties: number };
	/** whether the chosen setting kept the gap within the goal at the search's size */
	chosenWithinGoal: boolean;
}

// ---- the poller -----------------------------------------------------------------------------

interface Probe {
	target: 'healthz' | 'webhook';
	sentAt: number;
	answeredAt?: number;
	status: number;
}

interface Poller {
	/** resolves once each target has answered `count` times */
	warm(count: number): Promise<void>;
	stop(): Promise<Probe[]>;
}

function startPoller(healthzUrl: string, webhookUrl: string, pollMs: number, lifetimeMs: number): Poller {
	const child: ChildProcess = fork(POLLER, [healthzUrl, webhookUrl, String(pollMs), String(lifetimeMs)], {
		// plain Node, not the bench's ts-node (whose loader fork() would pass on)
		execArgv: [],
		stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
	});
	let probes: Probe[] | undefined;
	let markReady: () => void = () => undefined;
	const ready = new Promise<void>((resolve) => (markReady = resolve));
	const finished = new Promise<Probe[]>((resolve, reject) => {
		child.on('message', (message: { ready?: boolean; probes?: Probe[] }) => {
			if (message.ready) markReady();
			if (message.probes) {
				probes = message.probes;
				resolve(probes);
			}
		});
		child.once('exit', (code) => (probes ? resolve(probes) : reject(new Error(`the poller exited (${code}) without its probes`))));
	});
	return {
		async warm(count: number): Promise<void> {
			let timer: NodeJS.Timeout | undefined;
			const timeout = new Promise<never>((_, reject) => {
				timer = setTimeout(() => reject(new Error('the poller got no answer from n8n within 30 s')), 30_000);
			});
			try {
				await Promise.race([ready, timeout]);
			} finally {
				clearTimeout(timer);
			}
			// a few rounds of polling on the idle n8n before the run starts
			await sleep(count * pollMs);
		},
		async stop(): Promise<Probe[]> {
			if (child.connected) child.send('stop');
			return await finished;
		},
	};
}

/** The longest time between two answers of `target` within [from, to] (from, to count as answers), and where it lies. */
function longestGapSpan(probes: Probe[], from: number, to: number, target?: Probe['target']): { ms: number; start: number; end: number } {
	const times = probes
		.filter((p) => p.answeredAt !== undefined && (!target || p.target === target) && p.answeredAt > from && p.answeredAt < to)
		.map((p) => p.answeredAt as number)
		.sort((a, b) => a - b);
	const points = [from, ...times, to];
	const span = { ms: 0, start: from, end: from };
	for (let i = 1; i < points.length; i++) {
		if (points[i] - points[i - 1] > span.ms) Object.assign(span, { ms: points[i] - points[i - 1], start: points[i - 1], end: points[i] });
	}
	return span;
}

const longestGap = (probes: Probe[], from: number, to: number, target?: Probe['target']): number => longestGapSpan(probes, from, to, target).ms;

// ---- workflows ------------------------------------------------------------------------------

function stallWorkflow(name: string, client: Client, batching: Batching | undefined, sandbox: Sandbox, credentials: StallCredentials, timeoutMs: number): WorkflowDefinition {
	const path = `bench-stall-${client}-${randomUUID()}`;
	const definition =
		client === 'ours' || client === 'http'
			? removalWorkflow(name, path, client, batching, sandbox, credentials.ours, credentials.headerAuth)
			: floorWorkflow(name, path, client, credentials.floor);
	// Answer the trigger at once: the bench waits on the sandbox and the execution, not on a long request.
	definition.nodes[0].parameters = { ...definition.nodes[0].parameters, responseMode: 'onReceived' };
	// n8n's own bound on the execution (it fires once n8n's event loop is free again).
	definition.settings = { ...definition.settings, executionTimeout: Math.ceil(timeoutMs / 1000) };
	return definition;
}

interface StallCredentials {
	ours: CredentialRecord;
	headerAuth: CredentialRecord;
	floor: CredentialRecord;
}

/** The same removal by a floor node: Phone Number mapped as ours is, the big tag in its request. */
function floorWorkflow(name: string, path: string, client: 'floorTwo' | 'floorShape', credential: CredentialRecord): WorkflowDefinition {
	const split = { name: 'Split', type: 'n8n-nodes-base.splitOut', parameters: { fieldToSplitOut: 'body.contacts', options: {} } };
	const type = client === 'floorTwo' ? FLOOR_NODES.remove.two : FLOOR_NODES.remove.shape;
	const step = { name: NODE, type, typeVersion: 1, parameters: { operation: 'removeFromContact', phoneNumber: '={{ $json.phone }}' }, executeOnce: false };
	const definition = chainWorkflow(name, path, [split, step], credential);
	definition.nodes[2].credentials = { [FLOOR_CREDENTIAL_TYPE]: { id: credential.id, name: credential.name } };
	return definition;
}

/** The poller's webhook: n8n's Webhook node, answering on receipt, nothing saved. */
function pollWorkflow(): WorkflowDefinition {
	const path = `bench-stall-poll-${randomUUID()}`;
	const node = webhookNode('Poll', path);
	node.parameters = { httpMethod: 'POST', path, responseMode: 'onReceived', options: {} };
	return { name: 'bench stall poll', nodes: [node], connections: {}, settings: { executionOrder: 'v1', saveDataSuccessExecution: 'none', saveDataErrorExecution: 'none' } };
}

const sleep = (msecs: number): Promise<void> => new Promise((r) => setTimeout(r, msecs));

/** Polls `check` every 100 ms until it is true or `deadline` (Date.now()) passes; returns whether it became true. */
async function until(check: () => boolean | Promise<boolean>, deadline: number): Promise<boolean> {
	for (;;) {
		if (await check()) return true;
		if (Date.now() > deadline) return false;
		await sleep(100);
	}
}

// ---- one run --------------------------------------------------------------------------------

/** CPU time (user + system) of a process so far, in ms (Linux /proc; clock ticks of 10 ms). */
function cpuMsOf(pid: number): number {
	const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
	const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
	// utime and stime are fields 14 and 15 of /proc/<pid>/stat, i.e. 12 and 13 after the comm
	return (Number(fields[11]) + Number(fields[12])) * 10;
}

interface RunSetup {
	/** n8n's main process (our node runs there) */
	pid: number;
	/** CPU ms per poller answer (either target) on the idle n8n */
	idleCpuMsPerAnswer: number;
	ctx: E2EContext;
	settings: StallSettings;
	engine: Engine;
	healthzUrl: string;
	pollUrl: string;
}

async function runStall(setup: RunSetup, workflow: WorkflowRecord, client: Client, batching: Batching | undefined, items: number): Promise<StallSample> {
	const { ctx, settings, engine } = setup;
	const { client: n8n, sandbox } = ctx;
	sandbox.reset({ contactsOnBigTag: items });
	sandbox.setRateLimit(undefined);
	sandbox.setLatency(settings.latencyMs);
	const phones = sandbox.state.tagMembers(BIG).map((member) => member.phoneNumber);
	const known = await n8n.executionIds(workflow.id);
	const poller = startPoller(setup.healthzUrl, setup.pollUrl, settings.pollMs, settings.timeoutMs + 60_000);
	let probes: Probe[] = [];
	let execution: Awaited<ReturnType<typeof n8n.getExecution>> | undefined;
	let timedOut = false;
	let triggeredAt = 0;
	let endedAt = 0;
	let cpuAtTrigger = 0;
	let cpuAtEnd = 0;
	try {
		await poller.warm(5);
		triggeredAt = Date.now();
		cpuAtTrigger = cpuMsOf(setup.pid);
		const deadline = triggeredAt + settings.timeoutMs;
		const answer = await n8n.callWebhook(webhookPathOf(workflow), { contacts: phones.map((phone) => ({ phone })) });
		if (answer.status !== 200) throw new Error(`"${workflow.name}": the webhook answered ${answer.status}: ${answer.text.slice(0, 300)}`);
		// Wait on the sandbox (not on n8n, which may be frozen) until every item's request was answered.
		await until(() => sandbox.requests.filter((r) => r.path === PATH && r.answeredAt !== undefined).length >= items, deadline);
		let id: string | undefined;
		timedOut = !(await until(async () => {
			// n8n under load sometimes answers 503 "Database is not ready!" for a moment: asked again.
			const list = await n8n.listExecutions(workflow.id).catch(() => []);
			const done = list.find((e) => !known.has(e.id) && e.stoppedAt);
			id = done?.id;
			return id !== undefined;
		}, deadline));
		endedAt = Date.now();
		cpuAtEnd = cpuMsOf(setup.pid);
		if (id) execution = await n8n.getExecution(id);
	} finally {
		probes = await poller.stop();
	}
	if (timedOut) {
		const running = (await n8n.listExecutions(workflow.id).catch(() => [])).find((e) => !known.has(e.id));
		if (running) await n8n.rest('POST', `/executions/${running.id}/stop`).catch(() => undefined);
	}
	const requests = sandbox.requests.filter((r) => r.path === PATH);
	const accepted = new Set(requests.filter((r) => r.status === 200).map((r) => String((r.body as { phoneNumber: string }).phoneNumber)));
	const startedAt = execution ? Date.parse(execution.startedAt) : triggeredAt;
	const task = execution ? (execution.data.resultData.runData as unknown as Record<string, Array<{ executionTime: number }>>)[NODE]?.[0] : undefined;
	const window = probes.filter((p) => p.sentAt >= triggeredAt && p.sentAt <= endedAt);
	const webhookSpan = longestGapSpan(probes, triggeredAt, endedAt, 'webhook');
	const sample: StallSample = {
		engine,
		client,
		batching,
		items,
		done: accepted.size,
		status: timedOut ? `timed out after ${ms(settings.timeoutMs)}` : (execution?.status ?? 'unknown'),
		gapMs: longestGap(probes, triggeredAt, endedAt),
		healthzGapMs: longestGap(probes, triggeredAt, endedAt, 'healthz'),
		webhookGapMs: webhookSpan.ms,
		webhookGapAt: [webhookSpan.start - startedAt, webhookSpan.end - startedAt],
		lastAnswerMs: requests.length ? Math.max(...requests.map((r) => r.answeredAt ?? r.at)) - startedAt : NaN,
		stoppedMs: execution?.stoppedAt ? Date.parse(execution.stoppedAt) - startedAt : NaN,
		answered: window.filter((p) => p.answeredAt !== undefined).length,
		polls: window.length,
		firstRequestMs: requests.length ? requests[0].at - startedAt : NaN,
		nodeMs: task?.executionTime ?? NaN,
		rawCpuMs: cpuAtEnd - cpuAtTrigger,
		cpuMs: cpuAtEnd - cpuAtTrigger - setup.idleCpuMsPerAnswer * window.filter((p) => p.answeredAt !== undefined).length,
		timedOut,
	};
	// the longest gap counts from the trigger to the moment the bench saw the execution finished
	sample.gapMs = Math.max(sample.healthzGapMs, sample.webhookGapMs);
	log(
		`stall ${engine} ${client}${batching ? ` (Batching ${describeBatching(batching)})` : ''}, ${items} items: ${sample.done} done, longest gap ${sample.gapMs} ms (healthz ${sample.healthzGapMs}, webhook ${sample.webhookGapMs}, from ${sample.webhookGapAt[0]} to ${sample.webhookGapAt[1]} ms after the start at ${startedAt}), first request after ${sample.firstRequestMs} ms, last answer after ${sample.lastAnswerMs} ms, stopped after ${sample.stoppedMs} ms, node ${sample.nodeMs} ms, n8n CPU ${sample.rawCpuMs} ms, ${sample.cpuMs.toFixed(0)} ms net of ${sample.answered} poller answers (${sample.status})`,
	);
	return sample;
}

/** The poller alone for `durationMs` on an idle n8n. */
async function idleGaps(setup: RunSetup, durationMs: number): Promise<StallEngineResult['idle']> {
	const poller = startPoller(setup.healthzUrl, setup.pollUrl, setup.settings.pollMs, durationMs + 60_000);
	await poller.warm(5);
	const from = Date.now();
	const cpuFrom = cpuMsOf(setup.pid);
	await sleep(durationMs);
	const to = Date.now();
	const cpuIdle = cpuMsOf(setup.pid) - cpuFrom;
	const probes = await poller.stop();
	const answers = probes.filter((p) => p.answeredAt !== undefined && p.sentAt >= from && p.sentAt <= to).length;
	const cpuMsPerAnswer = answers ? cpuIdle / answers : 0;
	const healthzGapMs = longestGap(probes, from, to, 'healthz');
	const webhookGapMs = longestGap(probes, from, to, 'webhook');
	return { gapMs: Math.max(healthzGapMs, webhookGapMs), healthzGapMs, webhookGapMs, cpuMsPerAnswer };
}

// ---- the case -------------------------------------------------------------------------------

export interface StallOptions {
	install: N8nInstall;
	packed: PackedPackage;
	sandbox: Sandbox;
	settings: StallSettings;
}

/** The fastest candidate whose longest gap is within the goal; when none is, the one with the shortest gap (so that it is still measured at every size). */
function choose(search: StallSample[]): { batching?: Batching; withinGoal: boolean } {
	const complete = search.filter((s) => !s.timedOut && s.done === s.items);
	const within = complete.filter((s) => s.gapMs <= STALL_BATCHED_GAP_GOAL_MS).sort((a, b) => a.nodeMs - b.nodeMs);
	if (within.length) return { batching: within[0].batching, withinGoal: true };
	return { batching: [...complete].sort((a, b) => a.gapMs - b.gapMs)[0]?.batching, withinGoal: false };
}

export async function measureStall(options: StallOptions): Promise<StallResult> {
	const { install, packed, sandbox, settings } = options;
	const result: StallResult = { settings, engines: [], search: [], chosenWithinGoal: false };
	const sizes = [...settings.items].sort((a, b) => a - b);
	for (const [engineIndex, engine] of settings.engines.entries()) {
		log(`stall: starting a fresh n8n ${install.version} (${engine === 'default' ? "n8n's default expression engine" : 'N8N_EXPRESSION_ENGINE=legacy'})`);
		let stack: N8nStack | undefined;
		// Our package and the floor package (./floor.ts) in one user folder.
		const userFolder = mkdtempSync(join(tmpdir(), 'n8n-bench-stall-'));
		try {
			const floorShape = installFloor(userFolder, sandbox.baseUrl);
			stack = await startN8nStack({
				install,
				packed,
				api: { baseUrl: sandbox.baseUrl, apiToken: sandbox.token },
				userFolder,
				logLevel: 'info',
				nodeArgs: settings.nodeArgs,
				env: { ...settings.env, ...(engine === 'legacy' ? { N8N_EXPRESSION_ENGINE: 'legacy' } : {}) },
			});
			const ctx: E2EContext = { major: install.major, install, sandbox, stack, client: stack.client };
			const headerAuth = await stack.client.createCredential({ name: 'Inbox API (Header Auth)', type: 'httpHeaderAuth', data: { name: 'Authorization', value: `Bearer ${sandbox.token}` } });
			const floor = await stack.client.createCredential({ name: 'Bench floor', type: FLOOR_CREDENTIAL_TYPE, data: { apiToken: sandbox.token } });
			const credentials: StallCredentials = { ours: stack.credential, headerAuth, floor };
			const poll = await importAndActivate(ctx, pollWorkflow());
			const pollUrl = `${stack.n8n.url}/webhook/${webhookPathOf(poll)}`;
			await until(async () => (await fetch(pollUrl, { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } }).then((r) => r.status)) === 200, Date.now() + 30_000);
			const setup: RunSetup = { ctx, settings, engine, healthzUrl: `${stack.n8n.url}/healthz`, pollUrl, pid: stack.n8n.pid, idleCpuMsPerAnswer: 0 };

			const workflows = new Map<string, WorkflowRecord>();
			const workflowFor = async (client: Client, batching: Batching | undefined): Promise<WorkflowRecord> => {
				const key = `${client} ${describeBatching(batching)}`;
				if (!workflows.has(key)) {
					const workflow = await importAndActivate(ctx, stallWorkflow(`bench stall ${key}`, client, batching, sandbox, credentials, settings.timeoutMs));
					// warm-up: a few items through it (n8n loads the node, the credential, the isolate)
					await runStall(setup, workflow, client, batching, 20);
					workflows.set(key, workflow);
				}
				return workflows.get(key)!;
			};
			const engineResult: StallEngineResult = { engine, idle: await idleGaps(setup, 3000), samples: [], skipped: [] };
			setup.idleCpuMsPerAnswer = engineResult.idle.cpuMsPerAnswer;
			result.engines.push(engineResult);
			log(`stall ${engine}: idle n8n, longest gap ${engineResult.idle.gapMs} ms`);

			const run = async (client: Client, batching: Batching | undefined, items: number): Promise<StallSample | undefined> => {
				if (engineResult.skipped.length) {
					engineResult.skipped.push(`${client} ${describeBatching(batching)} ${items} items`);
					return undefined;
				}
				const sample = await runStall(setup, await workflowFor(client, batching), client, batching, items);
				if (sample.timedOut) engineResult.skipped.push(`after ${client} ${describeBatching(batching)} ${items} items timed out: the rest of this engine`);
				return sample;
			};
			for (const items of sizes) {
				// The floor nodes only at --floor-items: beyond about 1 000 items n8n's own declarative path
				// reads the credential from the database for every request at once (SQLite times out).
				const clients: Client[] = ['ours', 'http', ...(settings.floorItems.includes(items) ? (['floorTwo', 'floorShape'] as const) : [])];
				for (const client of clients) {
					const sample = await run(client, undefined, items);
					if (sample) engineResult.samples.push(sample);
				}
			}
			// The floor's goal (ours / the same-shape floor ≤ 1.05): CPU per item is a few percent apart,
			// so ours and both floors run several rounds, in a rotating order, at the smallest count.
			if (engineIndex === 0 && settings.floorRounds > 0) {
				const rounds: StallSample[] = [];
				const order: Client[] = ['ours', 'floorShape', 'floorTwo'];
				for (let round = 0; round < settings.floorRounds; round++) {
					for (const client of [...order.slice(round % 3), ...order.slice(0, round % 3)]) {
						const sample = await run(client, undefined, sizes[0]);
						if (sample) rounds.push(sample);
					}
				}
				result.floor = { rounds, twoProperties: floorShape.two, shapeProperties: floorShape.shape };
			}
			if (engineIndex === 0) {
				for (const candidate of settings.batching) {
					const sample = await run('ours', candidate, sizes[0]);
					if (sample) result.search.push(sample);
				}
				const chosen = choose(result.search);
				result.chosen = chosen.batching;
				result.chosenWithinGoal = chosen.withinGoal;
				log(`stall: Batching chosen: ${describeBatching(result.chosen)}${chosen.withinGoal ? '' : ` (none within ${STALL_BATCHED_GAP_GOAL_MS} ms: the shortest gap)`}`);
			}
			// Batching on the first engine only (time: a run of 10 000 items is minutes here); the HTTP
			// Request node with the same setting in the same run, the figure the goal compares with
			if (result.chosen && engineIndex === 0) {
				for (const items of sizes) {
					const found = items === sizes[0] ? result.search.find((s) => s.batching === result.chosen) : undefined;
					const sample = found ?? (await run('ours', result.chosen, items));
					if (sample) engineResult.samples.push(sample);
					const http = await run('http', result.chosen, items);
					if (http) engineResult.samples.push(http);
				}
			}
			for (const workflow of [poll, ...workflows.values()]) await stack.client.deactivate(workflow.id).catch(() => undefined);
		} finally {
			await stack?.stop();
			if (process.env.E2E_KEEP_USER_FOLDER !== '1') rmSync(userFolder, { recursive: true, force: true });
		}
	}
	return result;
}

// ---- printing -------------------------------------------------------------------------------

const engineLabel = (engine: Engine): string => (engine === 'default' ? "n8n's default (vm)" : 'legacy');
const CLIENT_LABELS: Record<Client, string> = { ours: 'our node', http: 'HTTP Request', floorTwo: 'floor: 2 properties', floorShape: 'floor: our shape' };
const clientLabel = (client: Client, result?: StallResult): string =>
	client === 'floorShape' && result?.floor ? `floor: our shape (${result.floor.shapeProperties} properties)` : CLIENT_LABELS[client];
/** a time after the execution's start, in seconds (where a gap lay: before n8n's loop ended, while sending, after) */
const seconds = (msecs: number): string => `${(msecs / 1000).toFixed(2)} s`;
const perItem = (s: StallSample): string => `${(s.gapMs / s.items).toFixed(2)} ms`;
const orDash = (value: number, format: (v: number) => string): string => (Number.isFinite(value) ? format(value) : '—');

export function findSample(result: StallResult, engine: Engine, client: Client, items: number, batched: boolean): StallSample | undefined {
	return result.engines
		.find((e) => e.engine === engine)
		?.samples.find((s) => s.client === client && s.items === items && (batched ? s.batching !== undefined : s.batching === undefined));
}

export function printStall(result: StallResult): void {
	const { settings } = result;
	console.log('');
	console.log(
		`Stall: one execution of N items (Webhook → Split Out → the node; Tag → Remove From Contact, phone from ={{ $json.phone }}, or n8n's HTTP Request node v${HTTP_REQUEST_VERSION} doing the same POSTs), a fresh n8n per engine, sandbox with ${settings.latencyMs} ms latency and no rate limit; a poller in its own process asks /healthz and a Webhook-node workflow (answers on receipt) every ${settings.pollMs} ms, one request in flight per target.`,
	);
	console.log('n8n CPU per item = CPU time (user + system) of n8n\'s main process from the trigger until the execution was seen finished, less the poller\'s answers in that time × their idle cost (idle row), ÷ items: n8n\'s own work, less sensitive to a shared machine than the wall-clock figures.');
	console.log('longest gap = the longest time without an answer from n8n (the larger of /healthz and the webhook) from the trigger until the bench saw the execution finished; webhook\'s gap at = where the webhook\'s longest gap began and ended, after the execution\'s startedAt (negative: before it started); first request after = the sandbox\'s arrival time of the first request − the execution\'s startedAt; last answer after = the sandbox\'s last answer to the node − the same; run time = the node\'s executionTime.');
	console.log('');
	const rows: string[][] = [['engine', 'client', 'Batching', 'items', 'done', 'longest gap', 'per item', '/healthz / webhook', "webhook's gap at", 'first request after', 'last answer after', 'run time', 'n8n CPU per item', 'execution']];
	for (const engine of result.engines) {
		rows.push([engineLabel(engine.engine), 'idle n8n (poller alone, 3 s)', '', '', '', ms(engine.idle.gapMs), '', `${engine.idle.healthzGapMs} / ${engine.idle.webhookGapMs} ms`, '', '', '', '', `${engine.idle.cpuMsPerAnswer.toFixed(1)} ms per poller answer`, '']);
		for (const s of engine.samples) {
			rows.push([
				'',
				clientLabel(s.client, result),
				describeBatching(s.batching),
				String(s.items),
				String(s.done),
				ms(s.gapMs),
				perItem(s),
				`${s.healthzGapMs} / ${s.webhookGapMs} ms`,
				`${seconds(s.webhookGapAt[0])} to ${seconds(s.webhookGapAt[1])}`,
				orDash(s.firstRequestMs, ms),
				orDash(s.lastAnswerMs, ms),
				orDash(s.nodeMs, ms),
				`${(s.cpuMs / s.items).toFixed(2)} ms`,
				s.status,
			]);
		}
		for (const skipped of engine.skipped) rows.push(['', `skipped: ${skipped}`, '', '', '', '', '', '', '', '', '', '', '', '']);
	}
	printTable(rows, 3);
	if (result.search.length) {
		console.log('');
		console.log(`Batching candidates (our node, ${result.search[0].items} items, ${engineLabel(result.engines[0]?.engine ?? 'default')}; chosen: the fastest with a longest gap ≤ ${STALL_BATCHED_GAP_GOAL_MS} ms, else the shortest gap):`);
		printTable([
			['Batching', 'longest gap', '/healthz / webhook', 'first request after', 'run time', 'done', ''],
			...result.search.map((s) => [describeBatching(s.batching), ms(s.gapMs), `${s.healthzGapMs} / ${s.webhookGapMs} ms`, orDash(s.firstRequestMs, ms), orDash(s.nodeMs, ms), `${s.done} / ${s.items}`, s.batching === result.chosen ? 'chosen' : '']),
		]);
		if (!result.chosenWithinGoal) console.log(`No candidate kept the longest gap within ${STALL_BATCHED_GAP_GOAL_MS} ms; the rows with Batching use the one with the shortest gap.`);
	}
	console.log('');
	const ratios: string[][] = [['ratios (same run)', 'items', 'longest gap', 'first request after', 'run time', 'n8n CPU']];
	for (const engine of result.engines) {
		for (const items of [...settings.items].sort((a, b) => a - b)) {
			const ours = findSample(result, engine.engine, 'ours', items, false);
			const http = findSample(result, engine.engine, 'http', items, false);
			const oursB = findSample(result, engine.engine, 'ours', items, true);
			const httpB = findSample(result, engine.engine, 'http', items, true);
			const line = (label: string, a: StallSample | undefined, b: StallSample | undefined): void => {
				if (!a || !b) return;
				ratios.push([`${engineLabel(engine.engine)}: ${label}`, String(items), ratio(a.gapMs / b.gapMs), orDash(a.firstRequestMs / b.firstRequestMs, ratio), orDash(a.nodeMs / b.nodeMs, ratio), ratio(a.cpuMs / b.cpuMs)]);
			};
			line('ours / HTTP Request', ours, http);
			line('ours / floor, our shape', ours, findSample(result, engine.engine, 'floorShape', items, false));
			line('ours / floor, 2 properties', ours, findSample(result, engine.engine, 'floorTwo', items, false));
			line('ours with / without Batching', oursB, ours);
			line('ours with Batching / HTTP Request with Batching', oursB, httpB);
			line('ours with Batching / HTTP Request without', oursB, http);
		}
	}
	printTable(ratios);
	printFloor(result);
}

/** The floor's medians (n8n CPU per item, run time) over the alternated rounds; undefined when not run. */
export function floorFigures(result: StallResult): { ours: number; shape: number; two: number; oursMs: number; shapeMs: number; twoMs: number; rounds: number; items: number } | undefined {
	const rounds = result.floor?.rounds ?? [];
	const of = (client: Client): StallSample[] => rounds.filter((s) => s.client === client && !s.timedOut && s.done === s.items);
	const [ours, shape, two] = [of('ours'), of('floorShape'), of('floorTwo')];
	if (!ours.length || !shape.length || !two.length) return undefined;
	const cpu = (samples: StallSample[]): number => median(samples.map((s) => s.cpuMs / s.items));
	const run = (samples: StallSample[]): number => median(samples.map((s) => s.nodeMs));
	return { ours: cpu(ours), shape: cpu(shape), two: cpu(two), oursMs: run(ours), shapeMs: run(shape), twoMs: run(two), rounds: Math.min(ours.length, shape.length, two.length), items: ours[0].items };
}

function printFloor(result: StallResult): void {
	const floor = result.floor;
	const figures = floorFigures(result);
	if (!floor || !figures) return;
	console.log('');
	console.log(
		`The floor (issue 44): our node and two minimal declarative nodes sending the same POSTs (scripts/bench/floor.ts), ${figures.rounds} rounds each in a rotating order, ${figures.items} items, ${engineLabel(result.engines[0].engine)}; medians of the rounds.`,
	);
	const rows: string[][] = [['node', 'top-level properties', 'n8n CPU per item', 'run time', 'runs (CPU per item)', 'ours / this (CPU)', 'ours / this (run time)']];
	for (const [client, properties, cpu, run] of [
		['ours', floor.shapeProperties, figures.ours, figures.oursMs],
		['floorShape', floor.shapeProperties, figures.shape, figures.shapeMs],
		['floorTwo', floor.twoProperties, figures.two, figures.twoMs],
	] as const) {
		const runs = floor.rounds.filter((s) => s.client === client).map((s) => (s.cpuMs / s.items).toFixed(2)).join(' / ');
		rows.push([clientLabel(client, result), String(properties), `${cpu.toFixed(2)} ms`, ms(run), runs, ratio(figures.ours / cpu), ratio(figures.oursMs / run)]);
	}
	printTable(rows);
	console.log(`Goal: ours / the same-shape floor ≤ ${GOALS.oursVsSameShapeFloor} (n8n CPU per item): what our own code adds; ours / the two-property floor is the cost of the shape (reported).`);
}


/** Today's package against a baseline ref's, same run, without Batching: the longest gaps (/healthz, our webhook) and n8n's CPU per item. */
export function printStallBaseline(today: StallResult, baseline: StallResult, ref: string): void {
	console.log('');
	console.log(`Stall, today's package vs ${ref} (same run, same sandbox, a fresh n8n each; no Batching):`);
	const rows: string[][] = [['engine', 'client', 'items', `/healthz gap: today / ${ref}`, `webhook gap: today / ${ref}`, `longest gap: today / ${ref}`, `n8n CPU per item: today / ${ref}`]];
	for (const engine of today.engines) {
		for (const items of [...today.settings.items].sort((a, b) => a - b)) {
			for (const client of ['ours', 'http'] as const) {
				const a = findSample(today, engine.engine, client, items, false);
				const b = findSample(baseline, engine.engine, client, items, false);
				if (!a || !b) continue;
				rows.push([
					engineLabel(engine.engine),
					client === 'ours' ? 'our node' : 'HTTP Request',
					String(items),
					`${a.healthzGapMs} / ${b.healthzGapMs} ms`,
					`${a.webhookGapMs} / ${b.webhookGapMs} ms`,
					`${a.gapMs} / ${b.gapMs} ms`,
					`${(a.cpuMs / a.items).toFixed(2)} / ${(b.cpuMs / b.items).toFixed(2)} ms`,
				]);
			}
		}
	}
	printTable(rows, 3);
}
