// npm run verify: the checklist n8n's verification applies to a community package (n8n-docs'
// verification guidelines, the Creator Portal's scan, DESIGN.md "Installation"), run on this
// checkout and on the tarball `npm pack` makes of it, printed as one table. A release must pass it
// in one go: verified-only n8n 3.x instances install a version only once n8n has vetted it.
// Needs a fresh `npm run build`. Exits non-zero when any row fails, and lists what failed.
//
// Rows: n8n-node lint (the community rule set, strict) on the shipped sources; the examples and
// GitHub workflows (scripts/tools/check-workflows.mjs); n8n's scanner (@n8n/scan-community-package)
// on the source tree and on the tarball; no runtime dependencies; shipped code without process,
// environment, file system, child processes or timers, importing only n8n-workflow, node's crypto
// and its own files; nothing n8n 3.x removed; package.json's fields; one repository address
// (homepage, bugs, author, CHANGELOG links, every docs URL a README heading); engines = CI's Node
// lines; MIT; provenance from GitHub Actions; English only; a README with usage and examples; what
// the tarball ships; its size.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';

import { analyzePackage, SOURCE_FILE_PATTERNS } from '@n8n/scan-community-package/scanner/scanner.mjs';

const repo = resolve(import.meta.dirname, '..', '..');
const require = createRequire(import.meta.url);
const read = (file) => readFileSync(join(repo, file), 'utf8');
const pkg = JSON.parse(read('package.json'));

/** The packed tarball's limit (issue 44: back under 85 KiB; 82.9 KiB on 2026-11-26, 91.7 KiB after). */
export const TARBALL_LIMIT_BYTES = 85 * 1024;
/** What n8n's verification lint lets shipped code import (besides its own files). */
const ALLOWED_IMPORTS = new Set(['n8n-workflow', 'crypto', 'node:crypto']);

