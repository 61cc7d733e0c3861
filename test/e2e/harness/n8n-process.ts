/* eslint-disable -- development tooling, not shipped: n8n's node rules (eslint.config.mjs, n8n-node lint) are for nodes/ and credentials/ */
/**
 * One n8n server process: started on localhost ports with its own user folder, its output kept in
 * memory and in <userFolder>/n8n.log, stopped by its pid.
 *
 * n8n is spawned as the leader of a new process group, so that the task runner it forks (a child
 * `node …/@n8n/task-runner/dist/start.js`) belongs to that group. stop() sends SIGTERM to n8n (it
 * shuts its runner down itself), waits, then SIGKILLs whatever is left in *that* group only; an
 * exit hook does the same if the test process ends without stopping it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, mkdirSync, readdirSync, readFileSync, type WriteStream } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';

import type { N8nInstall } from './provision';

/** A port free on 127.0.0.1 right now (the OS picks it). */
export async function freePort(): Promise<number> {
	return await new Promise((resolve, reject) => {
		const server = createServer();
		server.unref();
		server.once('error', reject);
		server.listen(0, '127.0.0.1', () => {
			const address = server.address();
			server.close(() => {
				if (address && typeof address === 'object') resolve(address.port);
				else reject(new Error('could not read the port of a probe server'));
			});
		});
	});
}

/** True when something accepts connections on 127.0.0.1:port. */
export async function portInUse(port: number): Promise<boolean> {
	return await new Promise((resolve) => {
		const server = createServer();
		server.once('error', () => resolve(true));
		server.listen(port, '127.0.0.1', () => server.close(() => resolve(false)));
	});
}

/**
 * Pids of the live processes in process group `pgid` and their command lines (Linux: /proc).
 * Zombies are left out (they are gone, only not reaped yet).
 */
export function processGroupMembers(pgid: number): Array<{ pid: number; command: string }> {
	const members: Array<{ pid: number; command: string }> = [];
	for (const entry of readdirSync('/proc')) {
		if (!/^\d+$/.test(entry)) continue;
		try {
			const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
			// pid (comm) state ppid pgrp ...; comm may contain spaces and parentheses.
			const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
			if (Number(fields[2]) !== pgid || fields[0] === 'Z') continue;
			const command = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').join(' ').trim();
			members.push({ pid: Number(entry), command });
		} catch {
			// the process ended while we looked
		}
	}
	return members;
}

// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-9;]*m/g;
export const stripAnsi = (text: string): string => text.replace(ANSI, '');

export interface N8nStartOptions {
	install: N8nInstall;
	/** N8N_USER_FOLDER; n8n keeps its database, settings and community packages in <it>/.n8n */
	userFolder: string;
	/** main HTTP port (editor, REST, public API, webhooks); default: a free one */
	port?: number;
	/** task broker port; default: a free one */
	brokerPort?: number;
	/** N8N_LOG_LEVEL (default info) */
	logLevel?: 'error' | 'warn' | 'info' | 'debug';
	/** extra environment, applied last */
	env?: Record<string, string>;
	/** time allowed until n8n says its editor is accessible and /healthz/readiness and /rest/settings answer 200 (default 180 s) */
	readyTimeoutMs?: number;
	/** also copy n8n's output to this stream (dev: the terminal) */
	echo?: NodeJS.WritableStream;
	/** options for the Node binary itself, before n8n's script (the bench's --cpu-prof) */
	nodeArgs?: string[];
	/**
	 * n8n's command (default `start`). A `worker` or `webhook` process (queue mode) has no editor:
	 * it is ready when /healthz/readiness on `port` answers 200 (for a worker, `port` is its
	 * QUEUE_HEALTH_CHECK_PORT).
	 */
	command?: 'start' | 'worker' | 'webhook';
	/** arguments after the command (e.g. --concurrency=10) */
	args?: string[];
	/**
	 * A command that runs n8n (its arguments follow), e.g. registry-front.ts's `unshare` into a mount
	 * namespace of its own. It must exec n8n in the end, so that n8n keeps the pid and process group.
	 */
	launcher?: string[];
}

