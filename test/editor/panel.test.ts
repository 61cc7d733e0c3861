/**
 * What each operation's panel tells a user before they run anything (issue 36; DESIGN.md, "The
 * editor"), judged with n8n's own editor code from n8n-workflow: NodeHelpers.getNodeParameters (the
 * values the editor holds, defaults filled in), displayParameter (what the panel shows) and
 * getNodeParametersIssues (the canvas warning and the issues under the fields). The expected texts
 * are the spec's figures, written here as literals.
 */
import type { INode, INodeParameters, INodeProperties } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { DEMO } from '../sandbox';
import { makeWorkflow } from '../helpers/n8n-harness';
import { description, findProperty, node, NODE_TYPE } from './helpers';

/** The node as the editor holds it: the parameters with their defaults, at the latest version. */
function editorNode(parameters: INodeParameters, typeVersion = 2): INode {
	const { node: workflowNode } = makeWorkflow(NODE_TYPE, node, {}, { typeVersion });
	const values = NodeHelpers.getNodeParameters(description.properties, parameters, true, false, workflowNode, description);
	return { ...workflowNode, parameters: values as INodeParameters };
}

/** The issues n8n's editor shows for the node (under the fields, and as the canvas warning). */
export function issuesOf(parameters: INodeParameters, typeVersion = 2): Record<string, string[]> {
	const editor = editorNode(parameters, typeVersion);
	return (NodeHelpers.getNodeParametersIssues(description.properties, editor, description)?.parameters ?? {}) as Record<string, string[]>;
}

/** The top-level properties the panel shows, by name. */
function shown(parameters: INodeParameters, typeVersion = 2): INodeProperties[] {
	const editor = editorNode(parameters, typeVersion);
	return description.properties.filter((property) =>
		NodeHelpers.displayParameter(editor.parameters, property, editor, description, editor.parameters),
	);
}

const ALICE = DEMO.contacts.alice.phoneNumber;
const ID = DEMO.tags.vip.id;

describe('what each operation requires is said in its panel', () => {
	test.each([
		['tag', 'removeFromContact'],
		['customField', 'get'],
		['customField', 'upsert'],
		['integration', 'validatePhoneNumber'],
		['automation', 'stopInChat'],
	] as const)('%s → %s: Phone Number says, under the field, that it is required (Stop in Chat: one of three)', (resource, operation) => {
		for (const version of [1, 2]) {
			const phone = shown({ resource, operation }, version).find((p) => p.name === 'phoneNumber');
			expect(phone?.hint).toMatch(/^Required \(in Stop in Chat, one of Chat, Channel Chat ID or Phone Number\)\./);
		}
	});

	test('Remove From Contact: the rule that spans Tag IDs and Tag Names is a notice in the panel, right above them', () => {
		const names = shown({ resource: 'tag', operation: 'removeFromContact' }).map((p) => p.name);
		const at = names.indexOf('removeTagsNotice');
		expect(names.slice(at, at + 3)).toEqual(['removeTagsNotice', 'tagIds', 'tagNames']);
		const notice = findProperty('tag', 'removeFromContact', 'removeTagsNotice');
		expect(notice.type).toBe('notice');
		expect(notice.displayName).toMatch(/Tag IDs, Tag Names or both: at least one tag, at most 50 of each/);
	});
});
