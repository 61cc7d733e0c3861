/* eslint-disable -- development tooling, not shipped: n8n's node rules (eslint.config.mjs, n8n-node lint) are for nodes/ and credentials/ */
/**
 * `npm run dev` run the way a user runs it in the background: `npm run dev &`, then a signal to the
 * npm process (not to the script, not to the group). It must print the demo IDs and the real log
 * path, and the signal must stop everything it started: the script, n8n (with its task runner),
 * the sandbox, and its temporary n8n folder. Runs when N8N_E2E_VERSIONS selects 2 (dev's default).
 *
 * The npm process gets a process group of its own, so that whatever happens, afterAll can end what
 * is left (by that group only), and nothing outlives the test.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';

import { DEMO } from '../sandbox';
import { describeWhen } from './harness/gate';
import { freePort, portInUse, processGroupMembers } from './harness/n8n-process';
import { REPO_ROOT, selectedMajors } from './harness/provision';

/** Startup: build, pack, provision check, n8n start, owner, credential, examples. */
const READY_TIMEOUT_MS = 300_000;
const STOP_TIMEOUT_MS = 90_000;

function alive(pid: number): boolean {
	try {
		process.kill(pid, 0);
		return true;
	} catch {
		return false;
	}
}

/** The parent pid of a live process (Linux: /proc/<pid>/stat, field 4 after the command name). */
function parentOf(pid: number): number {
	const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
	return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
}

interface DevRun {
	npm: ChildProcess;
	output: () => string;
	exited: Promise<number | null>;
}

function startDev(port: number, sandboxPort: number): DevRun {
	const npm = spawn('npm', ['run', 'dev', '--', '--port', String(port), '--sandbox-port', String(sandboxPort)], {
		cwd: REPO_ROOT,
		detached: true,
		stdio: ['ignore', 'pipe', 'pipe'],
		env: { ...process.env, N8N_DEV_PORT: '', SANDBOX_PORT: '' },
	});
	let text = '';
	npm.stdout?.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
	npm.stderr?.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
	const exited = new Promise<number | null>((resolve) => npm.once('exit', (code) => resolve(code)));
	return { npm, output: () => text, exited };
}

/** Resolves once `pattern` is in the output; rejects when the run exits first or time is up. */
async function waitFor(run: DevRun, pattern: RegExp, timeoutMs: number): Promise<RegExpMatchArray> {
	const deadline = Date.now() + timeoutMs;
	let ended = false;
	void run.exited.then(() => (ended = true));
	for (;;) {
		const match = pattern.exec(run.output());
		if (match) return match;
		if (ended) throw new Error(`npm run dev ended before ${pattern}:\n${run.output()}`);
		if (Date.now() > deadline) throw new Error(`no ${pattern} after ${timeoutMs} ms:\n${run.output()}`);
		await new Promise((resolve) => setTimeout(resolve, 250));
	}
}

describeWhen(selectedMajors().includes('2'), 'npm run dev in the background', 'N8N_E2E_VERSIONS does not select n8n 2', () => {
	const runs: DevRun[] = [];

	afterAll(() => {
		// Only if a test failed half-way: end what is left of each run (npm's process group, n8n's
		// own group) and remove its n8n folder.
		for (const run of runs) {
			const out = run.output();
			const n8nPid = Number(/n8n runs as pid (\d+)/.exec(out)?.[1]);
			for (const group of [run.npm.pid, n8nPid]) {
				if (!group || processGroupMembers(group).length === 0) continue;
				try {
					process.kill(-group, 'SIGKILL');
				} catch {
					// already gone
				}
			}
			const folder = /\(log: (\S+)\/n8n\.log\)/.exec(out)?.[1];
			if (folder && folder.startsWith(tmpdir())) rmSync(folder, { recursive: true, force: true });
		}
	});

	test.each(['SIGINT', 'SIGTERM'] as const)(
		'prints the demo IDs and the log path; %s to the npm process stops everything it started',
		async (signal) => {
			const [port, sandboxPort] = [await freePort(), await freePort()];
			const run = startDev(port, sandboxPort);
			runs.push(run);
			await waitFor(run, /Ctrl-C .* stops everything/, READY_TIMEOUT_MS);
			const out = run.output();

			// The log path is real (no "<temporary folder>"), and the file is there.
			expect(out).not.toContain('<temporary folder>');
			const logPath = /n8n log: +(\S+n8n\.log)/.exec(out)?.[1] ?? '';
			expect(existsSync(logPath)).toBe(true);
			expect(out).toContain(`(log: ${logPath})`);
			const userFolder = logPath.replace(/\/n8n\.log$/, '');

			// The demo IDs the API cannot list.
			expect(out).toContain('Demo IDs');
			for (const id of [DEMO.tags.vip.id, DEMO.triggers.addTag.id, DEMO.bots.welcome.id, DEMO.customFields.profile.fields.cpf, DEMO.chats.alice.id]) {
				expect(out).toContain(id);
			}

			const n8nPid = Number(/n8n runs as pid (\d+)/.exec(out)?.[1]);
			const devPid = Number(/\[dev\] pid (\d+)/.exec(out)?.[1]);
			const npmPid = run.npm.pid as number;
			expect([alive(n8nPid), alive(devPid), await portInUse(sandboxPort), await portInUse(port)]).toEqual([true, true, true, true]);
			// npm → the script directly (exec: no sh -c between them).
			expect(parentOf(devPid)).toBe(npmPid);

			process.kill(npmPid, signal);
			const code = await Promise.race([
				run.exited,
				new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), STOP_TIMEOUT_MS).unref()),
			]);
			expect(code).toBe(0);
			expect(run.output()).toContain(`${signal}: stopping n8n and the sandbox`);
			expect(run.output()).toContain('[dev] stopped.');
			// Nothing is left: not the script, not n8n or its task runner, not the sandbox.
			expect(processGroupMembers(npmPid)).toEqual([]);
			expect(processGroupMembers(n8nPid)).toEqual([]);
			expect([alive(n8nPid), alive(devPid)]).toEqual([false, false]);
			expect([await portInUse(sandboxPort), await portInUse(port)]).toEqual([false, false]);
			expect(existsSync(userFolder)).toBe(false);
		},
		READY_TIMEOUT_MS + STOP_TIMEOUT_MS + 30_000,
	);
});
