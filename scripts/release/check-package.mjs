// Checks that the package's metadata tells the truth (part of `npm run scan`; needs a fresh build):
// - one repository address: package.json's repository.url names it; homepage, bugs, author, the
//   CHANGELOG.md links and every documentation URL in the built package (each node's codex, from
//   its class description and its .node.json, and each credential's documentationUrl) use it, each
//   node has a primary documentation link, and each link's #anchor is a heading of README.md;
// - engines.node names exactly the Node lines CI tests on (.github/workflows/ci.yml's matrix);
// - LICENSE is the MIT licence that package.json declares;
// - `npm pack` ships only dist/ (no tests, maps or build info), index.js (the `main`), README.md,
//   LICENSE, package.json.
// Exits non-zero and lists every problem.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';

const repo = resolve(import.meta.dirname, '..', '..');
const require = createRequire(import.meta.url);
const read = (file) => readFileSync(join(repo, file), 'utf8');
const pkg = JSON.parse(read('package.json'));
const problems = [];
const problem = (message) => problems.push(message);

// The address, as GitHub shows it: git+https://github.com/o/r.git → https://github.com/o/r.
const match = /^git\+(https:\/\/github\.com\/[^/]+\/[^/]+)\.git$/.exec(pkg.repository?.url ?? '');
if (!match) throw new Error(`package.json repository.url must be git+https://github.com/<owner>/<name>.git, got ${pkg.repository?.url}`);
const address = match[1];

const expectEqual = (where, actual, expected) => {
	if (actual !== expected) problem(`${where} is ${JSON.stringify(actual)}, expected ${JSON.stringify(expected)}`);
};
expectEqual('package.json homepage', pkg.homepage, `${address}#readme`);
expectEqual('package.json bugs.url', pkg.bugs?.url, `${address}/issues`);
expectEqual('package.json author.url', pkg.author?.url, address);
for (const [, url] of read('CHANGELOG.md').matchAll(/^\[[^\]]+\]: (\S+)$/gm)) {
	if (!url.startsWith(`${address}/`)) problem(`CHANGELOG.md links ${url}, not under ${address}`);
}

// GitHub's anchors for README.md's headings.
const anchors = new Set(
	[...read('README.md').matchAll(/^#{1,6} (.+)$/gm)].map(([, title]) =>
		title.trim().toLowerCase().replace(/[^\p{L}\p{N} _-]/gu, '').replace(/ /g, '-'),
	),
);
const docsUrls = [];
function checkDocsUrl(where, url) {
	docsUrls.push(url);
	if (typeof url !== 'string' || !url.startsWith(`${address}#`)) {
		problem(`${where}: ${url} is not a README anchor of ${address}`);
	} else if (!anchors.has(url.slice(address.length + 1))) {
		problem(`${where}: ${url} points at no heading of README.md`);
	}
}
function checkCodex(where, codex) {
	const resources = codex?.resources ?? {};
	for (const [kind, links] of Object.entries(resources)) {
		for (const link of links ?? []) checkDocsUrl(`${where} codex ${kind}`, link.url);
	}
	return (resources.primaryDocumentation ?? []).length;
}

// The built nodes and credentials, as n8n loads them (n8n.nodes / n8n.credentials).
for (const file of pkg.n8n.nodes) {
	const path = join(repo, file);
	if (!existsSync(path)) throw new Error(`${file} is missing: run npm run build first`);
	const exported = Object.values(require(path));
	if (exported.length !== 1) throw new Error(`${file} should export one node class, exports ${exported.length}`);
	const node = new exported[0]();
	const descriptions = node.nodeVersions ? Object.values(node.nodeVersions).map((v) => v.description) : [node.description];
	let primary = 0;
	for (const description of descriptions) primary += checkCodex(`${file} (class description)`, description.codex);
	const codexFile = file.replace(/\.js$/, '.json');
	if (existsSync(join(repo, codexFile))) primary += checkCodex(codexFile, JSON.parse(read(codexFile)));
	if (primary === 0) problem(`${file}: no primaryDocumentation link in its class codex or ${codexFile}`);
}
for (const file of pkg.n8n.credentials) {
	const path = join(repo, file);
	if (!existsSync(path)) throw new Error(`${file} is missing: run npm run build first`);
	for (const Credential of Object.values(require(path))) {
		checkDocsUrl(`${file} documentationUrl`, new Credential().documentationUrl);
	}
}

// engines.node: the majors named there, and the Node matrix of ci.yml's checks job.
const engineMajors = [...(pkg.engines?.node ?? '').matchAll(/\^(\d+)\./g)].map(([, major]) => Number(major)).sort();
const matrix = /^\s+node: \[([\d, ]+)\]\s*$/m.exec(read('.github/workflows/ci.yml'));
const testedMajors = matrix ? matrix[1].split(',').map(Number).sort() : [];
if (engineMajors.length === 0 || engineMajors.join() !== testedMajors.join()) {
	problem(`package.json engines.node "${pkg.engines?.node}" names Node ${engineMajors.join(', ') || 'nothing'}; CI tests Node ${testedMajors.join(', ') || 'nothing'} (.github/workflows/ci.yml, "node: [...]")`);
}

// The licence.
expectEqual('package.json license', pkg.license, 'MIT');
if (!existsSync(join(repo, 'LICENSE')) || !/^MIT License\n/.test(read('LICENSE'))) problem('LICENSE is missing or is not the MIT License text');

// What npm would publish.
const [packed] = JSON.parse(execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: repo, encoding: 'utf8' }));
const files = packed.files.map((f) => f.path).sort();
for (const file of files) {
	const allowed = ['README.md', 'LICENSE', 'package.json', 'index.js'].includes(file) || file.startsWith('dist/');
	if (!allowed) problem(`npm pack ships ${file} (only dist/, index.js, README.md, LICENSE and package.json belong in the package)`);
	if (/\.(map|tsbuildinfo|ts)$|\.(test|spec)\.|__tests__|(^|\/)test\//.test(file) && !file.endsWith('.d.ts')) {
		problem(`npm pack ships ${file}, which is not for users`);
	}
}
for (const file of ['README.md', 'LICENSE', 'package.json', pkg.main, ...pkg.n8n.nodes, ...pkg.n8n.credentials]) {
	if (!files.includes(file)) problem(`npm pack does not ship ${file}`);
}

for (const message of problems) console.log(`check-package: ${message}`);
console.log(
	`check-package: repository ${address}; ${docsUrls.length} documentation URLs; engines ${pkg.engines?.node}; ` +
		`${files.length} files packed; ${problems.length} problems`,
);
process.exit(problems.length > 0 ? 1 : 0);
