/* eslint-disable -- development tooling, not shipped: n8n's node rules (eslint.config.mjs, n8n-node lint) are for nodes/ and credentials/ */
/**
 * The package as n8n loads it: compiled with the build's own settings (tsconfig.build.json) and read
 * by n8n-core's PackageDirectoryLoader, which is what n8n runs for a community package without
 * pre-built type files (its LazyPackageDirectoryLoader falls back to it). The loader takes a node's
 * codex from the class description when there is one, else from the .node.json beside the node; the
 * node panel's documentation links and search aliases come from what it keeps.
 *
 * The build goes to a folder of its own under test-output/ (so a parallel `npm run build` or e2e run
 * never sees a half-written dist/); module resolution still finds n8n-workflow in the repo.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';

import type { INodeTypeDescription } from 'n8n-workflow';
import { PackageDirectoryLoader } from 'n8n-core';

const REPO_ROOT = resolve(__dirname, '..', '..');
const PACKAGE_JSON = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as {
	name: string;
	repository: { url: string };
};
/** The repository address package.json names: docs links must point into it. */
const REPOSITORY = PACKAGE_JSON.repository.url.replace(/^git\+/, '').replace(/\.git$/, '');

type Codex = NonNullable<INodeTypeDescription['codex']>;

/** The .node.json codex file of a node, as kept in the sources. */
function codexFile(node: string): { categories: string[]; alias: string[]; resources: Codex['resources'] } {
	return JSON.parse(readFileSync(join(REPO_ROOT, 'nodes', node, `${node}.node.json`), 'utf8'));
}

describe('the package loaded the way n8n loads it (n8n-core PackageDirectoryLoader)', () => {
	let dir: string;
	let loader: PackageDirectoryLoader;
	const nodeNamed = (name: string): INodeTypeDescription => {
		const found = loader.types.nodes.find((description) => description.name === name);
		if (!found) throw new Error(`the loader has no node ${name}: ${loader.types.nodes.map((d) => d.name).join(', ')}`);
		return found;
	};

	beforeAll(async () => {
		mkdirSync(join(REPO_ROOT, 'test-output'), { recursive: true });
		dir = mkdtempSync(join(REPO_ROOT, 'test-output', 'loader-'));
		const tsc = spawnSync(
			process.execPath,
			[require.resolve('typescript/bin/tsc'), '-p', join(REPO_ROOT, 'tsconfig.build.json'), '--outDir', join(dir, 'dist')],
			{ cwd: REPO_ROOT, encoding: 'utf8' },
		);
		if (tsc.status !== 0) throw new Error(`tsc failed: ${tsc.stdout}${tsc.stderr}`);
		copyFileSync(join(REPO_ROOT, 'package.json'), join(dir, 'package.json'));
		loader = new PackageDirectoryLoader(dir);
		await loader.loadAll();
	}, 120_000);

	afterAll(() => {
		if (dir) rmSync(dir, { recursive: true, force: true });
	});

	test('loads both nodes and the credential', () => {
		expect(loader.packageName).toBe(PACKAGE_JSON.name);
		// The action node is n8n's VersionedNodeType: one description per version (issue 44), as n8n lists them.
		expect(loader.types.nodes.map((d) => `${d.name} ${JSON.stringify(d.version)}`).sort()).toEqual([
			'conversationInbox 1',
			'conversationInbox 2',
			'conversationInboxTrigger [1,2,3,4]',
		]);
		expect(loader.types.credentials.map((c) => c.name)).toEqual(['conversationInboxApi']);
	});

	test.each([
		['conversationInbox', 'ConversationInbox', '#operations'],
		['conversationInboxTrigger', 'ConversationInboxTrigger', '#the-trigger'],
	])('%s carries its documentation links, from its .node.json (the one codex source), in every version', (name, folder, section) => {
		const versions = loader.types.nodes.filter((description) => description.name === name);
		expect(versions.length).toBeGreaterThan(0);
		for (const { codex, documentationUrl } of versions) {
		expect(codex?.resources?.primaryDocumentation).toEqual([{ url: `${REPOSITORY}${section}` }]);
		// The editor's Docs link: used as it is (n8n appends its utm query to a codex URL, after the
		// #section anchor); read from the same .node.json.
		expect(documentationUrl).toBe(`${REPOSITORY}${section}`);
		expect(codex?.resources?.credentialDocumentation).toEqual([{ url: `${REPOSITORY}#credentials` }]);
		// Exactly the file's codex: nothing in the class description overrides it.
		const file = codexFile(folder);
		expect(codex).toEqual({ categories: file.categories, alias: file.alias, resources: file.resources });
		}
	});

	test('the credential carries its documentation link', () => {
		const [credential] = loader.types.credentials;
		expect(credential.documentationUrl).toBe(`${REPOSITORY}#credentials`);
	});

	test('the node panel finds the action node by every resource it works with', () => {
		// n8n's node panel searches displayName and codex.alias only (editor-ui sublimeSearch keys).
		const alias = (nodeNamed('conversationInbox').codex?.alias ?? []).map((a) => a.toLowerCase());
		for (const word of ['inbox', 'whatsapp', 'contact', 'contacts', 'tag', 'custom field', 'custom fields', 'chat', 'message',
			'template', 'templates', 'automation', 'automations', 'bot', 'bots', 'webhook', 'webhooks', 'group', 'groups',
			'user', 'users', 'integration']) {
			expect({ word, found: alias.includes(word) }).toEqual({ word, found: true });
		}
	});
});
