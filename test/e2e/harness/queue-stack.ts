/* eslint-disable -- development tooling, not shipped: n8n's node rules (eslint.config.mjs, n8n-node lint) are for nodes/ and credentials/ */
/**
 * n8n in queue mode on this machine (2.x; 1.x too, for the offload suite): PostgreSQL and Redis
 * (./services), then one main process, `workers` worker processes and one webhook processor, each
 * with its own user folder holding our packed package in .n8n/nodes, all sharing one database, one
 * Redis and one encryption key. Used by the `queue` and `queue-offload` e2e suites,
 * `npm run dev -- --queue`, `npm run bench -- --queue` and `npm run queue-stack`.
 *
 *   main      `n8n start`   editor, REST, public API, activation (registers our webhooks);
 *                           N8N_DISABLE_PRODUCTION_MAIN_PROCESS: it serves no production webhook.
 *                           WEBHOOK_URL = the webhook processor: main computes the URL it registers.
 *   webhook   `n8n webhook` production webhooks: runs the trigger's webhook() and enqueues the run
 *   worker ×N `n8n worker`  takes jobs from Redis and runs the executions
 *
 * A shared user folder would make each later process find the crash journal of the others and
 * sleep 10 s at start, hence one folder per process. Readiness: /healthz/readiness of each
 * (a worker's on its QUEUE_HEALTH_CHECK_PORT). Everything is stopped by process group.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { startBalancer, type Balancer } from './balancer';
import { N8nClient, type CredentialRecord, type WebhookResponse } from './n8n-client';
import { freePort, N8nProcess, processGroupMembers, type N8nStartOptions } from './n8n-process';
import { installIntoUserFolder, type PackedPackage } from './package';
import type { N8nInstall } from './provision';
import { ensureQueuePackages, startPostgres, startRedis, type Postgres, type Redis } from './services';
import { DEMO_OWNER, type ApiTarget, type N8nStack } from './stack';
import { CREDENTIAL_TYPE } from './workflows';

/** n8n's Bull queue in Redis (prefix `bull`, queue `jobs`). */
export const QUEUE_KEYS = { wait: 'bull:jobs:wait', active: 'bull:jobs:active' } as const;

/**
 * The public API and REST go to main; production webhooks (`/webhook/...`, or a URL on the webhook
 * processor) go to the webhook processor, as they would behind a load balancer.
 */
export class QueueClient extends N8nClient {
	constructor(
		mainUrl: string,
		major: N8nClient['major'],
		readonly webhooks: N8nClient,
	) {
		super(mainUrl, major);
	}

	override async raw(method: string, pathOrUrl: string, options: { body?: unknown; headers?: Record<string, string> } = {}): Promise<WebhookResponse> {
		const toWebhooks = pathOrUrl.startsWith(this.webhooks.baseUrl) || pathOrUrl.startsWith('/webhook/');
		return toWebhooks ? await this.webhooks.raw(method, pathOrUrl, options) : await super.raw(method, pathOrUrl, options);
	}
}

export type QueueRole = 'main' | 'webhook' | `worker-${number}`;

export interface StartupTimes {
	/** apt-get (0 when the packages were there) */
	packagesMs: number;
	postgresMs: number;
	redisMs: number;
	/** main until ready (all n8n processes start together; the first to get the lock migrates the database) */
	mainMs: number;
	/** all n8n processes (main, workers, webhook processor) until every one is ready */
	n8nMs: number;
	totalMs: number;
}

const secs = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;

/** One line: the total and its parts. */
export function describeStartup(s: StartupTimes): string {
	return `${secs(s.totalMs)} (apt-get ${secs(s.packagesMs)}, postgres ${secs(s.postgresMs)}, redis ${secs(s.redisMs)}, then n8n: main ready after ${secs(s.mainMs)}, all processes after ${secs(s.n8nMs)})`;
}

/** One line per process. */
export function describeMemory(memory: ProcessMemory[]): string {
	return memory.map((m) => `${m.role} ${m.rssMb} MB (with children ${m.groupRssMb} MB)`).join(', ');
}

export interface ProcessMemory {
	role: string;
	pid: number;
	/** the process itself */
	rssMb: number;
	/** its whole process group (n8n: with its task runner) */
	groupRssMb: number;
}

