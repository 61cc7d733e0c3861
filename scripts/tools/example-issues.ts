/* eslint-disable -- development tooling, not shipped: n8n's node rules (eslint.config.mjs, n8n-node lint) are for nodes/ and credentials/ */
/**
 * What n8n's editor would object to in an example workflow, for the nodes of this package (the
 * descriptions of n8n's own nodes are not here): run by `npm run lint` (scripts/tools/check-workflows.mjs)
 * and by test/editor/example-issues.test.ts.
 *
 * - a node of ours below the latest typeVersion (an example shows what a node added today gives);
 * - the issues the editor marks on the canvas: n8n-workflow's getNodeParametersIssues over the
 *   parameters as the editor fills them in (getNodeParameters with defaults), e.g. a required
 *   field left empty or a locator value its mode refuses;
 * - a value its parameter type cannot hold. The editor draws what is stored: a multi-value list
 *   holding one expression string is drawn as one row per character (and saved so after a touch),
 *   a number field holding a text shows the text. Expressions are checked only where they cannot
 *   stand (a whole multi-value list); a row of a list may hold one;
 * - a parameter the node does not show for that resource/operation (a stale or misspelt name);
 * - a node stored otherwise than the editor writes it back once it opened the node: its defaults
 *   filled in, then the parameters at their default left out (n8n-workflow's getNodeParameters, as
 *   the editor saves a node; a collection it shows, like Options, is kept as `{}`). An example that
 *   differs shows "unsaved" or "unpublished changes" the moment a user opens it (issue 43, row 10);
 *   the browser suite checks the same, n8n's own nodes included, in both editors.
 */
import { join } from 'node:path';

import { DirectoryLoader } from 'n8n-core';
import type { INode, INodeParameters, INodeProperties, INodePropertyCollection, INodeTypeDescription } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

// With the file extension: beside each .node.ts lies a .node.json (the codex), which Node's
// resolution (ts-node, as `npm run lint` runs this) would pick first.
const { ConversationInbox } = require(join(__dirname, '../../nodes/ConversationInbox/ConversationInbox.node.ts')) as typeof import('../../nodes/ConversationInbox/ConversationInbox.node');
const { ConversationInboxTrigger } = require(join(__dirname, '../../nodes/ConversationInboxTrigger/ConversationInboxTrigger.node.ts')) as typeof import('../../nodes/ConversationInboxTrigger/ConversationInboxTrigger.node');

const PACKAGE = 'n8n-nodes-conversation-inbox';
// As n8n's loader prepares them: a declarative node gets the Request Options setting (every version).
const ACTION = new ConversationInbox();
for (const version of Object.values(ACTION.nodeVersions)) DirectoryLoader.applyDeclarativeNodeOptionParameters(version);
const TRIGGER = new ConversationInboxTrigger().description;

/**
 * Our node types at a typeVersion (the action node has a description per version, n8n's
 * VersionedNodeType); the tool variant is n8n's wrapper of the action node (`usableAsTool`).
 */
const DESCRIPTIONS: Record<string, (typeVersion: number) => INodeTypeDescription | undefined> = {
	[`${PACKAGE}.conversationInbox`]: (typeVersion) => ACTION.nodeVersions[typeVersion]?.description,
	[`${PACKAGE}.conversationInboxTool`]: (typeVersion) => ACTION.nodeVersions[typeVersion]?.description,
	[`${PACKAGE}.conversationInboxTrigger`]: () => TRIGGER,
};

/** The newest version of a node type of ours. */
const latestOf = (type: string): number =>
	type.endsWith('Trigger') ? latestVersion(TRIGGER) : Math.max(...Object.keys(ACTION.nodeVersions).map(Number));

/** Parameters n8n adds to the tool variant (its description for the agent). */
const TOOL_PARAMETERS = new Set(['descriptionType', 'toolDescription']);

export interface ExampleNode {
	name: string;
	type: string;
	typeVersion: number;
	parameters: INodeParameters;
}

