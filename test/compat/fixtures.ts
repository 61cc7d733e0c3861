/* eslint-disable -- development tooling, not shipped: n8n's node rules (eslint.config.mjs, n8n-node lint) are for nodes/ and credentials/ */
/**
 * The frozen 0.1.0 fixtures of the action node (test/fixtures/0.1.0/action), for the jest test
 * (test/compat/released-0.1.0.test.ts) and the e2e suite (test/e2e/suites/compat-0.1.0.ts).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { INodeParameters } from 'n8n-workflow';

const ACTION_FIXTURES = join(__dirname, '..', 'fixtures', '0.1.0', 'action');
const NODE_TYPE = 'n8n-nodes-conversation-inbox.conversationInbox';

export interface SavedNode {
	type: string;
	typeVersion: number;
	parameters: INodeParameters;
}

export interface ActionFixture {
	name: string;
	/** the saved workflow, as the 0.1.0 editor stored it */
	workflow: { name: string; nodes: SavedNode[]; connections: Record<string, unknown> };
	/** its Conversation Inbox node */
	node: SavedNode;
	/** what 0.1.0 sent: method, path, query, body */
	requests: unknown[];
}

/** What the sandbox received, as the fixtures record it. */
export const asRecorded = ({ method, path, query, body }: { method: string; path: string; query: Record<string, string>; body: unknown }): unknown => ({ method, path, query, body });

/** Every saved workflow of the action node, with the requests 0.1.0 sent for it. */
export function actionFixtures(): ActionFixture[] {
	return readdirSync(ACTION_FIXTURES)
		.filter((file) => file.endsWith('.workflow.json'))
		.sort()
		.map((file) => {
			const name = file.slice(0, -'.workflow.json'.length);
			const workflow = JSON.parse(readFileSync(join(ACTION_FIXTURES, file), 'utf8')) as ActionFixture['workflow'];
			const [node] = workflow.nodes.filter((n) => n.type === NODE_TYPE);
			const requests = JSON.parse(readFileSync(join(ACTION_FIXTURES, `${name}.requests.json`), 'utf8')) as unknown[];
			return { name, workflow, node, requests };
		});
}

/**
 * The one difference allowed, and only this one: 0.1.0 ended a list without a total (chats,
 * messages) at a page shorter than it asked for; the current walk ends at an empty page (DESIGN.md,
 * "Paging when our guesses are wrong": an API that caps its pages below ours would otherwise lose
 * elements silently). So after the requests 0.1.0 sent, one GET of the same chat or message list
 * may follow: same filters, a later offset, no larger page, answered 200. Returns what breaks that.
 */
export function endOfListProbes(fixture: ActionFixture, extra: Array<{ method: string; path: string; query: Record<string, string>; status: number }>): string[] {
	const last = fixture.requests[fixture.requests.length - 1] as { method: string; path: string; query: Record<string, string> };
	const listsWithoutTotal = ['/v2/inbox/find-all-chats', '/v2/inbox/find-messages-from-inbox'];
	return extra.flatMap((request, index) => {
		const { offset, limit, ...filters } = request.query;
		const { offset: lastOffset, limit: lastLimit, ...lastFilters } = last.query;
		const ok =
			index === 0 &&
			request.method === 'GET' &&
			request.path === last.path &&
			listsWithoutTotal.includes(request.path) &&
			request.status === 200 &&
			Number(offset) > Number(lastOffset) &&
			Number(limit) <= Number(lastLimit) &&
			JSON.stringify(filters) === JSON.stringify(lastFilters);
		return ok ? [] : [`${request.method} ${request.path} ${JSON.stringify(request.query)}`];
	});
}