const rows = [];
/** One row of the table: `problems` empty means passed. */
const row = (check, problems, detail) => rows.push({ check, problems, detail });
const kib = (bytes) => `${(bytes / 1024).toFixed(2)} KiB`;
const stripAnsi = (text) => text.replace(/\x1b\[[0-9;]*m/g, '');

// ---- the tarball ----------------------------------------------------------------------------

const work = mkdtempSync(join(tmpdir(), 'verify-'));
try {
	const missingBuild = [...pkg.n8n.nodes, ...pkg.n8n.credentials].filter((file) => !existsSync(join(repo, file)));
	if (missingBuild.length > 0) throw new Error(`${missingBuild.join(', ')} missing: run npm run build first`);
	const packed = JSON.parse(execFileSync('npm', ['pack', '--json', '--pack-destination', work], { cwd: repo, encoding: 'utf8' }))[0];
	execFileSync('tar', ['-xzf', join(work, packed.filename), '-C', work]);
	const tarball = join(work, 'package');
	// The unpacked package finds n8n-workflow (its peer, which n8n provides) as n8n's would: above it.
	symlinkSync(join(repo, 'node_modules'), join(work, 'node_modules'));
	const shipped = packed.files.map((f) => f.path).sort();
	const shippedJs = shipped.filter((f) => f.endsWith('.js')).map((path) => ({ path, text: readFileSync(join(tarball, path), 'utf8') }));

	// ---- lint, examples, scanner ----------------------------------------------------------

	{
		const lint = spawnSync('npx', ['n8n-node', 'lint'], { cwd: repo, encoding: 'utf8' });
		const output = stripAnsi(`${lint.stdout}${lint.stderr}`);
		// Files with findings: stylish prints each file's absolute path on a line of its own.
		const flagged = [...output.matchAll(/^(\/\S+)$/gm)].map(([, path]) => relative(repo, path));
		const shippedFlagged = flagged.filter((path) => /^(nodes|credentials)\//.test(path) || path === 'package.json');
		const summary = /✖ (\d+) problems? \((\d+) errors?, (\d+) warnings?\)/.exec(output);
		const problems = [];
		if (lint.status !== 0) problems.push(`n8n-node lint exited ${lint.status}:\n${output.trim()}`);
		for (const path of shippedFlagged) problems.push(`n8n-node lint flags ${path}`);
		row(
			"Lint: n8n-node lint, n8n's community rule set (strict)",
			problems,
			summary ? `shipped sources clean; ${summary[2]} errors, ${summary[3]} warnings in development tooling` : 'no findings',
		);
	}
	{
		const examples = spawnSync(process.execPath, [join(repo, 'scripts', 'tools', 'check-workflows.mjs')], { cwd: repo, encoding: 'utf8' });
		const lines = `${examples.stdout}${examples.stderr}`.trim().split('\n');
		const summaries = lines.filter((line) => /^(examples|actionlint): /.test(line));
		row(
			'Examples open clean; GitHub workflows pass actionlint',
			examples.status === 0 ? [] : lines.filter((line) => !summaries.includes(line)),
			summaries.join('; '),
		);
	}
	for (const [leg, dir, patterns] of [
		['source tree', repo, SOURCE_FILE_PATTERNS],
		['packed tarball', tarball, ['**/*.js', 'package.json']],
	]) {
		const result = await analyzePackage(dir, patterns);
		row(`n8n's scanner (@n8n/scan-community-package) on the ${leg}`, result.passed ? [] : [`${result.message}\n${result.details ?? ''}`.trim()], result.passed ? '0 findings' : result.message);
	}

	// ---- dependencies and shipped code ------------------------------------------------------

	{
		const problems = [];
		for (const field of ['dependencies', 'optionalDependencies', 'bundleDependencies', 'bundledDependencies']) {
			const names = Object.keys(pkg[field] ?? {});
			if (names.length > 0) problems.push(`package.json ${field}: ${names.join(', ')}`);
		}
		const peers = Object.keys(pkg.peerDependencies ?? {});
		if (peers.join() !== 'n8n-workflow') problems.push(`peerDependencies are ${peers.join(', ') || 'none'}, expected n8n-workflow alone`);
		if (pkg.peerDependenciesMeta?.['n8n-workflow']?.optional !== true) problems.push('the n8n-workflow peer is not marked optional (npm would fetch it)');
		row('No runtime dependencies (n8n-workflow an optional peer)', problems, 'dependencies: none; peer: n8n-workflow, optional');
	}
	{
		const forbidden = [
			[/\bprocess\.[A-Za-z_$]|\bprocess\[/, 'process (environment, exit, …)'],
			[/\bglobalThis\s*\.\s*process\b/, 'globalThis.process'],
			[/\b(setTimeout|setInterval|setImmediate)\s*\(/, 'a timer (use sleep from n8n-workflow)'],
			[/\beval\s*\(|\bnew\s+Function\s*\(/, 'eval / new Function'],
		];
		const problems = [];
		const imported = new Set();
		for (const { path, text: withComments } of shippedJs) {
			// dist/ has no comments (removeComments); index.js has line comments naming the package.
			const text = withComments.replace(/^\s*\/\/.*$/gm, '');
			for (const [pattern, what] of forbidden) if (pattern.test(text)) problems.push(`${path} uses ${what}`);
			for (const [, name] of text.matchAll(/\brequire\(\s*["']([^"']+)["']\s*\)/g)) {
				if (name.startsWith('.')) continue;
				imported.add(name);
				if (!ALLOWED_IMPORTS.has(name)) problems.push(`${path} requires ${name}`);
			}
		}
		row('Shipped code: no environment, file system, child processes or timers; imports allowed', problems, `${shippedJs.length} .js files; imports: ${[...imported].sort().join(', ')} and its own files`);
	}
	{
		require('ts-node').register({ transpileOnly: true, project: join(repo, 'tsconfig.json') });
		const { removedInN8n3, N8N_NODES_API_VERSION } = require('./removed-in-n8n3.ts');
		const examplesDir = join(repo, 'examples', 'workflows');
		const workflows = readdirSync(examplesDir)
			.filter((name) => name.endsWith('.json'))
			.map((name) => ({ ...JSON.parse(readFileSync(join(examplesDir, name), 'utf8')), name: `examples/workflows/${name}` }));
		const textFiles = shipped.filter((f) => /\.(js|json)$/.test(f)).map((path) => ({ path, text: readFileSync(join(tarball, path), 'utf8') }));
		const descriptions = pkg.n8n.nodes.flatMap((file) => Object.values(require(join(tarball, file))).map((Node) => new Node().description));
		const problems = removedInN8n3({ files: textFiles, descriptions, n8n: JSON.parse(readFileSync(join(tarball, 'package.json'), 'utf8')).n8n, workflows });
		row(
			'Nothing n8n 3.x removed (package and examples)',
			problems,
			`n8nNodesApiVersion ${N8N_NODES_API_VERSION}; ${textFiles.length} shipped files, ${descriptions.length} nodes, ${workflows.length} examples`,
		);
	}

	// ---- package.json and the repository ----------------------------------------------------

	{
		const problems = [];
		if (!/^(@[^/]+\/)?n8n-nodes-/.test(pkg.name)) problems.push(`name ${pkg.name} does not start with n8n-nodes-`);
		if (!pkg.keywords?.includes('n8n-community-node-package')) problems.push('keywords lack n8n-community-node-package');
		for (const field of ['description', 'homepage', 'repository', 'bugs', 'author', 'license']) if (!pkg[field]) problems.push(`${field} is missing`);
		if (!pkg.author?.name || !pkg.author?.email) problems.push('author needs a name and an email (n8n compares them with npm)');
		if (pkg.n8n?.strict !== true) problems.push('n8n.strict is not true');
		for (const file of [...pkg.n8n.nodes, ...pkg.n8n.credentials]) if (!shipped.includes(file)) problems.push(`the tarball lacks ${file}, which n8n loads`);
		row('package.json: name, keyword, description, repository, author, license, n8n section', problems, `${pkg.name}; ${pkg.n8n.nodes.length} nodes, ${pkg.n8n.credentials.length} credential`);
	}
	const match = /^git\+(https:\/\/github\.com\/[^/]+\/[^/]+)\.git$/.exec(pkg.repository?.url ?? '');
	const address = match?.[1];
	{
		const problems = [];
		const docsUrls = [];
		if (!address) problems.push(`repository.url must be git+https://github.com/<owner>/<name>.git, got ${pkg.repository?.url}`);
		const expectEqual = (where, actual, expected) => {
			if (actual !== expected) problems.push(`${where} is ${JSON.stringify(actual)}, expected ${JSON.stringify(expected)}`);
		};
		if (address) {
			expectEqual('homepage', pkg.homepage, `${address}#readme`);
			expectEqual('bugs.url', pkg.bugs?.url, `${address}/issues`);
			expectEqual('author.url', pkg.author?.url, address);
			for (const [, url] of read('CHANGELOG.md').matchAll(/^\[[^\]]+\]: (\S+)$/gm)) {
				if (!url.startsWith(`${address}/`)) problems.push(`CHANGELOG.md links ${url}, not under ${address}`);
			}
			// GitHub's anchors for README.md's headings.
			const anchors = new Set(
				[...read('README.md').matchAll(/^#{1,6} (.+)$/gm)].map(([, title]) =>
					title.trim().toLowerCase().replace(/[^\p{L}\p{N} _-]/gu, '').replace(/ /g, '-'),
				),
			);
			const checkDocsUrl = (where, url) => {
				docsUrls.push(url);
				if (typeof url !== 'string' || !url.startsWith(`${address}#`)) problems.push(`${where}: ${url} is not a README anchor of ${address}`);
				else if (!anchors.has(url.slice(address.length + 1))) problems.push(`${where}: ${url} points at no heading of README.md`);
			};
			const checkCodex = (where, codex) => {
				const resources = codex?.resources ?? {};
				for (const [kind, links] of Object.entries(resources)) for (const link of links ?? []) checkDocsUrl(`${where} codex ${kind}`, link.url);
				return (resources.primaryDocumentation ?? []).length;
			};
			for (const file of pkg.n8n.nodes) {
				const exported = Object.values(require(join(tarball, file)));
				if (exported.length !== 1) problems.push(`${file} should export one node class, exports ${exported.length}`);
				const node = new exported[0]();
				const descriptions = node.nodeVersions ? Object.values(node.nodeVersions).map((v) => v.description) : [node.description];
				let primary = descriptions.reduce((n, d) => n + checkCodex(`${file} (class description)`, d.codex), 0);
				const codexFile = file.replace(/\.js$/, '.json');
				if (existsSync(join(tarball, codexFile))) primary += checkCodex(codexFile, JSON.parse(readFileSync(join(tarball, codexFile), 'utf8')));
				if (primary === 0) problems.push(`${file}: no primaryDocumentation link in its class codex or ${codexFile}`);
			}
			for (const file of pkg.n8n.credentials) {
				for (const Credential of Object.values(require(join(tarball, file)))) checkDocsUrl(`${file} documentationUrl`, new Credential().documentationUrl);
			}
		}
		row('One repository address: homepage, bugs, author, CHANGELOG links, docs URLs (README headings)', problems, `${address}; ${docsUrls.length} docs URLs`);
	}
	{
		const engineMajors = [...(pkg.engines?.node ?? '').matchAll(/\^(\d+)\./g)].map(([, major]) => Number(major)).sort();
		const matrix = /^\s+node: \[([\d, ]+)\]\s*$/m.exec(read('.github/workflows/ci.yml'));
		const testedMajors = matrix ? matrix[1].split(',').map(Number).sort() : [];
		const same = engineMajors.length > 0 && engineMajors.join() === testedMajors.join();
		row(
			"engines.node = the Node lines CI tests (ci.yml's matrix)",
			same ? [] : [`engines.node "${pkg.engines?.node}" names Node ${engineMajors.join(', ') || 'nothing'}; CI tests Node ${testedMajors.join(', ') || 'nothing'}`],
			`${pkg.engines?.node}`,
		);
	}
	{
		const problems = [];
		if (pkg.license !== 'MIT') problems.push(`license is ${pkg.license}`);
		if (!/^MIT License\n/.test(read('LICENSE'))) problems.push('LICENSE is not the MIT License text');
		if (!shipped.includes('LICENSE')) problems.push('the tarball lacks LICENSE');
		row('MIT licence (package.json, LICENSE, shipped)', problems, 'MIT');
	}
	{
		const problems = [];
		const publish = existsSync(join(repo, '.github/workflows/publish.yml')) ? read('.github/workflows/publish.yml') : '';
		if (!publish) problems.push('.github/workflows/publish.yml is missing');
		if (!/^on:\s*\n\s+push:\s*\n\s+tags:/m.test(publish)) problems.push('publish.yml does not run on pushed tags');
		if (!/id-token:\s*write/.test(publish)) problems.push('publish.yml does not grant id-token: write (npm signs the provenance statement with it)');
		if (!/npm publish --provenance\b/.test(publish)) problems.push('publish.yml does not run npm publish --provenance');
		if (!/uses: \.\/\.github\/workflows\/ci\.yml/.test(publish)) problems.push('publish.yml does not run the CI workflow before publishing');
		if (pkg.publishConfig?.provenance !== true) problems.push('publishConfig.provenance is not true');
		if (!/check-release-tag\.mjs/.test(pkg.scripts?.prepublishOnly ?? '')) problems.push('prepublishOnly does not refuse a publish outside the tag workflow');
		row('Provenance: published only by GitHub Actions from a tag, npm publish --provenance', problems, 'publish.yml (tags, id-token: write, CI first), publishConfig.provenance, prepublishOnly');
	}
	{
		// A proxy for "English only": no letters outside A-Z, no frequent words of the languages our
		// API's users write (Portuguese, Spanish).
		const foreignWords = /\b(não|para o|para a|com o|com a|uma|você|usuário|contato|mensagem|el|los|las|usuario|mensaje)\b/i;
		// Quoted on purpose: the API's Portuguese default error text, which the node recognises and
		// translates ("error sending message", nodes/shared/errors.ts).
		const quoted = ['Erro ao enviar mensagem'];
		const problems = [];
		const texts = [{ path: 'README.md', text: readFileSync(join(tarball, 'README.md'), 'utf8') }, ...shippedJs, ...shipped.filter((f) => f.endsWith('.node.json')).map((path) => ({ path, text: readFileSync(join(tarball, path), 'utf8') }))];
		for (const { path, text: raw } of texts) {
			const text = quoted.reduce((t, q) => t.split(q).join(''), raw);
			const letters = [...new Set(text.match(/[^\P{L}A-Za-z]/gu) ?? [])];
			if (letters.length > 0) problems.push(`${path}: letters outside A-Z: ${letters.join(' ')}`);
			const word = foreignWords.exec(text);
			if (word) problems.push(`${path}: "${word[0]}" is not English`);
		}
		row('English only (README, shipped code and codex)', problems, `${texts.length} files`);
	}
	{
		const readme = readFileSync(join(tarball, 'README.md'), 'utf8');
		const problems = [];
		for (const heading of ['Install', 'Credentials', 'Operations', 'The trigger']) {
			if (!new RegExp(`^## ${heading}$`, 'm').test(readme)) problems.push(`README.md has no "## ${heading}" section`);
		}
		const examples = [...readme.matchAll(/\]\((examples\/workflows\/[^)]+\.json)\)/g)].map(([, path]) => path);
		if (examples.length === 0) problems.push('README.md links no example workflow');
		for (const path of examples) if (!existsSync(join(repo, path))) problems.push(`README.md links ${path}, which does not exist`);
		row('README with usage and examples', problems, `${readme.length} characters; sections Install, Credentials, Operations, The trigger; ${examples.length} example links`);
	}

	// ---- what ships -------------------------------------------------------------------------

	{
		const problems = [];
		for (const file of shipped) {
			const allowed = ['README.md', 'LICENSE', 'package.json', 'index.js'].includes(file) || file.startsWith('dist/');
			if (!allowed) problems.push(`ships ${file} (only dist/, index.js, README.md, LICENSE and package.json belong in the package)`);
			if (/\.(map|tsbuildinfo|ts)$|\.(test|spec)\.|__tests__|(^|\/)test\//.test(file)) problems.push(`ships ${file}, which is not for users`);
		}
		for (const file of ['README.md', 'LICENSE', 'package.json', pkg.main]) if (!shipped.includes(file)) problems.push(`does not ship ${file}`);
		row('Tarball ships dist/, index.js, README.md, LICENSE, package.json only', problems, `${shipped.length} files`);
	}
	row(
		`Tarball under ${kib(TARBALL_LIMIT_BYTES)}`,
		packed.size < TARBALL_LIMIT_BYTES ? [] : [`${packed.filename} is ${kib(packed.size)} (${packed.size} bytes), over ${kib(TARBALL_LIMIT_BYTES)}`],
		`${kib(packed.size)} (${packed.size} bytes packed, ${kib(packed.unpackedSize)} unpacked)`,
	);
} finally {
	rmSync(work, { recursive: true, force: true });
}

// ---- the table ------------------------------------------------------------------------------

const table = [['', 'check', 'result'], ...rows.map(({ check, problems, detail }) => [problems.length === 0 ? 'pass' : 'FAIL', check, problems.length === 0 ? detail : `${problems.length} problem${problems.length === 1 ? '' : 's'}`])];
const widths = table[0].map((_, i) => Math.max(...table.map((r) => r[i].length)));
const line = (r) => `| ${r.map((cell, i) => cell.padEnd(widths[i])).join(' | ')} |`;
console.log(line(table[0]));
console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
for (const r of table.slice(1)) console.log(line(r));
const failed = rows.filter((r) => r.problems.length > 0);
for (const { check, problems } of failed) {
	console.log(`\nFAIL: ${check}`);
	for (const problem of problems) console.log(`  - ${problem}`);
}
console.log(`\n${rows.length - failed.length} of ${rows.length} checks passed. The demo video is recorded apart: npm run demo:video.`);
process.exit(failed.length > 0 ? 1 : 0);