export const latestVersion = (description: INodeTypeDescription): number =>
	Array.isArray(description.version) ? Math.max(...description.version) : description.version;

/** JSON with every object's keys in order: equal for equal values, whatever order they were written in. */
function sorted(value: unknown): string {
	return JSON.stringify(value, (_key, entry: unknown) =>
		entry && typeof entry === 'object' && !Array.isArray(entry)
			? Object.fromEntries(Object.entries(entry as Record<string, unknown>).sort(([a], [b]) => a.localeCompare(b)))
			: entry,
	);
}

const isExpression = (value: unknown): value is string => typeof value === 'string' && value.startsWith('=');
const isObject = (value: unknown): value is Record<string, unknown> => !!value && typeof value === 'object' && !Array.isArray(value);
const shown = (value: unknown): string => {
	const text = JSON.stringify(value) ?? String(value);
	return text.length > 60 ? `${text.slice(0, 57)}...` : text;
};

/** Adds to `problems` why `value` cannot stand in a parameter of this type. One value: no list. */
function singleValueProblem(property: INodeProperties, value: unknown, at: string, problems: string[]): void {
	if (isExpression(value)) return;
	const wrong = (what: string): void => {
		problems.push(`${at}: ${what}, got ${shown(value)}`);
	};
	switch (property.type) {
		case 'string':
		case 'color':
		case 'dateTime':
			if (typeof value !== 'string') wrong('a text field holds a text');
			return;
		case 'number':
			if (typeof value !== 'number') wrong('a number field holds a number');
			return;
		case 'boolean':
			if (typeof value !== 'boolean') wrong('a switch holds true or false');
			return;
		case 'options': {
			const values = (property.options ?? []).map((option) => (option as { value?: unknown }).value);
			if (!values.includes(value as never)) wrong(`one of ${values.map((v) => JSON.stringify(v)).join(', ')}`);
			return;
		}
		case 'multiOptions': {
			const values = (property.options ?? []).map((option) => (option as { value?: unknown }).value);
			if (!Array.isArray(value) || value.some((v) => !isExpression(v) && !values.includes(v as never))) {
				wrong(`a list of ${values.map((v) => JSON.stringify(v)).join(', ')}`);
			}
			return;
		}
		case 'resourceLocator': {
			const modes = (property.modes ?? []).map((mode) => mode.name);
			if (!isObject(value) || value.__rl !== true || !modes.includes(String(value.mode))) {
				wrong(`a locator { "__rl": true, "mode": ${modes.map((m) => `"${m}"`).join(' | ')}, "value": … }`);
			}
			return;
		}
		case 'collection':
			if (!isObject(value)) return wrong('a collection holds an object');
			checkEntries(property.options as INodeProperties[], value, at, problems);
			return;
		case 'fixedCollection': {
			if (!isObject(value)) return wrong('a fixed collection holds an object');
			for (const [key, rows] of Object.entries(value)) {
				const option = (property.options as INodePropertyCollection[]).find((o) => o.name === key);
				if (!option) {
					problems.push(`${at}.${key}: not an option of ${property.displayName}`);
					continue;
				}
				const list = property.typeOptions?.multipleValues ? rows : [rows];
				if (!Array.isArray(list)) {
					problems.push(`${at}.${key}: a multi-value group holds a list of rows, got ${shown(rows)}`);
					continue;
				}
				list.forEach((row, index) => {
					const rowAt = property.typeOptions?.multipleValues ? `${at}.${key}[${index}]` : `${at}.${key}`;
					if (!isObject(row)) problems.push(`${rowAt}: a row holds an object, got ${shown(row)}`);
					else checkEntries(option.values, row, rowAt, problems);
				});
			}
			return;
		}
		default:
			// json, notice, hidden, credentials…: anything goes.
			return;
	}
}