export interface QueueStack {
	main: N8nProcess;
	webhook: N8nProcess;
	/** the running workers, in start order (a stopped one is removed) */
	workers: N8nProcess[];
	postgres: Postgres;
	redis: Redis;
	client: QueueClient;
	apiKey: string;
	credential: CredentialRecord;
	encryptionKey: string;
	/** the production webhook base (= WEBHOOK_URL): the webhook processor, or the balancer in front of it */
	webhookUrl: string;
	/** the load balancer, when the stack was started with `balancer: true` */
	balancer?: Balancer;
	startup: StartupTimes;
	/** What the single-process harness (stack.ts) offers, with main as its n8n. */
	asN8nStack(): N8nStack;
	/** Starts one more worker (own user folder) and waits until it is ready. */
	startWorker(): Promise<N8nProcess>;
	/** Starts a worker again with its user folder and port (stopping it gracefully first if it runs); returns the new process. */
	restartWorker(worker: N8nProcess): Promise<N8nProcess>;
	/** Stops a worker: gracefully (SIGTERM) or, with `kill`, SIGKILL to its process group at once. */
	stopWorker(worker: N8nProcess, kill?: boolean): Promise<void>;
	/** Stops main gracefully and starts it again on the same port, user folder and database. */
	restartMain(): Promise<void>;
	/** "Worker started execution <id>" lines of a worker's log: the executions it took. */
	executionsStartedBy(worker: N8nProcess): string[];
	/** Worker logs of every worker this stack ever started, running or not. */
	workerLogs(): string[];
	memory(): ProcessMemory[];
	stop(): Promise<void>;
}

export interface QueueStackOptions {
	install: N8nInstall;
	packed: PackedPackage;
	api: ApiTarget;
	workers?: number;
	/** jobs one worker runs at a time (n8n's default: 10) */
	concurrency?: number;
	logLevel?: N8nStartOptions['logLevel'];
	/** main's HTTP port (default: a free one) */
	mainPort?: number;
	/** copy main's output here (dev: the terminal) */
	echo?: NodeJS.WritableStream;
	/** extra environment for every n8n process */
	env?: Record<string, string>;
	/** progress lines */
	log?: (line: string) => void;
	/**
	 * Every process starts with an empty .n8n/nodes: the package gets there only through n8n's own
	 * installer (suites/queue-install.ts). Default: the packed package is unpacked into each.
	 */
	emptyNodes?: boolean;
	/** runs every n8n process (N8nStartOptions.launcher) */
	launcher?: string[];
	/** extra environment per process, from its user folder (named `<role>-<n>`: main-1, webhook-2, worker-3, …) */
	envFor?: (userFolder: string) => Record<string, string>;
	/**
	 * Runs once main is up and logged in, before the stack creates its credential (e.g. installs the
	 * package through n8n's installer, without which the credential type is unknown).
	 */
	prepare?: (client: QueueClient) => Promise<void>;
	/**
	 * A load balancer in front (balancer.ts: `/webhook/…` to the webhook processor, the rest to main)
	 * whose URL is WEBHOOK_URL, as n8n's queue-mode docs set it up. Without it WEBHOOK_URL is the
	 * webhook processor itself, and n8n 1.x's test webhook URLs (WEBHOOK_URL + webhook-test) point
	 * where nothing serves them.
	 */
	balancer?: boolean;
}

const rssKb = (pid: number): number => {
	try {
		const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
		return match ? Number(match[1]) : 0;
	} catch {
		return 0;
	}
};

function memoryOf(role: string, pid: number): ProcessMemory {
	const group = processGroupMembers(pid).reduce((sum, member) => sum + rssKb(member.pid), 0);
	return { role, pid, rssMb: Math.round(rssKb(pid) / 1024), groupRssMb: Math.round(group / 1024) };
}

const STARTED = /Worker started execution (\d+)/g;