/** The environment every harness-started n8n gets: localhost only, nothing phoned home. */
export function n8nEnvironment(options: { install: N8nInstall; userFolder: string; port: number; brokerPort: number; logLevel: string }): Record<string, string> {
	const { install, userFolder, port, brokerPort, logLevel } = options;
	const env: Record<string, string> = {
		N8N_USER_FOLDER: userFolder,
		N8N_PORT: String(port),
		N8N_LISTEN_ADDRESS: '127.0.0.1',
		N8N_HOST: '127.0.0.1',
		N8N_PROTOCOL: 'http',
		// The URL n8n gives its webhooks (and our trigger registers on the platform).
		WEBHOOK_URL: `http://127.0.0.1:${port}/`,
		N8N_EDITOR_BASE_URL: `http://127.0.0.1:${port}/`,
		N8N_RUNNERS_BROKER_PORT: String(brokerPort),
		N8N_RUNNERS_BROKER_LISTEN_ADDRESS: '127.0.0.1',
		N8N_LOG_LEVEL: logLevel,
		N8N_LOG_OUTPUT: 'console',
		N8N_SECURE_COOKIE: 'false',
		N8N_DIAGNOSTICS_ENABLED: 'false',
		N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
		N8N_TEMPLATES_ENABLED: 'false',
		N8N_PERSONALIZATION_ENABLED: 'false',
		N8N_HIRING_BANNER_ENABLED: 'false',
		N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'true',
		N8N_COMMUNITY_PACKAGES_ENABLED: 'true',
		N8N_PUBLIC_API_DISABLED: 'false',
		EXTERNAL_FRONTEND_HOOKS_URLS: '',
		N8N_DEV_RELOAD: 'false',
		DB_TYPE: 'sqlite',
		NODE_ENV: 'production',
	};
	if (install.major === '2') {
		// 2.x fetches the MCP server registry from api.n8n.io at start and on a timer.
		env.N8N_DISABLED_MODULES = 'mcp-registry';
	} else {
		// 1.123.81 defaults to the isolated-vm expression engine, whose native module (isolated-vm
		// 6, Node >= 22) cannot be built for Node 20; n8n then exits at start. The legacy engine
		// is what every earlier 1.x used.
		env.N8N_EXPRESSION_ENGINE = 'legacy';
	}
	return env;
}

export class N8nProcess {
	private output = '';
	private readyOutput = '';
	private exited: { code: number | null; signal: NodeJS.Signals | null } | null = null;
	private readonly exitPromise: Promise<void>;
	private readonly onProcessExit = (): void => this.killGroup('SIGKILL');

	private constructor(
		readonly install: N8nInstall,
		readonly userFolder: string,
		readonly port: number,
		readonly brokerPort: number,
		private readonly child: ChildProcess,
		private readonly logStream: WriteStream,
		echo?: NodeJS.WritableStream,
		readonly command: NonNullable<N8nStartOptions['command']> = 'start',
	) {
		const collect = (chunk: Buffer): void => {
			const text = chunk.toString('utf8');
			this.output += text;
			this.logStream.write(chunk);
			echo?.write(chunk);
		};
		child.stdout?.on('data', collect);
		child.stderr?.on('data', collect);
		this.exitPromise = new Promise((resolve) => {
			child.once('exit', (code, signal) => {
				this.exited = { code, signal };
				resolve();
			});
		});
		process.once('exit', this.onProcessExit);
	}

	/** http://127.0.0.1:<port> */
	get url(): string {
		return `http://127.0.0.1:${this.port}`;
	}

	get pid(): number {
		if (this.child.pid === undefined) throw new Error('n8n has no pid');
		return this.child.pid;
	}

	get running(): boolean {
		return this.exited === null;
	}

	/** Everything n8n printed so far, colours removed. */
	log(): string {
		return stripAnsi(this.output);
	}

	/** The log as it was when n8n had just become ready (its start-up, before any test traffic). */
	startupLog(): string {
		return stripAnsi(this.readyOutput);
	}

	/** The last `lines` lines of the log (for error messages). */
	logTail(lines = 60): string {
		return this.log().split('\n').slice(-lines).join('\n');
	}

