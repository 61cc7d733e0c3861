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
import { description, findProperty, node, NODE_TYPE } from './helpers';

/** The node as the editor holds it: the parameters with their defaults, at the latest version. */
function editorNode(parameters: INodeParameters, typeVersion = 2): INode {
	const { node: workflowNode } = makeWorkflow(NODE_TYPE, node, {}, { typeVersion });
	const values = NodeHelpers.getNodeParameters(description.properties, parameters, true, false, workflowNode, description);
	return { ...workflowNode, parameters: values as INodeParameters };
}

/** The top-level properties the panel shows, by name. */
function shown(parameters: INodeParameters, typeVersion = 2): INodeProperties[] {
	const editor = editorNode(parameters, typeVersion);
	return description.properties.filter((property) =>
		NodeHelpers.displayParameter(editor.parameters, property, editor, description, editor.parameters),
	);
}

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

	test.each([
		['message', 'getAll'],
		['automation', 'stopInChat'],
	] as const)('%s → %s: Chat says, under the field, that it is required (Stop in Chat: one of three)', (resource, operation) => {
		for (const version of [1, 2]) {
			const chat = shown({ resource, operation }, version).find((p) => p.name === 'chatInternalId');
			expect(chat?.hint).toBe('Required (in Stop in Chat, one of Chat, Channel Chat ID or Phone Number).');
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
		['tag', 'removeFromContact', []],
		['automation', 'update', ['automationTriggerId']],
		['automation', 'delete', ['automationTriggerId']],
		['automation', 'stopInChat', []],
		['botIntegration', 'create', ['name', 'url']],
		['integration', 'getAll', []],
		['integration', 'disconnect', ['integrationId']],
		['integration', 'delete', ['integrationId']],
		['integration', 'validatePhoneNumber', ['integrationId']],
		['webhook', 'create', ['integrationId', 'url']],
		['template', 'getAll', ['integrationId']],
		['group', 'getInviteUrl', ['integrationId', 'groupJid']],
		['customField', 'upsert', []],
		['customField', 'get', []],
		['chat', 'getAll', []],
		['message', 'getAll', []],
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
		expect(issuesOf('VIP')).toEqual(['Not a tag ID: "c" followed by 24 lowercase letters or digits']);
		expect(issuesOf('clx2v8k1h0000abcd1234efgh ')).toEqual(['Not a tag ID: "c" followed by 24 lowercase letters or digits']);
		expect(issuesOf('')).toEqual(['Parameter "Tag" is required.']);
	});
});

describe('each list says how it is read, in its own panel', () => {
	const LISTS = [
		['tag', 'getContacts', 'contactsListNotice', 'Contacts come in pages of up to 100, several at a time (Options → Concurrent Page Requests), until the total the API gives. One item per contact.'],
		['chat', 'getAll', 'chatsListNotice', 'Chats come in pages of up to 1000, several at a time (Options → Concurrent Page Requests), until a shorter or empty page. One item per chat.'],
		['message', 'getAll', 'messagesListNotice', 'Messages come in pages of up to 1000, several at a time (Options → Concurrent Page Requests), until a shorter or empty page. One item per message.'],
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

describe('the trigger\'s notice says what "Listen for test event" leaves registered, and how to avoid it', () => {
	test('the test URL\'s registrations stay and receive every later event; test by activating, or with pinned data', () => {
		const notice = new ConversationInboxTrigger().description.properties.find((p) => p.name === 'apiCannotDeleteNotice');
		expect(notice?.type).toBe('notice');
		expect(notice?.displayName).toMatch(
			/"Listen for test event" registers more for n8n's test URL each time, which stay too and receive every later event \(a 404 once the test is over\)/,
		);
		expect(notice?.displayName).toMatch(/to avoid that, activate the workflow and send one real event \(it shows under Executions\), or pin sample data to the trigger instead of listening\.$/);
	});
});
