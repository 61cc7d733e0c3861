// Lints the shipped sources (nodes/, credentials/) and package.json with @n8n/node-cli's ESLint
// config, the one `n8n-node lint` runs for a package with "n8n": { "strict": true }: the
// n8n-cloud rule set of @n8n/eslint-plugin-community-nodes (`recommended`: no restricted
// globals such as process or setTimeout, imports only from the allowed list, and the
// verification rules), eslint-plugin-n8n-nodes-base's community, credentials and nodes sets with
// the same exceptions as n8n's scanner, and the JavaScript, typescript-eslint and import
// recommendations. Two changes, both of scope, none of rules:
// - node-cli applies its TypeScript rules to every **/*.ts; here they cover what ships. The tests,
//   the sandbox and the scripts are tooling (they use process, timers and node:*), not published.
// - eslint-plugin-n8n-nodes-base is the project's pinned 2.0.0 (the same 132 rules and sets as
//   the 1.16.7 node-cli bundles; `npm run scan` runs n8n's scanner with 1.16.7 as well).
// `npm run lint` then lints .github/workflows/ with actionlint (scripts/check-workflows.mjs).
import { config as nodeCliConfig } from '@n8n/node-cli/eslint';
import n8nNodesBase from 'eslint-plugin-n8n-nodes-base';

const shipped = ['nodes/**/*.ts', 'credentials/**/*.ts'];

const scoped = nodeCliConfig.map((entry) => {
	const scopedEntry = entry.files?.length === 1 && entry.files[0] === '**/*.ts' ? { ...entry, files: shipped } : entry;
	return scopedEntry.plugins?.['n8n-nodes-base']
		? { ...scopedEntry, plugins: { ...scopedEntry.plugins, 'n8n-nodes-base': n8nNodesBase } }
		: scopedEntry;
});

export default [
	{
		ignores: ['dist/**', 'node_modules/**', 'coverage/**', 'test-output/**', '**/*.js', '**/*.mjs', '**/*.cjs'],
	},
	...scoped,
];
