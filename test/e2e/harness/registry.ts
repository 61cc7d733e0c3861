/* eslint-disable -- development tooling, not shipped: n8n's node rules (eslint.config.mjs, n8n-node lint) are for nodes/ and credentials/ */
/**
 * A local npm registry for the install suites: verdaccio on 127.0.0.1 (a free port), no uplinks
 * (it serves only what the test published: a package it lacks is a 404, as on a private registry
 * without a proxy), its storage and config in a temp folder that stop() removes.
 *
 *   const registry = await startRegistry();
 *   await registry.publish(tarball);             // npm publish, as the registry's one user
 *   registry.url                                 // http://127.0.0.1:<port>/ (for --registry, .npmrc,
 *                                                // N8N_COMMUNITY_PACKAGES_REGISTRY)
 *   await registry.stop();
 *
 * verdaccio is development tooling like n8n: scripts/provision-n8n.sh verdaccio installs it into
 * the cache folder (never a devDependency) and it runs on the cached Node 24 (6.10.x needs Node 22).
 * npm 11 publishes only with a login: the registry's user is created through verdaccio's
 * CouchDB-style user API, which answers with a token; the token lives in a userconfig file in the
 * temp folder, never on a command line.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { freePort } from './n8n-process';
import { Progress, runWithProgress } from './progress';
import { PACKAGE_NAME, REPO_ROOT } from './provision';

/** The released 0.1.0, packed once from commit 74a8fad (listed in test/fixtures/0.1.0/SHA256SUMS). */
export const RELEASED_0_1_0_TARBALL = join(REPO_ROOT, 'test', 'fixtures', '0.1.0', 'package', `${PACKAGE_NAME}-0.1.0.tgz`);

export interface VerdaccioInstall {
	version: string;
	/** Node 24 */
	node: string;
	/** node_modules/verdaccio/bin/verdaccio */
	bin: string;
}

const PROVISION_TAG = 'provision-n8n';

/** scripts/provision-n8n.sh verdaccio (idempotent; fast when the cache has it). */
export async function provisionVerdaccio(env: NodeJS.ProcessEnv = process.env): Promise<VerdaccioInstall> {
	const progress = new Progress({ tag: PROVISION_TAG });
	progress.step('provisioning verdaccio');
	const result = await runWithProgress('bash', [join(REPO_ROOT, 'scripts', 'provision-n8n.sh'), 'verdaccio'], { cwd: REPO_ROOT, env, progress, tag: PROVISION_TAG }).catch((error: unknown) => {
		progress.abandon();
		throw error;
	});
	if (result.status !== 0) {
		progress.abandon();
		throw new Error(`scripts/provision-n8n.sh verdaccio failed (exit ${result.status}); see its output above`);
	}
	progress.finish('verdaccio ready');
	const match = /^verdaccio (\S+): node=(\S+) bin=(\S+)$/m.exec(result.stdout);
	if (!match) throw new Error(`scripts/provision-n8n.sh verdaccio printed no install line:\n${result.stdout}`);
	return { version: match[1], node: match[2], bin: match[3] };
}

export interface LocalRegistry {
	/** http://127.0.0.1:<port>/ */
	readonly url: string;
	/** the registry's one user's token (publishing only; reading needs none) */
	readonly token: string;
	/** `npm publish <tarball>` to this registry; returns npm's output */
	publish(tarball: string): string;
	/** verdaccio's output so far (for error messages) */
	log(): string;
	/** stops verdaccio (SIGTERM, then SIGKILL to its group) and removes its folder */
	stop(): Promise<void>;
}

export interface RegistryOptions {
	/** default: provisionVerdaccio() */
	install?: VerdaccioInstall;
	/** default: a free port */
	port?: number;
}

const yamlString = (value: string): string => JSON.stringify(value);

