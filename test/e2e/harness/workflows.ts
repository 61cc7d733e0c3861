/* eslint-disable -- development tooling, not shipped: n8n's node rules (eslint.config.mjs, n8n-node lint) are for nodes/ and credentials/ */
/**
 * Workflows for the harness: the repo's example workflows (examples/workflows/*.json, the same
 * files a user imports) and workflows built in code for the per-resource tests.
 *
 * How a workflow is executed non-interactively, identically on n8n 1.x and 2.x: it starts with a
 * Webhook node (responds when the last node finishes) and is activated/published; the test POSTs
 * to its production URL, then reads the execution with GET /api/v1/executions/:id?includeData=true
 * and asserts what every node output. Example workflows that start with a Manual Trigger (what a
 * user clicks) get that node swapped for such a Webhook node, under the same name, by
 * `manualTriggerToWebhook`; nothing else in them changes.
 */
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { Connections, CredentialRecord, WorkflowDefinition, WorkflowNode } from './n8n-client';
import { PACKAGE_NAME, REPO_ROOT } from './provision';

export const EXAMPLES_DIR = join(REPO_ROOT, 'examples', 'workflows');
export const ACTION_NODE_TYPE = `${PACKAGE_NAME}.conversationInbox`;
export const TRIGGER_NODE_TYPE = `${PACKAGE_NAME}.conversationInboxTrigger`;
/** The action node as an AI tool (n8n derives it from `usableAsTool`), for agents and the MCP Server Trigger. */
export const TOOL_NODE_TYPE = `${PACKAGE_NAME}.conversationInboxTool`;
export const CREDENTIAL_TYPE = 'conversationInboxApi';
const MANUAL_TRIGGER_TYPE = 'n8n-nodes-base.manualTrigger';

/** The example workflow files, by file name without `.json`. */
export function exampleNames(): string[] {
	return readdirSync(EXAMPLES_DIR)
		.filter((f) => f.endsWith('.json'))
		.map((f) => f.slice(0, -'.json'.length))
		.sort();
}

export function loadExample(name: string): WorkflowDefinition {
	const workflow = JSON.parse(readFileSync(join(EXAMPLES_DIR, `${name}.json`), 'utf8')) as WorkflowDefinition;
	if (!workflow.name || !Array.isArray(workflow.nodes) || typeof workflow.connections !== 'object') {
		throw new Error(`examples/workflows/${name}.json is not an n8n workflow (name, nodes, connections)`);
	}
	return workflow;
}

/**
 * What the public API accepts on create, with our nodes pointed at `credential` and fresh webhook
 * ids (n8n's editor does the same on import, so one file can be imported twice).
 */
export function prepareForImport(workflow: WorkflowDefinition, credential: CredentialRecord): WorkflowDefinition {
	const nodes = workflow.nodes.map((node): WorkflowNode => {
		const copy: WorkflowNode = JSON.parse(JSON.stringify(node)) as WorkflowNode;
		copy.id = randomUUID();
		if (copy.webhookId !== undefined) copy.webhookId = randomUUID();
		if (copy.type === ACTION_NODE_TYPE || copy.type === TRIGGER_NODE_TYPE || copy.type === TOOL_NODE_TYPE) {
			copy.credentials = { [CREDENTIAL_TYPE]: { id: credential.id, name: credential.name } };
		}
		return copy;
	});
	return {
		name: workflow.name,
		nodes,
		connections: workflow.connections,
		settings: { executionOrder: 'v1', ...(workflow.settings ?? {}) },
	};
}

/** What a Webhook node answers when the last node finished: all items as JSON, or the first item's file. */
export type WebhookResponseData = 'allEntries' | 'firstEntryJson' | 'firstEntryBinary';

export function webhookNode(name: string, path: string, position: [number, number] = [0, 0], responseData: WebhookResponseData = 'allEntries'): WorkflowNode {
	return {
		id: randomUUID(),
		name,
		type: 'n8n-nodes-base.webhook',
		typeVersion: 2,
		position,
		webhookId: randomUUID(),
		parameters: { httpMethod: 'POST', path, responseMode: 'lastNode', responseData, options: {} },
	};
}

/** Swaps the Manual Trigger for a Webhook node of the same name (see the file comment). */
export function manualTriggerToWebhook(workflow: WorkflowDefinition, path: string, responseData: WebhookResponseData = 'allEntries'): WorkflowDefinition {
	const manual = workflow.nodes.filter((n) => n.type === MANUAL_TRIGGER_TYPE);
	if (manual.length !== 1) throw new Error(`workflow "${workflow.name}" has ${manual.length} Manual Trigger nodes, expected 1`);
	return {
		...workflow,
		nodes: workflow.nodes.map((n) => (n === manual[0] ? webhookNode(n.name, path, n.position, responseData) : n)),
	};
}

export interface Step {
	name: string;
	/** node parameters (resource, operation, ...) */
	parameters: Record<string, unknown>;
	/** node type; default: our action node */
	type?: string;
	typeVersion?: number;
	/** run once with the first input item only (default true: every step runs once) */
	executeOnce?: boolean;
	continueOnFail?: boolean;
}

/**
 * Webhook → step 1 → step 2 → ...: a chain, so the order is fixed; every step runs once (the
 * previous step's first item) unless it says otherwise, and always passes an item on.
 */
export function chainWorkflow(name: string, path: string, steps: Step[], credential: CredentialRecord): WorkflowDefinition {
	const nodes: WorkflowNode[] = [webhookNode('Webhook', path)];
	const connections: Connections = {};
	let previous = 'Webhook';
	steps.forEach((step, i) => {
		const type = step.type ?? ACTION_NODE_TYPE;
		const node: WorkflowNode = {
			id: randomUUID(),
			name: step.name,
			type,
			// Our action node: the version the editor adds to a new node.
			typeVersion: step.typeVersion ?? 2,
			position: [220 * (i + 1), 0],
			parameters: step.parameters,
			executeOnce: step.executeOnce ?? true,
			alwaysOutputData: true,
		};
		if (step.continueOnFail) node.onError = 'continueRegularOutput';
		if (type === ACTION_NODE_TYPE) node.credentials = { [CREDENTIAL_TYPE]: { id: credential.id, name: credential.name } };
		nodes.push(node);
		connections[previous] = { main: [[{ node: step.name, type: 'main', index: 0 }]] };
		previous = step.name;
	});
	return { name, nodes, connections, settings: { executionOrder: 'v1' } };
}