	static async start(options: N8nStartOptions): Promise<N8nProcess> {
		const port = options.port ?? (await freePort());
		let brokerPort = options.brokerPort ?? (await freePort());
		while (brokerPort === port) brokerPort = await freePort();
		mkdirSync(options.userFolder, { recursive: true });
		const env = {
			...process.env,
			...n8nEnvironment({ install: options.install, userFolder: options.userFolder, port, brokerPort, logLevel: options.logLevel ?? 'info' }),
			...options.env,
		};
		// Settings of the test process that must not leak into n8n.
		delete env.N8N_CONFIG_FILES;
		delete env.NODE_OPTIONS;
		delete env.JEST_WORKER_ID;
		const logStream = createWriteStream(join(options.userFolder, 'n8n.log'));
		const command = options.command ?? 'start';
		const [executable, ...args] = [...(options.launcher ?? []), options.install.node, ...(options.nodeArgs ?? []), options.install.bin, command, ...(options.args ?? [])];
		const child = spawn(executable, args, {
			cwd: options.userFolder,
			env,
			detached: true,
			stdio: ['ignore', 'pipe', 'pipe'],
		});
		const n8n = new N8nProcess(options.install, options.userFolder, port, brokerPort, child, logStream, options.echo, command);
		await new Promise<void>((resolve, reject) => {
			child.once('spawn', () => resolve());
			child.once('error', reject);
		});
		try {
			await n8n.waitUntilReady(options.readyTimeoutMs ?? 180_000);
		} catch (error) {
			await n8n.stop();
			throw error;
		}
		return n8n;
	}

	private async waitUntilReady(timeoutMs: number): Promise<void> {
		const deadline = Date.now() + timeoutMs;
		const ok = async (path: string): Promise<boolean> => {
			try {
				const res = await fetch(`${this.url}${path}`, { signal: AbortSignal.timeout(5000) });
				await res.arrayBuffer();
				return res.status === 200;
			} catch {
				return false;
			}
		};
		while (Date.now() < deadline) {
			if (!this.running) {
				throw new Error(`n8n ${this.install.version} exited (${JSON.stringify(this.exited)}) before it was ready:\n${this.logTail()}`);
			}
			// n8n answers /healthz early in its start; it prints "Editor is now accessible" last.
			const ready =
				this.command === 'start'
					? this.output.includes('Editor is now accessible') && (await ok('/healthz/readiness')) && (await ok('/rest/settings'))
					: await ok('/healthz/readiness');
			if (ready) {
				this.readyOutput = this.output;
				return;
			}
			await new Promise((r) => setTimeout(r, 250));
		}
		throw new Error(`n8n ${this.install.version} was not ready on ${this.url} after ${timeoutMs} ms:\n${this.logTail()}`);
	}

	/** Signals n8n's process group (n8n and the task runner it forked); ignores a gone group. */
	private killGroup(signal: NodeJS.Signals): void {
		if (this.child.pid === undefined) return;
		try {
			process.kill(-this.child.pid, signal);
		} catch {
			// ESRCH: nothing left in the group.
		}
	}

	/** True while any process of n8n's group is alive (n8n itself or a runner it left). */
	groupAlive(): boolean {
		if (this.child.pid === undefined) return false;
		try {
			process.kill(-this.child.pid, 0);
			return true;
		} catch {
			return false;
		}
	}

	/**
	 * SIGTERM to n8n (graceful: it stops its task runner and closes the database), SIGKILL to its
	 * group after `graceMs`; resolves once the group is empty. Safe to call twice.
	 */
	async stop(graceMs = 20_000): Promise<void> {
		if (this.running && this.child.pid !== undefined) {
			try {
				process.kill(this.child.pid, 'SIGTERM');
			} catch {
				// already gone
			}
			const timedOut = await Promise.race([
				this.exitPromise.then(() => false),
				new Promise<boolean>((r) => setTimeout(() => r(true), graceMs).unref()),
			]);
			if (timedOut) this.killGroup('SIGKILL');
			await this.exitPromise;
		}
		// Anything n8n left behind in its group (a runner that did not exit with it).
		for (let i = 0; i < 50 && this.groupAlive(); i++) {
			if (i === 10) this.killGroup('SIGKILL');
			await new Promise((r) => setTimeout(r, 100));
		}
		process.removeListener('exit', this.onProcessExit);
		await new Promise<void>((resolve) => this.logStream.end(() => resolve()));
	}
}
