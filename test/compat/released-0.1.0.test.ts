/**
 * The version contract: every workflow saved with the released 0.1.0 (test/fixtures/0.1.0/action,
 * recorded once from the 0.1.0 build and frozen) sends exactly what 0.1.0 sent, through the current
 * node at the typeVersion the workflow saved. The expected requests are the recorded ones, never
 * anything computed by the code under test.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { INodeParameters } from 'n8n-workflow';

import { runNode, useSandbox } from '../helpers/node-runner';

const ACTION_FIXTURES = join(__dirname, '..', 'fixtures', '0.1.0', 'action');
const NODE_TYPE = 'n8n-nodes-conversation-inbox.conversationInbox';

interface SavedNode {
	type: string;
	typeVersion: number;
	parameters: INodeParameters;
}

export interface ActionFixture {
	name: string;
	node: SavedNode;
	requests: unknown[];
}

/** Every saved workflow of the action node, with the requests 0.1.0 sent for it. */
export function actionFixtures(): ActionFixture[] {
	return readdirSync(ACTION_FIXTURES)
		.filter((file) => file.endsWith('.workflow.json'))
		.sort()
		.map((file) => {
			const name = file.slice(0, -'.workflow.json'.length);
			const workflow = JSON.parse(readFileSync(join(ACTION_FIXTURES, file), 'utf8')) as { nodes: SavedNode[] };
			const [node] = workflow.nodes.filter((n) => n.type === NODE_TYPE);
			const requests = JSON.parse(readFileSync(join(ACTION_FIXTURES, `${name}.requests.json`), 'utf8')) as unknown[];
			return { name, node, requests };
		});
}

/**
 * The one difference allowed, and only this one: 0.1.0 ended a list without a total (chats,
 * messages) at a page shorter than it asked for; the current walk ends at an empty page (DESIGN.md,
 * "Paging when our guesses are wrong": an API that caps its pages below ours would otherwise lose
 * elements silently). So after the requests 0.1.0 sent, one GET of the same chat or message list
 * may follow: same filters, a later offset, no larger page, answered 200. Returns what breaks that.
 */
function endOfListProbes(fixture: ActionFixture, extra: Array<{ method: string; path: string; query: Record<string, string>; status: number }>): string[] {
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

describe('workflows saved with 0.1.0 send exactly what 0.1.0 sent', () => {
	const env = useSandbox();
	const fixtures = actionFixtures();

	it('covers every operation 0.1.0 had (19)', () => {
		const operations = new Set(fixtures.map((f) => f.name.split('.').slice(0, 2).join('.')));
		expect(operations.size).toBe(19);
		expect(fixtures.every((f) => f.node.typeVersion === 1)).toBe(true);
	});

	it.each(fixtures.map((f) => [f.name, f] as const))('%s', async (_name, fixture) => {
		await runNode(env.sandbox, { parameters: fixture.node.parameters, typeVersion: fixture.node.typeVersion });
		const sent = env.sandbox.requests.map(({ method, path, query, body }) => ({ method, path, query, body }));
		// Every request 0.1.0 sent, exactly and in order; then, for a list without a total, at most the
		// one read that finds the list's end (see endOfListProbes).
		expect(sent.slice(0, fixture.requests.length)).toEqual(fixture.requests);
		expect(endOfListProbes(fixture, env.sandbox.requests.slice(fixture.requests.length))).toEqual([]);
	});
});
