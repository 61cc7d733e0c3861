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

/** The Limit of a list operation when the saved workflow leaves it at its default (50 in 0.1.0). */
const DEFAULT_LIMIT_0_1_0 = 50;

/** Where the list lies in the answer of each list without a total (api-spec.md). */
const LISTS_WITHOUT_TOTAL: Record<string, string> = {
	'/v2/inbox/find-all-chats': 'chats',
	'/v2/inbox/find-messages-from-inbox': 'messages',
};

/** The number of elements of a chat or message list answer (`response.chats` / `response.messages`). */
export function listedIn(path: string, body: unknown): number {
	const key = LISTS_WITHOUT_TOTAL[path];
	const list = (body as { response?: Record<string, unknown> } | undefined)?.response?.[key];
	return Array.isArray(list) ? list.length : 0;
}

/**
 * The elements the API answered to the chat and message list requests 0.1.0 sent: each is sent
 * again to the sandbox (reads change nothing there) and its list counted. Fails on an answer other
 * than 200, so that a refused read never widens the allowance below.
 */
export async function cameFor(fixture: ActionFixture, api: { baseUrl: string; token: string }): Promise<number> {
	let came = 0;
	for (const request of fixture.requests as Array<{ method: string; path: string; query: Record<string, string> }>) {
		if (request.method !== 'GET' || !(request.path in LISTS_WITHOUT_TOTAL)) continue;
		const url = new URL(api.baseUrl.replace(/\/v2$/, '') + request.path);
		for (const [key, value] of Object.entries(request.query)) url.searchParams.set(key, value);
		let answer = await fetch(url, { headers: { authorization: `Bearer ${api.token}` } });
		// The e2e sandbox limits its rate: a refused count waits as the API asks, a few times.
		for (let refused = 0; answer.status === 429 && refused < 5; refused++) {
			await new Promise((resolve) => setTimeout(resolve, 1000 * Number(answer.headers.get('retry-after') ?? 1)));
			answer = await fetch(url, { headers: { authorization: `Bearer ${api.token}` } });
		}
		if (answer.status !== 200) throw new Error(`the sandbox answered HTTP ${answer.status} to ${request.path} while counting what came`);
		came += listedIn(request.path, await answer.json());
	}
	return came;
}

/**
 * The one difference allowed, and only this one: 0.1.0 ended a list without a total (chats,
 * messages) at a page shorter than it asked for; the current walk ends at an empty page (DESIGN.md,
 * "Paging when our guesses are wrong": an API that caps its pages below ours would otherwise lose
 * elements silently). So after the requests 0.1.0 sent, one GET of the same chat or message list
 * may follow: same filters, a later offset, no larger page, answered 200; and only when the walk
 * had more to look for: Return All, or a Limit above the elements that came (`came`: what the API
 * answered to the requests 0.1.0 sent). A read after the Limit was reached is never allowed.
 * Returns what breaks that.
 */
export function endOfListProbes(fixture: ActionFixture, extra: Array<{ method: string; path: string; query: Record<string, string>; status: number }>, came: number): string[] {
	const last = fixture.requests[fixture.requests.length - 1] as { method: string; path: string; query: Record<string, string> };
	const { returnAll, limit: savedLimit } = fixture.node.parameters;
	const moreWanted = returnAll === true || Number(savedLimit ?? DEFAULT_LIMIT_0_1_0) > came;
	return extra.flatMap((request, index) => {
		const { offset, limit, ...filters } = request.query;
		const { offset: lastOffset, limit: lastLimit, ...lastFilters } = last.query;
		const ok =
			index === 0 &&
			moreWanted &&
			request.method === 'GET' &&
			request.path === last.path &&
			request.path in LISTS_WITHOUT_TOTAL &&
			request.status === 200 &&
			Number(offset) > Number(lastOffset) &&
			Number(limit) <= Number(lastLimit) &&
			JSON.stringify(filters) === JSON.stringify(lastFilters);
		return ok ? [] : [`${request.method} ${request.path} ${JSON.stringify(request.query)}`];
	});
}
