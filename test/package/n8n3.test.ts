/* eslint-disable -- development tooling, not shipped: n8n's node rules (eslint.config.mjs, n8n-node lint) are for nodes/ and credentials/ */
/**
 * n8n 3.x loads the package and runs its examples: nothing they use is among what 3.x removed
 * (scripts/release/removed-in-n8n3.ts lists it, from n8n-docs' "n8n 3.0 breaking changes"). The
 * sources of the shipped code (nodes/, credentials/, index.js), both node descriptions, package.json's
 * n8n section and every example workflow. `npm run verify` runs the same check on the built tarball.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

import { ConversationInbox } from '../../nodes/ConversationInbox/ConversationInbox.node';
import { ConversationInboxTrigger } from '../../nodes/ConversationInboxTrigger/ConversationInboxTrigger.node';
import { removedInN8n3, type SavedWorkflow, type TextFile } from '../../scripts/release/removed-in-n8n3';

const REPO_ROOT = resolve(__dirname, '..', '..');
const EXAMPLES = join(REPO_ROOT, 'examples', 'workflows');

function filesUnder(dir: string): TextFile[] {
	return readdirSync(dir, { recursive: true, withFileTypes: true })
		.filter((entry) => entry.isFile() && /\.(ts|json)$/.test(entry.name))
		.map((entry) => join(entry.parentPath, entry.name))
		.map((path) => ({ path: relative(REPO_ROOT, path), text: readFileSync(path, 'utf8') }));
}

test('the package and its examples use nothing n8n 3.x removed', () => {
	const workflows = readdirSync(EXAMPLES)
		.filter((name) => name.endsWith('.json'))
		.map((name) => ({ ...(JSON.parse(readFileSync(join(EXAMPLES, name), 'utf8')) as SavedWorkflow), name: `examples/workflows/${name}` }));
	const files = [
		...filesUnder(join(REPO_ROOT, 'nodes')),
		...filesUnder(join(REPO_ROOT, 'credentials')),
		{ path: 'index.js', text: readFileSync(join(REPO_ROOT, 'index.js'), 'utf8') },
	];
	const packageJson = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { n8n: { n8nNodesApiVersion?: unknown } };

	// A check that read nothing would pass: the files, both nodes and all five examples are there.
	expect(files.map((file) => file.path)).toEqual(expect.arrayContaining(['nodes/ConversationInbox/ConversationInbox.node.ts', 'credentials/ConversationInboxApi.credentials.ts']));
	expect(workflows).toHaveLength(5);
	expect(
		removedInN8n3({
			files,
			descriptions: [new ConversationInbox().description, new ConversationInboxTrigger().description],
			n8n: packageJson.n8n,
			workflows,
		}),
	).toEqual([]);
});

test('the check finds each thing n8n 3.x removed', () => {
	const node = (type: string, parameters: Record<string, unknown> = {}, typeVersion = 1) => ({ name: type.split('.').pop() as string, type, typeVersion, parameters });
	const findings = removedInN8n3({
		files: [{ path: 'nodes/x.ts', text: "const v = '={{ $getPairedItem(\"A\", \"\", 0) }}';" }],
		descriptions: [{ name: 'colored', defaults: { name: 'Colored', color: '#ff0000' } }],
		n8n: { n8nNodesApiVersion: 2 },
		workflows: [
			{
				name: 'old.json',
				nodes: [
					node('n8n-nodes-base.function'),
					node('n8n-nodes-base.functionItem'),
					node('n8n-nodes-base.itemLists'),
					node('@n8n/n8n-nodes-langchain.code'),
					node('n8n-nodes-base.aiTransform'),
					node('@n8n/n8n-nodes-langchain.agent', {}, 1.9),
					node('n8n-nodes-base.executeWorkflow', { mode: 'each' }),
					node('n8n-nodes-base.set', { assignments: { assignments: [{ value: '={{ $getPairedItem("A", "", 0).json.id }}' }] } }),
					node('n8n-nodes-base.code', { jsCode: "return [{ json: { a: $evaluateExpression('{{ 1 + 1 }}') } }];" }),
				],
			},
			{
				name: 'current.json',
				nodes: [
					node('@n8n/n8n-nodes-langchain.agent', {}, 2),
					node('n8n-nodes-base.executeWorkflow', { mode: 'once' }),
					node('n8n-nodes-base.code', { jsCode: 'return $input.all();' }),
				],
			},
		],
	});
	expect(findings).toEqual([
		'nodes/x.ts: uses $getPairedItem, which n8n 3.x removed',
		'node colored: sets defaults.color, which n8n 3.x removed (use iconColor)',
		'package.json: n8n.n8nNodesApiVersion is 2, not 1 (the version n8n 2.x and 3.x both load)',
		'old.json, node "function": the Function node (use the Code node, Run Once for All Items) is removed in n8n 3.x',
		'old.json, node "functionItem": the Function Item node (use the Code node, Run Once for Each Item) is removed in n8n 3.x',
		'old.json, node "itemLists": the Item Lists node (use Split Out, Aggregate, Sort, Limit, Remove Duplicates or Summarize) is removed in n8n 3.x',
		'old.json, node "code": the LangChain Code node is removed in n8n 3.x',
		'old.json, node "aiTransform": the AI Transform node (use the Code node) is removed in n8n 3.x',
		'old.json, node "agent": version 1 of the AI Agent node is removed in n8n 3.x',
		'old.json, node "executeWorkflow": Execute Workflow\'s "Run once for each item" mode is removed in n8n 3.x',
		'old.json, node "set": uses $getPairedItem, which n8n 3.x removed',
		'old.json, node "code": calls $evaluateExpression() in the Code node, which n8n 3.x removed',
	]);
});
