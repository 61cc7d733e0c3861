/* eslint-disable -- development tooling, not shipped: n8n's node rules (eslint.config.mjs, n8n-node lint) are for nodes/ and credentials/ */
/**
 * `require('n8n-nodes-conversation-inbox')` as someone who embeds or tests the package does it: the
 * package compiled with the build's settings, packed by npm (only what `files` ships, `main` as
 * package.json says) and unpacked into a node_modules folder, then required by name from a separate
 * Node process. The build and the tarball go to a folder of their own under test-output/ (a parallel
 * `npm run build` never sees a half-written dist/); n8n-workflow, the peer dependency, is found in
 * the repo's node_modules as n8n provides it.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';

const REPO_ROOT = resolve(__dirname, '..', '..');
const PACKAGE_NAME = 'n8n-nodes-conversation-inbox';

function run(command: string, args: string[], cwd: string): string {
	const result = spawnSync(command, args, { cwd, encoding: 'utf8' });
	if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed (exit ${result.status}): ${result.stdout}${result.stderr}`);
	return result.stdout;
}

describe('the packed tarball, required by name', () => {
	let dir: string;
	let tarballFiles: string[];
	let packedMain: unknown;

	beforeAll(() => {
		mkdirSync(join(REPO_ROOT, 'test-output'), { recursive: true });
		dir = mkdtempSync(join(REPO_ROOT, 'test-output', 'main-'));
		const stage = join(dir, 'stage');
		const tsc = require.resolve('typescript/bin/tsc');
		run(process.execPath, [tsc, '-p', join(REPO_ROOT, 'tsconfig.build.json'), '--outDir', join(stage, 'dist')], REPO_ROOT);
		for (const file of ['package.json', 'index.js', 'README.md', 'LICENSE']) copyFileSync(join(REPO_ROOT, file), join(stage, file));
		const [packed] = JSON.parse(run('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', dir], stage)) as Array<{
			filename: string;
			files: Array<{ path: string }>;
		}>;
		tarballFiles = packed.files.map((file) => file.path);
		const installed = join(dir, 'node_modules', PACKAGE_NAME);
		mkdirSync(installed, { recursive: true });
		run('tar', ['-xzf', join(dir, packed.filename), '-C', installed, '--strip-components=1'], dir);
		packedMain = (JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')) as { main?: unknown }).main;
	}, 120_000);

	afterAll(() => {
		if (dir) rmSync(dir, { recursive: true, force: true });
	});

	test('the tarball ships index.js as the package main', () => {
		expect(tarballFiles).toContain('index.js');
		expect(packedMain).toBe('index.js');
	});

	test('gives the two node classes and the credential class, with the names n8n knows them by', () => {
		const script = `
			const exported = require(${JSON.stringify(PACKAGE_NAME)});
			const { ConversationInbox, ConversationInboxTrigger, ConversationInboxApi } = exported;
			console.log(JSON.stringify({
				keys: Object.keys(exported).sort(),
				types: [ConversationInbox, ConversationInboxTrigger, ConversationInboxApi].map((value) => typeof value),
				resolved: require.resolve(${JSON.stringify(PACKAGE_NAME)}),
				names: [new ConversationInbox().description.name, new ConversationInboxTrigger().description.name, new ConversationInboxApi().name],
			}));`;
		const out = JSON.parse(run(process.execPath, ['-e', script], dir)) as Record<string, unknown>;
		expect(out).toEqual({
			keys: ['ConversationInbox', 'ConversationInboxApi', 'ConversationInboxTrigger'],
			types: ['function', 'function', 'function'],
			resolved: join(dir, 'node_modules', PACKAGE_NAME, 'index.js'),
			names: ['conversationInbox', 'conversationInboxTrigger', 'conversationInboxApi'],
		});
	});
});