export async function startQueueStack(options: QueueStackOptions): Promise<QueueStack> {
	const log = options.log ?? (() => undefined);
	const { install, packed } = options;
	const t0 = Date.now();
	const installed = ensureQueuePackages(log);
	const packagesMs = Date.now() - t0;
	if (installed.length) log(`installed ${installed.join(', ')} in ${(packagesMs / 1000).toFixed(1)} s`);

	const root = mkdtempSync(join(tmpdir(), 'n8n-queue-'));
	const keepRoot = process.env.E2E_KEEP_USER_FOLDER === '1';
	const processes: N8nProcess[] = [];
	const workerLogs: N8nProcess[] = [];
	let postgres: Postgres | undefined;
	let redis: Redis | undefined;
	let balancer: Balancer | undefined;
	let folderCount = 0;
	const userFolder = (role: string): string => {
		const folder = join(root, `${role}-${++folderCount}`);
		if (!options.emptyNodes) installIntoUserFolder(folder, packed);
		return folder;
	};
	const stopAll = async (): Promise<void> => {
		await Promise.all(processes.splice(0).map((p) => p.stop()));
		await balancer?.close();
		await redis?.stop();
		await postgres?.stop();
		if (!keepRoot) rmSync(root, { recursive: true, force: true });
	};

	try {
		let t = Date.now();
		postgres = await startPostgres();
		const postgresMs = Date.now() - t;
		t = Date.now();
		redis = await startRedis();
		const redisMs = Date.now() - t;
		log(`postgres on ${postgres.port} (${postgresMs} ms), redis on ${redis.port} (${redisMs} ms)`);

		const mainPort = options.mainPort ?? (await freePort());
		let webhookPort = await freePort();
		while (webhookPort === mainPort) webhookPort = await freePort();
		const mainUrl = `http://127.0.0.1:${mainPort}`;
		const webhookProcessorUrl = `http://127.0.0.1:${webhookPort}`;
		if (options.balancer) balancer = await startBalancer({ main: () => mainUrl, webhook: () => webhookProcessorUrl });
		const webhookUrl = balancer?.url ?? webhookProcessorUrl;
		const encryptionKey = randomBytes(24).toString('hex');
		const shared: Record<string, string> = {
			EXECUTIONS_MODE: 'queue',
			QUEUE_BULL_REDIS_HOST: '127.0.0.1',
			QUEUE_BULL_REDIS_PORT: String(redis.port),
			DB_TYPE: 'postgresdb',
			DB_POSTGRESDB_HOST: '127.0.0.1',
			DB_POSTGRESDB_PORT: String(postgres.port),
			DB_POSTGRESDB_DATABASE: postgres.database,
			DB_POSTGRESDB_USER: postgres.user,
			DB_POSTGRESDB_PASSWORD: postgres.password,
			N8N_ENCRYPTION_KEY: encryptionKey,
			// Every process computes production URLs from it; main registers them with the platform.
			WEBHOOK_URL: `${webhookUrl}/`,
			N8N_EDITOR_BASE_URL: `${mainUrl}/`,
			// A killed worker's jobs count as stalled once their lock expires (n8n fails a stalled job
			// rather than running it twice); shorter than n8n's 60 s / 30 s so that a test waits less.
			QUEUE_WORKER_LOCK_DURATION: '15000',
			QUEUE_WORKER_LOCK_RENEW_TIME: '3000',
			QUEUE_WORKER_STALLED_INTERVAL: '5000',
			...options.env,
		};
		const logLevel = options.logLevel ?? 'info';

		const startMain = async (): Promise<N8nProcess> =>
			await N8nProcess.start({
				install,
				userFolder: mainFolder,
				port: mainPort,
				logLevel,
				echo: options.echo,
				launcher: options.launcher,
				env: { ...shared, ...options.envFor?.(mainFolder), N8N_DISABLE_PRODUCTION_MAIN_PROCESS: 'true' },
			});
		const startWorker = async (again?: { userFolder: string; port: number }): Promise<N8nProcess> => {
			const port = again?.port ?? (await freePort());
			const folder = again?.userFolder ?? userFolder('worker');
			const worker = await N8nProcess.start({
				install,
				userFolder: folder,
				port,
				logLevel,
				launcher: options.launcher,
				command: 'worker',
				args: [`--concurrency=${options.concurrency ?? 10}`],
				env: { ...shared, ...options.envFor?.(folder), QUEUE_HEALTH_CHECK_ACTIVE: 'true', QUEUE_HEALTH_CHECK_PORT: String(port), N8N_WORKER_SERVER_ADDRESS: '127.0.0.1' },
			});
			processes.push(worker);
			workerLogs.push(worker);
			return worker;
		};

		// 2.x all at once: every n8n process runs the pending migrations under a Postgres advisory
		// lock (n8n's own; the others wait for it), so nothing needs main to be up first. 1.123.81
		// has no such lock (two processes migrating at once: 'column "meta" … already exists', exit
		// 1), so there main migrates first and the others start once it is ready.
		t = Date.now();
		const mainFolder = userFolder('main');
		const webhookFolder = userFolder('webhook');
		let mainMs = 0;
		const mainStarted = startMain().then((m) => {
			processes.push(m);
			mainMs = Date.now() - t;
			return m;
		});
		if (install.major !== '2') await mainStarted;
		const started = await Promise.allSettled([
			mainStarted,
			N8nProcess.start({ install, userFolder: webhookFolder, port: webhookPort, logLevel, launcher: options.launcher, command: 'webhook', env: { ...shared, ...options.envFor?.(webhookFolder) } }).then((w) => {
				processes.push(w);
				return w;
			}),
			...Array.from({ length: options.workers ?? 2 }, () => startWorker()),
		]);
		const failed = started.find((r): r is PromiseRejectedResult => r.status === 'rejected');
		if (failed) throw failed.reason;
		let [main, webhook, ...workers] = started.map((r) => (r as PromiseFulfilledResult<N8nProcess>).value);
		const n8nMs = Date.now() - t;
		log(`main on ${mainUrl} (ready after ${(mainMs / 1000).toFixed(1)} s), webhook processor on ${webhookProcessorUrl}${balancer ? ` behind the balancer on ${balancer.url}` : ''} and ${workers.length} workers: all ready in ${(n8nMs / 1000).toFixed(1)} s`);

		const client = new QueueClient(mainUrl, install.major, new N8nClient(webhookProcessorUrl, install.major));
		if (await client.ownerIsSetUp()) await client.login(DEMO_OWNER.email, DEMO_OWNER.password);
		else await client.setupOwner(DEMO_OWNER);
		await options.prepare?.(client);
		const apiKey = await client.createApiKey(`conversation-inbox queue ${new Date().toISOString()}`);
		const credential = await client.createCredential({
			name: 'Conversation Inbox account',
			type: CREDENTIAL_TYPE,
			data: { baseUrl: options.api.baseUrl, apiToken: options.api.apiToken },
		});
		const startup: StartupTimes = { packagesMs, postgresMs, redisMs, mainMs, n8nMs, totalMs: Date.now() - t0 };

		const stack: QueueStack = {
			get main() {
				return main;
			},
			webhook,
			workers,
			postgres,
			redis,
			client,
			apiKey,
			credential,
			encryptionKey,
			webhookUrl,
			balancer,
			startup,
			asN8nStack: () => ({ n8n: main, client, apiKey, credential, userFolder: mainFolder, stop: stopAll }),
			async startWorker() {
				const worker = await startWorker();
				workers.push(worker);
				return worker;
			},
			async restartWorker(worker) {
				if (workers.includes(worker)) await stack.stopWorker(worker);
				const again = await startWorker({ userFolder: worker.userFolder, port: worker.port });
				workers.push(again);
				return again;
			},
			async stopWorker(worker, kill = false) {
				if (kill) process.kill(-worker.pid, 'SIGKILL');
				await worker.stop();
				workers.splice(workers.indexOf(worker), 1);
				processes.splice(processes.indexOf(worker), 1);
			},
			async restartMain() {
				await main.stop();
				processes.splice(processes.indexOf(main), 1);
				main = await startMain();
				processes.push(main);
			},
			executionsStartedBy: (worker) => [...worker.log().matchAll(STARTED)].map((m) => m[1]),
			workerLogs: () => workerLogs.map((w) => w.log()),
			memory: () => [
				memoryOf('main', main.pid),
				memoryOf('webhook', webhook.pid),
				...workers.map((w, i) => memoryOf(`worker ${i + 1}`, w.pid)),
				memoryOf('postgres', postgres!.process.pid),
				memoryOf('redis', redis!.process.pid),
			],
			stop: stopAll,
		};
		return stack;
	} catch (error) {
		await stopAll();
		throw error;
	}
}
