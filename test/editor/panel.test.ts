/**
 * What each operation's panel tells a user before they run anything (issue 36; DESIGN.md, "The
 * editor"), judged with n8n's own editor code from n8n-workflow: NodeHelpers.getNodeParameters (the
 * values the editor holds, defaults filled in), displayParameter (what the panel shows) and the
 * expression engine that evaluates a node hint's displayCondition. The expected texts are the
 * spec's figures, written here as literals.
 */
import type { INode, INodeExecutionData, INodeParameters, INodeProperties, NodeHint } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { makeWorkflow } from '../helpers/n8n-harness';
import { loadedNode } from '../helpers/node-runner';
import { ConversationInboxTrigger } from '../../nodes/ConversationInboxTrigger/ConversationInboxTrigger.node';
import { actionDescription } from '../helpers/action-node';
import { description, findProperty, NODE_TYPE, versioned } from './helpers';

/** The node as the editor holds it: the parameters with their defaults, at a version (its own description). */
function editorNode(parameters: INodeParameters, typeVersion = 2): INode {
	const { node: workflowNode } = makeWorkflow(NODE_TYPE, versioned, {}, { typeVersion });
	const atVersion = actionDescription(typeVersion);
	const values = NodeHelpers.getNodeParameters(atVersion.properties, parameters, true, false, workflowNode, atVersion);
	return { ...workflowNode, parameters: values as INodeParameters };
}

/** The top-level properties the panel shows, by name. */
function shown(parameters: INodeParameters, typeVersion = 2): INodeProperties[] {
	const editor = editorNode(parameters, typeVersion);
	const atVersion = actionDescription(typeVersion);
	return atVersion.properties.filter((property) =>
		NodeHelpers.displayParameter(editor.parameters, property, editor, atVersion, editor.parameters),
	);
}