/** A parameter's stored value against its property (lists included). */
function valueProblem(property: INodeProperties, value: unknown, at: string, problems: string[]): void {
	const isList = property.typeOptions?.multipleValues === true && property.type !== 'fixedCollection';
	if (!isList) return singleValueProblem(property, value, at, problems);
	if (!Array.isArray(value)) {
		// The garbled case: the editor iterates the stored value, so a text becomes one row per character.
		problems.push(
			`${at}: a multi-value list holds a list (one entry per row), got ${shown(value)}` +
				(isExpression(value) ? ' (the editor draws this expression as one row per character; put it in a row: ["={{ … }}"])' : ''),
		);
		return;
	}
	value.forEach((entry, index) => singleValueProblem(property, entry, `${at}[${index}]`, problems));
}

/** The keys of a collection (or row) against the properties it offers. */
function checkEntries(properties: INodeProperties[], values: Record<string, unknown>, at: string, problems: string[]): void {
	for (const [key, value] of Object.entries(values)) {
		const property = properties.find((p) => p.name === key);
		if (!property) problems.push(`${at}.${key}: not a field of this collection`);
		else valueProblem(property, value, `${at}.${key}`, problems);
	}
}

/** What n8n's editor would object to in one node of ours; [] for a node of another package. */
export function nodeIssues(node: ExampleNode): string[] {
	const describe = DESCRIPTIONS[node.type];
	if (!describe) return [];
	const problems: string[] = [];
	const latest = latestOf(node.type);
	if (node.typeVersion !== latest) {
		problems.push(`typeVersion ${node.typeVersion}: the latest is ${latest} (an example shows what a node added today gives)`);
	}
	const description = describe(node.typeVersion);
	if (!description) return [...problems, `typeVersion ${node.typeVersion}: no such version`];
	const versioned: Pick<INode, 'typeVersion'> = { typeVersion: node.typeVersion };
	const parameters = node.parameters ?? {};
	// The parameters as the editor fills them in on opening (defaults of what is not stored).
	const full = NodeHelpers.getNodeParameters(description.properties, parameters, true, false, versioned, description) ?? {};
	for (const [name, value] of Object.entries(parameters)) {
		if (TOOL_PARAMETERS.has(name) && node.type.endsWith('Tool')) continue;
		// Several properties can share a name (one per operation); the one shown is the one that counts.
		const property = description.properties.find(
			(p) => p.name === name && NodeHelpers.displayParameter(full, p, versioned, description, full),
		);
		if (!property) {
			problems.push(`${name}: no such field on this resource/operation at typeVersion ${node.typeVersion}`);
			continue;
		}
		valueProblem(property, value, name, problems);
	}
	// As the editor writes the node back once opened (parameters the tool variant adds aside).
	const own = Object.fromEntries(Object.entries(parameters).filter(([name]) => !(TOOL_PARAMETERS.has(name) && node.type.endsWith('Tool'))));
	const writtenBack = NodeHelpers.getNodeParameters(description.properties, full, false, false, versioned, description) ?? {};
	// (Only for a node with no other objection: a stale field or a wrong value is written back otherwise too.)
	if (problems.length === 0 && sorted(writtenBack) !== sorted(own)) {
		problems.push(`stored otherwise than the editor writes it back: ${JSON.stringify(own)} → ${JSON.stringify(writtenBack)}`);
	}
	// The issues the editor marks (a warning on the canvas, a red field in the panel).
	const asNode = { ...node, id: node.name, position: [0, 0], parameters: full } as INode;
	const issues = NodeHelpers.getNodeParametersIssues(description.properties, asNode, description);
	for (const [name, messages] of Object.entries(issues?.parameters ?? {})) {
		for (const message of messages) problems.push(`${name}: ${message}`);
	}
	return problems;
}

/** Every objection in a workflow, as `node "<name>": <problem>` lines. */
export function workflowIssues(workflow: { nodes: ExampleNode[] }): string[] {
	return workflow.nodes.flatMap((node) => nodeIssues(node).map((problem) => `node "${node.name}": ${problem}`));
}