export async function startRegistry(options: RegistryOptions = {}): Promise<LocalRegistry> {
	const install = options.install ?? (await provisionVerdaccio());
	const port = options.port ?? (await freePort());
	const folder = mkdtempSync(join(tmpdir(), 'n8n-e2e-registry-'));
	const url = `http://127.0.0.1:${port}/`;
	mkdirSync(join(folder, 'storage'));
	// No uplinks: every package is served from storage or not at all. Anyone may read; publishing
	// needs the user created below.
	writeFileSync(
		join(folder, 'config.yaml'),
		[
			`storage: ${yamlString(join(folder, 'storage'))}`,
			'auth:',
			'  htpasswd:',
			`    file: ${yamlString(join(folder, 'htpasswd'))}`,
			'    max_users: 1',
			'uplinks: {}',
			'packages:',
			"  '**':",
			'    access: $all',
			'    publish: $authenticated',
			'    unpublish: $authenticated',
			'web:',
			'  enable: false',
			'publish:',
			'  allow_offline: true',
			'log: { type: stdout, format: pretty, level: warn }',
			'',
		].join('\n'),
	);
	let output = '';
	const child: ChildProcess = spawn(install.node, [install.bin, '--config', join(folder, 'config.yaml'), '--listen', `127.0.0.1:${port}`], {
		cwd: folder,
		detached: true,
		stdio: ['ignore', 'pipe', 'pipe'],
		env: { ...process.env, NODE_OPTIONS: '' },
	});
	child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
	child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
	const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
	let running = true;
	void exited.then(() => (running = false));
	const killGroup = (signal: NodeJS.Signals): void => {
		try {
			if (child.pid !== undefined) process.kill(-child.pid, signal);
		} catch {
			// the group is gone
		}
	};
	const onExit = (): void => killGroup('SIGKILL');
	process.once('exit', onExit);

	const stop = async (): Promise<void> => {
		if (running) {
			killGroup('SIGTERM');
			const timer = setTimeout(() => killGroup('SIGKILL'), 5000);
			await exited;
			clearTimeout(timer);
		}
		process.removeListener('exit', onExit);
		rmSync(folder, { recursive: true, force: true });
	};

	try {
		// Ready when it answers its ping.
		const deadline = Date.now() + 60_000;
		for (;;) {
			if (!running) throw new Error(`verdaccio exited before it was ready:\n${output}`);
			const ok = await fetch(`${url}-/ping`, { signal: AbortSignal.timeout(2000) })
				.then(async (res) => {
					await res.arrayBuffer();
					return res.ok;
				})
				.catch(() => false);
			if (ok) break;
			if (Date.now() > deadline) throw new Error(`verdaccio did not answer ${url}-/ping within 60 s:\n${output}`);
			await new Promise((r) => setTimeout(r, 200));
		}
		// npm adduser's request: PUT /-/user/org.couchdb.user:<name> answers 201 with a token.
		const name = 'e2e-publisher';
		const created = await fetch(`${url}-/user/org.couchdb.user:${name}`, {
			method: 'PUT',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ _id: `org.couchdb.user:${name}`, name, password: randomBytes(16).toString('hex'), type: 'user', roles: [], date: new Date().toISOString() }),
		});
		const answer = (await created.json()) as { token?: string; error?: string };
		if (!created.ok || !answer.token) throw new Error(`verdaccio did not create the publishing user (HTTP ${created.status}): ${answer.error ?? JSON.stringify(answer)}`);
		const token = answer.token;
		const userconfig = join(folder, 'publisher.npmrc');
		writeFileSync(userconfig, `registry=${url}\n//127.0.0.1:${port}/:_authToken=${token}\n`, { mode: 0o600 });

		return {
			url,
			token,
			publish(tarball: string): string {
				// --provenance=false: package.json's publishConfig asks for provenance, which only a CI
				// identity can sign; --ignore-scripts: a tarball runs none anyway, said for clarity.
				const result = spawnSync('npm', ['publish', tarball, '--registry', url, '--userconfig', userconfig, '--provenance=false', '--ignore-scripts', '--access', 'public'], {
					cwd: folder,
					encoding: 'utf8',
					env: { ...process.env, npm_config_registry: url },
				});
				if (result.status !== 0) throw new Error(`npm publish ${tarball} to ${url} failed (exit ${result.status}):\n${result.stdout}${result.stderr}\n--- verdaccio ---\n${output}`);
				return `${result.stdout}${result.stderr}`;
			},
			log: () => output,
			stop,
		};
	} catch (error) {
		await stop();
		throw error;
	}
}

/**
 * A copy of a packed tarball with another version in its package.json (today's build published as
 * the next version without bumping the repo's package.json). Written into destDir; returns its path.
 */
export function repackWithVersion(tarball: string, version: string, destDir: string): string {
	const work = mkdtempSync(join(tmpdir(), 'n8n-e2e-repack-'));
	try {
		const run = (command: string, args: string[], cwd: string): string => {
			const result = spawnSync(command, args, { cwd, encoding: 'utf8' });
			if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed (exit ${result.status}):\n${result.stdout}${result.stderr}`);
			return result.stdout;
		};
		run('tar', ['-xzf', tarball, '-C', work], work);
		const manifestPath = join(work, 'package', 'package.json');
		const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as Record<string, unknown>;
		manifest.version = version;
		writeFileSync(manifestPath, `${JSON.stringify(manifest, null, 2)}\n`);
		mkdirSync(destDir, { recursive: true });
		const [info] = JSON.parse(run('npm', ['pack', join(work, 'package'), '--json', '--ignore-scripts', '--pack-destination', destDir], work)) as Array<{ filename: string }>;
		return join(destDir, info.filename);
	} finally {
		rmSync(work, { recursive: true, force: true });
	}
}
