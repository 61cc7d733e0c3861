/* eslint-disable -- development tooling, not shipped: n8n's node rules (eslint.config.mjs, n8n-node lint) are for nodes/ and credentials/ */
/**
 * `npm install n8n-nodes-conversation-inbox` by hand (the README's By hand, and what Docker images
 * do) installs our package and nothing else: n8n-workflow is a peer that n8n provides, marked
 * optional (DESIGN.md, "Installation"), so npm never fetches it. Checked with npm itself: the
 * package's manifest packed and installed with no registry (an unreachable one, an empty cache,
 * --offline), where fetching anything fails. 0.1.0, without the mark, made npm fetch n8n-workflow
 * (163 packages from the public registry; a 404 from one without it: issue 30).
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const REPO_ROOT = resolve(__dirname, '..', '..');
const PACKAGE_NAME = 'n8n-nodes-conversation-inbox';

function npm(args: string[], cwd: string): { status: number | null; output: string } {
	const result = spawnSync('npm', args, { cwd, encoding: 'utf8' });
	return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

test('package.json: n8n-workflow is a peer, "*", marked optional', () => {
	const manifest = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as Record<string, unknown>;
	expect(manifest.peerDependencies).toEqual({ 'n8n-workflow': '*' });
	expect(manifest.peerDependenciesMeta).toEqual({ 'n8n-workflow': { optional: true } });
	expect(manifest.dependencies).toBeUndefined();
});

test('npm installs the packed package alone, fetching nothing', () => {
	// Outside the repo, and the install folder with a package.json of its own (as n8n writes into
	// ~/.n8n/nodes): npm in a folder without one walks up to the nearest project and installs there.
	const dir = mkdtempSync(join(tmpdir(), 'n8n-peer-'));
	try {
		const stage = join(dir, 'stage');
		mkdirSync(stage);
		// What npm reads from a tarball to resolve it is package.json; the rest of the files do not matter here.
		for (const file of ['package.json', 'index.js']) copyFileSync(join(REPO_ROOT, file), join(stage, file));
		const packed = npm(['pack', '--json', '--ignore-scripts', '--pack-destination', dir], stage);
		expect(packed.status).toBe(0);
		const [{ filename }] = JSON.parse(packed.output.slice(packed.output.indexOf('['))) as Array<{ filename: string }>;

		const nodes = join(dir, 'nodes');
		mkdirSync(nodes);
		writeFileSync(join(nodes, 'package.json'), JSON.stringify({ name: 'installed-nodes', private: true }));
		const offline = ['--offline', '--cache', join(dir, 'empty-cache'), '--registry', 'http://127.0.0.1:9/', '--no-audit', '--no-fund'];
		const installed = npm(['install', join(dir, filename), ...offline], nodes);
		expect(installed.output).not.toMatch(/ENOTCACHED|n8n-workflow/);
		expect(installed.status).toBe(0);
		expect(readdirSync(join(nodes, 'node_modules')).filter((name) => !name.startsWith('.'))).toEqual([PACKAGE_NAME]);
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
});
