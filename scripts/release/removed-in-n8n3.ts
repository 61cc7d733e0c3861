/**
 * What n8n 3.x removed, as a check of this package and its example workflows (DESIGN.md,
 * "Installation": n8n 3.x and verification). From n8n-docs' "n8n 3.0 breaking changes"
 * (docs/changelog/v30-breaking-changes.md, "Removed nodes and helpers") and the 3.x loader:
 *   - the `$getPairedItem` expression helper;
 *   - the Function, Function Item and Item Lists nodes, the LangChain Code node, the AI Transform
 *     node (migrated to Code on upgrade, no longer added), version 1 of the AI Agent node (1 to 1.9);
 *   - the Execute Workflow node's "Run once for each item" mode (`mode: 'each'`);
 *   - `$evaluateExpression()` in the Code node;
 *   - `defaults.color` in a node description (3.x takes `iconColor`);
 *   - an `n8nNodesApiVersion` other than 1, the one n8n 2.x and 3.x both load (3.x checks it at
 *     install and at start).
 * Used by test/package/n8n3.test.ts (sources and examples) and `npm run verify` (the built package).
 */

/** A text file to search (shipped code or data), by its path in the repository. */
export interface TextFile {
	path: string;
	text: string;
}

/** A workflow as saved (examples/workflows/*.json). */
export interface SavedWorkflow {
	name: string;
	nodes: Array<{ name: string; type: string; typeVersion?: number; parameters?: Record<string, unknown> }>;
}

/** What the check reads of a node description: its name and defaults. */
export interface DescribedNode {
	name: string;
	defaults?: Record<string, unknown>;
}

export interface Subject {
	/** shipped files (or the sources they are built from) */
	files: TextFile[];
	descriptions: DescribedNode[];
	/** package.json's `n8n` section */
	n8n: { n8nNodesApiVersion?: unknown };
	workflows: SavedWorkflow[];
}

/** The one n8nNodesApiVersion both n8n 2.x and 3.x load. */
export const N8N_NODES_API_VERSION = 1;

/** Node types n8n 3.x no longer has (or no longer lets one add), with what replaces them. */
export const REMOVED_NODE_TYPES: Record<string, string> = {
	'n8n-nodes-base.function': 'the Function node (use the Code node, Run Once for All Items)',
	'n8n-nodes-base.functionItem': 'the Function Item node (use the Code node, Run Once for Each Item)',
	'n8n-nodes-base.itemLists': 'the Item Lists node (use Split Out, Aggregate, Sort, Limit, Remove Duplicates or Summarize)',
	'@n8n/n8n-nodes-langchain.code': 'the LangChain Code node',
	'n8n-nodes-base.aiTransform': 'the AI Transform node (use the Code node)',
};

const GET_PAIRED_ITEM = /\$getPairedItem\b/;
const EVALUATE_EXPRESSION = /\$evaluateExpression\s*\(/;

/** Every string inside a value (parameters are nested objects and lists). */
function stringsOf(value: unknown): string[] {
	if (typeof value === 'string') return [value];
	if (Array.isArray(value)) return value.flatMap(stringsOf);
	if (value && typeof value === 'object') return Object.values(value).flatMap(stringsOf);
	return [];
}

/** One finding per use of something n8n 3.x removed; empty when there is none. */
export function removedInN8n3(subject: Subject): string[] {
	const findings: string[] = [];
	for (const file of subject.files) {
		if (GET_PAIRED_ITEM.test(file.text)) findings.push(`${file.path}: uses $getPairedItem, which n8n 3.x removed`);
	}
	for (const description of subject.descriptions) {
		if (description.defaults && 'color' in description.defaults) {
			findings.push(`node ${description.name}: sets defaults.color, which n8n 3.x removed (use iconColor)`);
		}
	}
	if (subject.n8n.n8nNodesApiVersion !== N8N_NODES_API_VERSION) {
		findings.push(
			`package.json: n8n.n8nNodesApiVersion is ${JSON.stringify(subject.n8n.n8nNodesApiVersion)}, not ${N8N_NODES_API_VERSION} (the version n8n 2.x and 3.x both load)`,
		);
	}
	for (const workflow of subject.workflows) {
		for (const node of workflow.nodes) {
			const where = `${workflow.name}, node "${node.name}"`;
			const removed = REMOVED_NODE_TYPES[node.type];
			if (removed) findings.push(`${where}: ${removed} is removed in n8n 3.x`);
			if (node.type === '@n8n/n8n-nodes-langchain.agent' && (node.typeVersion ?? 1) < 2) {
				findings.push(`${where}: version 1 of the AI Agent node is removed in n8n 3.x`);
			}
			if (node.type === 'n8n-nodes-base.executeWorkflow' && node.parameters?.mode === 'each') {
				findings.push(`${where}: Execute Workflow's "Run once for each item" mode is removed in n8n 3.x`);
			}
			const texts = stringsOf(node.parameters ?? {});
			if (texts.some((text) => GET_PAIRED_ITEM.test(text))) findings.push(`${where}: uses $getPairedItem, which n8n 3.x removed`);
			if (node.type === 'n8n-nodes-base.code' && texts.some((text) => EVALUATE_EXPRESSION.test(text))) {
				findings.push(`${where}: calls $evaluateExpression() in the Code node, which n8n 3.x removed`);
			}
		}
	}
	return findings;
}
