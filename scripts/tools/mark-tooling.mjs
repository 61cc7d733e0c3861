// node scripts/tools/mark-tooling.mjs [--write]
// eslint.config.mjs is n8n's default (n8n-node lint demands it, word for word), and it lints every
// *.ts with the rules for shipped code: no process, timers, node:* imports or console. Development
// tooling (tests, the sandbox, scripts) needs them, so a tooling file that breaks those rules starts
// with the header below (docs/development.md, `npm run lint`). This lists the tooling files under
// test/ and scripts/ that the config flags and lack it; --write adds it. Shipped code (nodes/,
// credentials/) is never touched: a finding there is a real one.
import { readFileSync, writeFileSync } from 'node:fs';
import { relative } from 'node:path';

import { ESLint } from 'eslint';

export const HEADER =
	"/* eslint-disable -- development tooling, not shipped: n8n's node rules (eslint.config.mjs, n8n-node lint) are for nodes/ and credentials/ */\n";

const write = process.argv.includes('--write');
const eslint = new ESLint();
const results = await eslint.lintFiles(['test/**/*.ts', 'scripts/**/*.ts']);
const flagged = results
	.filter((result) => result.errorCount > 0)
	.map((result) => relative(process.cwd(), result.filePath))
	.filter((path) => /^(test|scripts)\//.test(path) && !readFileSync(path, 'utf8').startsWith('/* eslint-disable'))
	.sort();
for (const path of flagged) {
	if (write) writeFileSync(path, HEADER + readFileSync(path, 'utf8'));
	console.log(`${write ? 'marked' : 'needs the header'}: ${path}`);
}
console.log(`${flagged.length} tooling file(s) ${write ? 'marked' : 'without the header that n8n-node lint flags'}`);
process.exitCode = !write && flagged.length > 0 ? 1 : 0;