describe('what each operation requires is said in its panel, and only that (issue 43, rows 2 and 3)', () => {
	test.each([
		['tag', 'removeFromContact'],
		['customField', 'get'],
		['customField', 'upsert'],
		['integration', 'validatePhoneNumber'],
	] as const)('%s → %s: Phone Number is marked required (n8n\'s mark), its texts name no other operation', (resource, operation) => {
		const phone = shown({ resource, operation }).find((p) => p.name === 'phoneNumber');
		expect(phone?.required).toBe(true);
		expect(`${phone?.hint} ${phone?.description}`).not.toMatch(/Stop in Chat|Remove From|Validate|Custom Field|Required \(/);
	});

	test('Message → Get Many: Chat is marked required, its texts name no other operation', () => {
		const chat = shown({ resource: 'message', operation: 'getAll' }).find((p) => p.name === 'chatInternalId');
		expect(chat?.required).toBe(true);
		expect(`${chat?.hint ?? ''} ${chat?.description}`).not.toMatch(/Stop in Chat|Required \(/);
	});

	test('Stop in Chat: one Chat field, marked required; no field beside it says "required" or "one is enough"', () => {
		const panel = shown({ resource: 'automation', operation: 'stopInChat' });
		expect(panel.filter((p) => p.required).map((p) => p.name)).toEqual(['chat']);
		expect(panel.map((p) => p.name)).not.toContain('stopInChatNotice');
		expect(JSON.stringify(panel)).not.toMatch(/Required \(|One is enough/);
	});

	test('version 1 (saved 0.1.0 workflows): the shared Phone Number and Chat name no operation either', () => {
		for (const [resource, operation] of [['tag', 'removeFromContact'], ['customField', 'get'], ['message', 'getAll'], ['automation', 'stopInChat']] as const) {
			const texts = shown({ resource, operation }, 1)
				.filter((p) => ['phoneNumber', 'chatInternalId'].includes(p.name))
				.map((p) => `${p.hint ?? ''} ${p.description ?? ''}`);
			expect(texts.length).toBeGreaterThan(0);
			for (const text of texts) expect(text).not.toMatch(/Stop in Chat|Remove From|Validate|Required \(/);
		}
	});

	test('Remove From Contact: the rule that spans Tag IDs and Tag Names is a notice in the panel, right above them; their rows carry no hint', () => {
		const names = shown({ resource: 'tag', operation: 'removeFromContact' }).map((p) => p.name);
		const at = names.indexOf('removeTagsNotice');
		expect(names.slice(at - 1, at + 3)).toEqual(['phoneNumber', 'removeTagsNotice', 'tagIds', 'tagNames']);
		const notice = findProperty('tag', 'removeFromContact', 'removeTagsNotice');
		expect(notice.type).toBe('notice');
		expect(notice.displayName).toBe(
			'Phone Number may also be the contact\'s LID (ending in @lid). Give the tags to remove as Tag IDs, Tag Names or both: at least one tag, at most 50 of each. The API cannot list tags: copy the ID from the tag in the Conversation Inbox platform, or take "id" from the output of Tag → Create.',
		);
	});
});

describe("a fresh node's issues are the fields its operation marks required, nothing else", () => {
	/** The issues n8n's editor finds in a node with these parameters (the canvas warning), by parameter. */
	const parameterIssues = (parameters: INodeParameters) =>
		NodeHelpers.getNodeParametersIssues(description.properties, editorNode(parameters), description)?.parameters ?? {};

	/**
	 * As n8n's editor computes the canvas warning (NodeHelpers.getNodeParametersIssues over the values
	 * it holds). The required fields as the spec has them, written here; the browser suite checks the
	 * same table in both editors (test/e2e/suites/browser.ts OPERATION_PANELS).
	 */
	test.each([
		['tag', 'create', ['name']],
		['tag', 'getContacts', ['tag']],
		['tag', 'removeFromContact', ['phoneNumber']],
		['automation', 'update', ['automationTriggerId']],
		['automation', 'delete', ['automationTriggerId']],
		['automation', 'stopInChat', ['chat']],
		['botIntegration', 'create', ['name', 'url']],
		['integration', 'getAll', []],
		['integration', 'disconnect', ['integrationId']],
		['integration', 'delete', ['integrationId']],
		['integration', 'validatePhoneNumber', ['integrationId', 'phoneNumber']],
		['webhook', 'create', ['integrationId', 'url']],
		['template', 'getAll', ['integrationId']],
		['group', 'getInviteUrl', ['integrationId', 'groupJid']],
		['customField', 'upsert', ['phoneNumber']],
		['customField', 'get', ['phoneNumber']],
		['chat', 'getAll', []],
		['message', 'getAll', ['chatInternalId']],
		['user', 'getAll', []],
	] as const)('%s → %s', (resource, operation, required) => {
		const issues = parameterIssues({ resource, operation });
		expect(Object.keys(issues).sort()).toEqual([...required].sort());
		// Each one the "required" issue alone: no format check of an empty value beside it.
		for (const name of required) expect(issues[name]).toEqual([expect.stringMatching(/ is required\.$/)]);
	});

	test('a "By ID" value is checked as the user types: an ID passes, a name does not, empty is left to "required"', () => {
		const issuesOf = (value: string) => parameterIssues({ resource: 'tag', operation: 'getContacts', tag: { __rl: true, mode: 'id', value } }).tag ?? [];
		expect(issuesOf('clx2v8k1h0000abcd1234efgh')).toEqual([]);
		// The mode that takes a name is named (issue 43, row 12).
		const notAnId = 'Not a tag ID ("c" and 24 lowercase letters or digits): for the tag\'s name, switch the mode to Name';
		expect(issuesOf('VIP')).toEqual([notAnId]);
		expect(issuesOf('clx2v8k1h0000abcd1234efgh ')).toEqual([notAnId]);
		expect(issuesOf('')).toEqual(['Parameter "Tag" is required.']);
	});
});

describe('each list says how it is read, in its own panel', () => {
	const LISTS = [
		// No option named: Concurrent Page Requests shows only with Return All or a Limit over a page (issue 43, row 8).
		['tag', 'getContacts', 'contactsListNotice', 'Contacts come in pages of up to 100, until the total the API gives. One item per contact.'],
		['chat', 'getAll', 'chatsListNotice', 'Chats come in pages of up to 1000, until a shorter or empty page. One item per chat.'],
		['message', 'getAll', 'messagesListNotice', 'Messages come in pages of up to 1000, until a shorter or empty page. One item per message.'],
		['template', 'getAll', 'templatesListNotice', 'Templates come in pages of up to 250, one after the other (each page names the next). One item per template.'],
		['integration', 'getAll', 'integrationsListNotice', 'The API returns all integrations in one answer; Limit keeps the first ones. One item per integration.'],
		['user', 'getAll', 'usersListNotice', 'The API returns all users in one answer; Limit keeps the first ones. One item per user.'],
	] as const;

	test.each(LISTS)('%s → %s: its notice, right above Return All, speaks of this list only', (resource, operation, name, text) => {
		for (const version of [1, 2]) {
			const panel = shown({ resource, operation }, version);
			const names = panel.map((p) => p.name);
			const at = names.indexOf(name);
			expect(names.slice(at, at + 3)).toEqual([name, 'returnAll', 'limit']);
			const notices = panel.filter((p) => p.type === 'notice');
			expect(notices.map((p) => p.displayName)).toEqual([text]);
			// Return All and Limit are shared by every list: their own texts name no list.
			const texts = panel.filter((p) => ['returnAll', 'limit'].includes(p.name)).map((p) => `${p.description ?? ''} ${p.hint ?? ''}`);
			for (const other of ['contacts', 'chats', 'messages', 'templates', 'integrations', 'users']) {
				for (const own of texts) expect(own.toLowerCase()).not.toContain(other);
			}
		}
	});
});

describe('advice for large runs: an n8n node hint after such a run, not a notice above every panel', () => {
	/**
	 * The hints the editor shows in the output pane after a run, as n8n's editor computes them
	 * (editor-ui useNodeHelpers.getNodeHints, then RunData's shouldHintBeDisplayed): each hint's
	 * displayCondition evaluated over the run's input items.
	 */
	function hintsAfterRun(items: number, parameters: INodeParameters = { resource: 'tag', operation: 'create', name: 'VIP' }): NodeHint[] {
		// As n8n loads the node: with the Request Options its loader adds (Batching among them).
		const { workflow, node: workflowNode } = makeWorkflow(NODE_TYPE, loadedNode(), parameters);
		const input: INodeExecutionData[] = Array.from({ length: items }, (_, index) => ({ json: { index } }));
		return (description.hints ?? []).filter((hint) => {
			expect(hint.whenToDisplay).toBe('afterExecution');
			expect(hint.location).toBe('outputPane');
			const display = workflow.expression.getParameterValue(hint.displayCondition as string, null, 0, 0, workflowNode.name, input, 'manual', {});
			expect(typeof display).toBe('boolean');
			return display === true;
		});
	}

	test('no operation\'s panel carries the Batching notice (one item or thousands)', () => {
		const notices = description.properties.filter((p) => p.type === 'notice').map((p) => p.displayName);
		expect(notices.filter((text) => /Batching/.test(text))).toEqual([]);
		expect(description.properties.map((p) => p.name)).not.toContain('largeInputNotice');
	});

	test('from 1 000 input items on, the run\'s size (by range), what it cost and the setting; none below, none with Batching set', () => {
		expect(hintsAfterRun(1)).toEqual([]);
		expect(hintsAfterRun(999)).toEqual([]);
		const messages = (items: number, parameters?: INodeParameters) => hintsAfterRun(items, parameters).map((hint) => hint.message);
		expect(messages(1000)).toEqual([expect.stringMatching(/^This run had 1 000-2 999 input items\. .*about 1\.2-9 s at 1\.2-3 ms per item\. .*Batching to 2 items per batch, interval 5 ms/)]);
		expect(messages(2999)).toEqual([expect.stringMatching(/^This run had 1 000-2 999 input items\./)]);
		expect(messages(3000)).toEqual([expect.stringMatching(/^This run had 3 000-9 999 input items\. .*about 3\.6-30 s/)]);
		expect(messages(10000)).toEqual([expect.stringMatching(/^This run had 10 000 or more input items\. .*about 12 s or more/)]);
		const batching = { resource: 'tag', operation: 'create', name: 'VIP', requestOptions: { batching: { batch: { batchSize: 2, batchInterval: 5 } } } };
		expect(messages(5000, batching)).toEqual([]);
		// Batching without an interval does not pause n8n's loop (RoutingNode sleeps only for an interval).
		expect(messages(5000, { ...batching, requestOptions: { batching: { batch: { batchSize: 2, batchInterval: 0 } } } })).toHaveLength(1);
	});
});

describe('the trigger\'s notice: short, in the words of n8n\'s button (issue 43, row 13)', () => {
	test('what stays registered, what Execute step adds, how to test without it: three lines, not ten', () => {
		const notice = new ConversationInboxTrigger().description.properties.find((p) => p.name === 'apiCannotDeleteNotice');
		expect(notice?.type).toBe('notice');
		expect(notice?.displayName).toBe(
			"The API cannot delete webhooks: each registration stays on the platform, even after deactivation (activating again reuses it). Execute step registers n8n's test URL once per node while n8n runs (again after a restart); to test without that, activate the workflow and send a real event.",
		);
		// "Execute step" is the trigger panel's button in n8n 2.41.1 and 1.123.81 alike (the browser suite reads it).
		expect(notice?.displayName).not.toMatch(/Listen for test event/);
	});
});
