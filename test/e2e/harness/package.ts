/* eslint-disable -- development tooling, not shipped: n8n's node rules (eslint.config.mjs, n8n-node lint) are for nodes/ and credentials/ */
/**
 * The package as a user gets it: built, packed by npm (only what `files` ships), and installed into
 * an n8n user folder the way n8n's own community-package installer does it (n8n 2.x
 * CommunityPackagesService.downloadPackage; 1.x installs into the same folder with npm):
 *
 *   <userFolder>/.n8n/nodes/node_modules/<name>/   the tarball's contents (tar --strip-components=1),
 *                                                  package.json without dev/peer/optional deps
 *   <userFolder>/.n8n/nodes/package.json           { dependencies: { <name>: <version> } }
 *
 * At start n8n scans .n8n/nodes/node_modules/n8n-nodes-* (n8n-core scanDirectoryForPackages in 2.x,
 * LoadNodesAndCredentials in 1.x), so the node types are `n8n-nodes-conversation-inbox.<node>`.
 * Loading needs no database record; Settings → Community nodes lists only packages installed
 * through it (it keeps installed_packages rows), which is the one difference from a UI install.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';

import { PACKAGE_NAME, REPO_ROOT } from './provision';

function run(command: string, args: string[], cwd: string, quiet = false): string {
	const result = spawnSync(command, args, {
		cwd,
		encoding: 'utf8',
		stdio: ['ignore', 'pipe', quiet ? 'pipe' : 'inherit'],
	});
	if (result.error) throw result.error;
	if (result.status !== 0) {
		throw new Error(`${command} ${args.join(' ')} failed in ${cwd} (exit ${result.status})\n${result.stdout}${result.stderr ?? ''}`);
	}
	return result.stdout;
}

/** `npm run build` in the repo (tsc + icons into dist/). */
export function buildPackage(): void {
	const out = run('npm', ['run', 'build', '--silent'], REPO_ROOT);
	if (out.trim()) process.stderr.write(out);
	if (!existsSync(join(REPO_ROOT, 'dist', 'nodes', 'ConversationInbox', 'ConversationInbox.node.js'))) {
		throw new Error('npm run build produced no dist/nodes/ConversationInbox/ConversationInbox.node.js');
	}
}

export interface PackedPackage {
	/** absolute path of the .tgz */
	tarball: string;
	name: string;
	version: string;
	/** paths inside the tarball, e.g. 'dist/nodes/…' */
	files: string[];
}

/** `npm pack` of the built repo into destDir. */
export function packPackage(destDir: string): PackedPackage {
	mkdirSync(destDir, { recursive: true });
	const out = run('npm', ['pack', '--json', '--pack-destination', destDir], REPO_ROOT, true);
	const [info] = JSON.parse(out) as Array<{ filename: string; name: string; version: string; files: Array<{ path: string }> }>;
	return {
		tarball: join(destDir, info.filename),
		name: info.name,
		version: info.version,
		files: info.files.map((f) => f.path),
	};
}

export interface InstalledPackage {
	/** <userFolder>/.n8n/nodes/node_modules/<name> */
	dir: string;
	version: string;
}

/** Installs the packed package into an n8n user folder (see the file comment). Replaces an earlier copy. */
export function installIntoUserFolder(userFolder: string, packed: PackedPackage): InstalledPackage {
	const nodesDir = join(userFolder, '.n8n', 'nodes');
	const dir = join(nodesDir, 'node_modules', packed.name);
	rmSync(dir, { recursive: true, force: true });
	mkdirSync(dir, { recursive: true });
	run('tar', ['-xzf', packed.tarball, '-C', dir, '--strip-components=1'], nodesDir, true);

	const manifestPath = join(dir, 'package.json');
	const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as Record<string, unknown>;
	if (manifest.name !== PACKAGE_NAME) throw new Error(`the tarball holds ${String(manifest.name)}, not ${PACKAGE_NAME}`);
	// n8n drops these before installing the package's own dependencies: n8n-workflow (our peer)
	// must resolve to n8n's copy, or instanceof checks on its error classes break.
	delete manifest.devDependencies;
	delete manifest.peerDependencies;
	delete manifest.optionalDependencies;
	writeFileSync(manifestPath, JSON.stringify(manifest, null, 2));
	const dependencies = (manifest.dependencies ?? {}) as Record<string, string>;
	if (Object.keys(dependencies).length > 0) {
		// The same flags n8n uses; our package has no runtime dependencies, so this does not run today.
		run('npm', ['install', '--audit=false', '--fund=false', '--bin-links=false', '--install-strategy=shallow', '--ignore-scripts=true', '--package-lock=false'], dir);
	}

	const nodesManifestPath = join(nodesDir, 'package.json');
	const nodesManifest: { dependencies?: Record<string, string> } & Record<string, unknown> = existsSync(nodesManifestPath)
		? (JSON.parse(readFileSync(nodesManifestPath, 'utf8')) as { dependencies?: Record<string, string> })
		: { name: 'installed-nodes', private: true };
	nodesManifest.dependencies = { ...nodesManifest.dependencies, [packed.name]: packed.version };
	writeFileSync(nodesManifestPath, JSON.stringify(nodesManifest, null, 2));
	return { dir, version: packed.version };
}
