/* eslint-disable -- development tooling, not shipped: n8n's node rules (eslint.config.mjs, n8n-node lint) are for nodes/ and credentials/ */
/**
 * The two services n8n's queue mode needs besides n8n: PostgreSQL (the database every n8n process
 * shares) and Redis (the Bull queue), from Debian's packages, each on its own free port on
 * 127.0.0.1 with its data in a temporary folder, started by us as process-group leaders and
 * stopped by that group. Nothing here touches a system-wide server the packages may have set up.
 *
 * Postgres refuses to run as root: when we are root, initdb and the server run as the `postgres`
 * user the package creates (spawn's uid/gid), in a folder owned by it.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, openSync, closeSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { freePort, processGroupMembers } from './n8n-process';

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

function run(command: string, args: string[], options: { uid?: number; gid?: number; env?: NodeJS.ProcessEnv } = {}): string {
	const result = spawnSync(command, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], ...options });
	if (result.error) throw result.error;
	if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed (exit ${result.status}):\n${result.stdout}${result.stderr}`);
	return result.stdout;
}

/** The bin folder of the newest PostgreSQL Debian installed (/usr/lib/postgresql/<major>/bin), if any. */
export function postgresBinDir(): string | undefined {
	const base = '/usr/lib/postgresql';
	if (!existsSync(base)) return undefined;
	const majors = readdirSync(base)
		.filter((d) => /^\d+$/.test(d) && existsSync(join(base, d, 'bin', 'initdb')))
		.sort((a, b) => Number(b) - Number(a));
	return majors.length ? join(base, majors[0], 'bin') : undefined;
}

const onPath = (binary: string): boolean => spawnSync('sh', ['-c', `command -v ${binary}`], { stdio: 'ignore' }).status === 0;

let aptUpdated = false;

/**
 * Installs Debian's `postgresql` and `redis-server` with apt-get when they are missing (a clean CI
 * machine); a no-op when both are there. Quiet unless it fails. Returns what it installed.
 */
export function ensureQueuePackages(log: (line: string) => void = () => undefined): string[] {
	const missing: string[] = [];
	if (!postgresBinDir()) missing.push('postgresql');
	if (!onPath('redis-server') || !onPath('redis-cli')) missing.push('redis-server');
	if (missing.length === 0) return [];
	const root = process.getuid?.() === 0;
	const apt = (args: string[]): string => (root ? run('apt-get', args, { env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } }) : run('sudo', ['-n', 'env', 'DEBIAN_FRONTEND=noninteractive', 'apt-get', ...args]));
	log(`installing ${missing.join(', ')} with apt-get`);
	if (!aptUpdated) {
		apt(['update', '-qq']);
		aptUpdated = true;
	}
	apt(['install', '-y', '-qq', '--no-install-recommends', ...missing]);
	if (!postgresBinDir() || !onPath('redis-server')) throw new Error(`apt-get installed ${missing.join(', ')}, but initdb or redis-server is still missing`);
	return missing;
}

/** A server we spawned as a process-group leader, its output in a log file. */
export class ServiceProcess {
	private exited = false;
	private readonly exitPromise: Promise<void>;
	private readonly onProcessExit = (): void => this.signalGroup('SIGKILL');

	constructor(
		readonly name: string,
		private readonly child: ChildProcess,
		readonly logFile: string,
	) {
		this.exitPromise = new Promise((resolve) => child.once('exit', () => resolve()));
		void this.exitPromise.then(() => (this.exited = true));
		process.once('exit', this.onProcessExit);
	}

	static spawn(name: string, command: string, args: string[], logFile: string, ids: { uid?: number; gid?: number } = {}): ServiceProcess {
		const fd = openSync(logFile, 'a');
		try {
			const child = spawn(command, args, { detached: true, stdio: ['ignore', fd, fd], ...ids });
			return new ServiceProcess(name, child, logFile);
		} finally {
			closeSync(fd);
		}
	}

	get pid(): number {
		if (this.child.pid === undefined) throw new Error(`${this.name} has no pid`);
		return this.child.pid;
	}

	get running(): boolean {
		return !this.exited;
	}

	private signalGroup(signal: NodeJS.Signals): void {
		if (this.child.pid === undefined) return;
		try {
			process.kill(-this.child.pid, signal);
		} catch {
			// nothing left in the group
		}
	}

