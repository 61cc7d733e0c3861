/* eslint-disable -- development tooling, not shipped: n8n's node rules (eslint.config.mjs, n8n-node lint) are for nodes/ and credentials/ */
/**
 * The examples open clean in n8n's editor (no parameter issue, no value its parameter type cannot
 * hold, our nodes at their latest typeVersion), checked by scripts/tools/example-issues.ts, which
 * `npm run lint` runs too (scripts/tools/check-workflows.mjs). Each objection the check exists for is
 * shown here on an example put back the way it was wrong.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { ExampleNode } from '../../scripts/tools/example-issues';
import { workflowIssues } from '../../scripts/tools/example-issues';

const DIR = join(__dirname, '../../examples/workflows');
const load = (name: string): { nodes: ExampleNode[] } =>
	JSON.parse(readFileSync(join(DIR, `${name}.json`), 'utf8')) as { nodes: ExampleNode[] };
const nodeOf = (workflow: { nodes: ExampleNode[] }, name: string): ExampleNode => {
	const node = workflow.nodes.find((n) => n.name === name);
	if (!node) throw new Error(`no node "${name}"`);
	return node;
};

describe('the example workflows open clean in the editor', () => {
	test.each(readdirSync(DIR).filter((f) => f.endsWith('.json')).map((f) => f.slice(0, -5)))('%s: no objection', (name) => {
		expect(workflowIssues(load(name))).toEqual([]);
	});
});

describe('what the check objects to', () => {
	test('a multi-value list holding one $fromAI expression string (drawn one character per row)', () => {
		const workflow = load('mcp-server-for-your-inbox');
		const node = nodeOf(workflow, 'Remove tags from a contact');
		node.parameters.tagNames = (node.parameters.tagNames as string[])[0];
		expect(workflowIssues(workflow)).toEqual([
			expect.stringMatching(/^node "Remove tags from a contact": tagNames: a multi-value list holds a list .*one row per character/),
		]);
	});

	test('a trigger below its latest typeVersion (4, with Simplify and One Execution per Message)', () => {
		const workflow = load('trigger-to-reply');
		nodeOf(workflow, 'On a received message').typeVersion = 2;
		expect(workflowIssues(workflow)).toEqual([
			'node "On a received message": typeVersion 2: the latest is 4 (an example shows what a node added today gives)',
		]);
	});

	test('a number field holding a text, a switch holding a text, an option that does not exist', () => {
		const workflow = load('mcp-server-for-your-inbox');
		nodeOf(workflow, 'List channel integrations').parameters.limit = '20';
		nodeOf(workflow, 'Create a tag').parameters.resource = 'tags';
		const trigger = load('trigger-to-reply');
		nodeOf(trigger, 'On a received message').parameters.simplify = 'yes';
		expect(workflowIssues(trigger)).toEqual(['node "On a received message": simplify: a switch holds true or false, got "yes"']);
		expect(workflowIssues(workflow)).toEqual([
			'node "List channel integrations": limit: a number field holds a number, got "20"',
			// The rest of that node belongs to no resource now.
			expect.stringMatching(/^node "Create a tag": name: no such field/),
			expect.stringMatching(/^node "Create a tag": additionalFields: no such field/),
			expect.stringMatching(/^node "Create a tag": options: no such field/),
			expect.stringMatching(/^node "Create a tag": resource: one of .*"tag".*, got "tags"$/),
		]);
	});

	test('a field the operation does not have, and a required field left empty (the editor\'s own issue)', () => {
		const workflow = load('stop-automation');
		const node = workflow.nodes.find((n) => n.type.endsWith('.conversationInbox'))!;
		node.parameters.tagName = 'VIP';
		const update = load('trigger-to-reply');
		nodeOf(update, 'Stop the bot in this chat').parameters.operation = 'update';
		delete nodeOf(update, 'Stop the bot in this chat').parameters.chatInternalId;
		expect(workflowIssues(workflow)).toEqual([expect.stringMatching(/tagName: no such field on this resource\/operation at typeVersion 2$/)]);
		expect(workflowIssues(update)).toEqual(expect.arrayContaining([expect.stringMatching(/^node "Stop the bot in this chat": automationTriggerId: Parameter "Automation Trigger ID" is required\.$/)]));
	});

	// Issue 43, row 10: an example that differs from what the editor writes back once it opened the
	// node shows "unsaved" / "unpublished changes" the moment a user opens it.
	test('a node stored otherwise than the editor writes it back: a default left in, a shown collection left out', () => {
		const workflow = load('tag-contacts-export');
		const node = nodeOf(workflow, 'Get contacts of the tag');
		node.parameters = { resource: 'tag', ...node.parameters };
		expect(workflowIssues(workflow)).toEqual([expect.stringMatching(/^node "Get contacts of the tag": stored otherwise than the editor writes it back: \{"resource":"tag",.*\} → \{"operation":"getContacts",/)]);
		const other = load('template-listing');
		delete nodeOf(other, 'Get approved templates').parameters.options;
		expect(workflowIssues(other)).toEqual([expect.stringMatching(/^node "Get approved templates": stored otherwise than the editor writes it back: .*→ .*"options":\{\},"requestOptions":\{\}\}$/)]);
	});
});