	/** `signal` to the leader (each server's own graceful stop), SIGKILL to the group after graceMs. */
	async stop(signal: NodeJS.Signals = 'SIGTERM', graceMs = 10_000): Promise<void> {
		if (this.running && this.child.pid !== undefined) {
			try {
				process.kill(this.child.pid, signal);
			} catch {
				// already gone
			}
			const timer = setTimeout(() => this.signalGroup('SIGKILL'), graceMs);
			await this.exitPromise;
			clearTimeout(timer);
		}
		for (let i = 0; i < 50 && this.child.pid !== undefined && processGroupMembers(this.child.pid).length > 0; i++) {
			if (i === 10) this.signalGroup('SIGKILL');
			await sleep(100);
		}
		process.removeListener('exit', this.onProcessExit);
	}
}

async function waitFor(what: string, check: () => boolean, service: ServiceProcess, timeoutMs: number): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	while (Date.now() < deadline) {
		if (!service.running) throw new Error(`${what} exited before it was ready; see ${service.logFile}`);
		if (check()) return;
		await sleep(150);
	}
	throw new Error(`${what} was not ready after ${timeoutMs} ms; see ${service.logFile}`);
}

export interface Postgres {
	port: number;
	database: string;
	user: string;
	password: string;
	process: ServiceProcess;
	stop(): Promise<void>;
}

/** A fresh cluster (initdb) in a temporary folder, one database and user for n8n. */
export async function startPostgres(): Promise<Postgres> {
	const bin = postgresBinDir();
	if (!bin) throw new Error('PostgreSQL is not installed (ensureQueuePackages installs it)');
	const ids: { uid?: number; gid?: number } = {};
	if (process.getuid?.() === 0) {
		ids.uid = Number(run('id', ['-u', 'postgres']).trim());
		ids.gid = Number(run('id', ['-g', 'postgres']).trim());
	}
	const folder = mkdtempSync(join(tmpdir(), 'n8n-queue-pg-'));
	if (ids.uid !== undefined) chownSync(folder, ids.uid, ids.gid!);
	const data = join(folder, 'data');
	let server: ServiceProcess | undefined;
	try {
		run(join(bin, 'initdb'), ['-D', data, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--no-sync'], ids);
		const port = await freePort();
		// A throwaway test cluster: durability off (fsync, synchronous commit) costs nothing we need.
		server = ServiceProcess.spawn(
			'postgres',
			join(bin, 'postgres'),
			['-D', data, '-p', String(port), '-k', folder, '-c', 'listen_addresses=127.0.0.1', '-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off'],
			join(folder, 'postgres.log'),
			ids,
		);
		const started = server;
		await waitFor('postgres', () => spawnSync(join(bin, 'pg_isready'), ['-q', '-h', '127.0.0.1', '-p', String(port)]).status === 0, started, 60_000);
		const psql = (sql: string): string => run(join(bin, 'psql'), ['-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', '-v', 'ON_ERROR_STOP=1', '-qc', sql]);
		// Two calls: CREATE DATABASE cannot run in the transaction psql makes of several statements.
		psql("CREATE USER n8n WITH PASSWORD 'n8n'");
		psql('CREATE DATABASE n8n OWNER n8n');
		return {
			port,
			database: 'n8n',
			user: 'n8n',
			password: 'n8n',
			process: started,
			async stop() {
				// SIGINT: postgres's "fast" shutdown (aborts sessions, checkpoints, exits).
				await started.stop('SIGINT');
				rmSync(folder, { recursive: true, force: true });
			},
		};
	} catch (error) {
		await server?.stop('SIGINT');
		rmSync(folder, { recursive: true, force: true });
		throw error;
	}
}

export interface Redis {
	port: number;
	process: ServiceProcess;
	/** a redis-cli command's answer, e.g. cli('LLEN', 'bull:jobs:wait') */
	cli(...args: string[]): string;
	stop(): Promise<void>;
}

/** redis-server without persistence (no RDB snapshots, no AOF), data dir in a temporary folder. */
export async function startRedis(): Promise<Redis> {
	const folder = mkdtempSync(join(tmpdir(), 'n8n-queue-redis-'));
	const port = await freePort();
	const server = ServiceProcess.spawn(
		'redis',
		'redis-server',
		['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', folder, '--daemonize', 'no'],
		join(folder, 'redis.log'),
	);
	const cli = (...args: string[]): string => run('redis-cli', ['-h', '127.0.0.1', '-p', String(port), ...args]).trim();
	try {
		await waitFor('redis', () => spawnSync('redis-cli', ['-h', '127.0.0.1', '-p', String(port), 'PING'], { encoding: 'utf8' }).stdout?.trim() === 'PONG', server, 30_000);
	} catch (error) {
		await server.stop();
		rmSync(folder, { recursive: true, force: true });
		throw error;
	}
	return {
		port,
		process: server,
		cli,
		async stop() {
			await server.stop();
			rmSync(folder, { recursive: true, force: true });
		},
	};
}
