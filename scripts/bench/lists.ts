/* eslint-disable -- development tooling, not shipped: n8n's node rules (eslint.config.mjs, n8n-node lint) are for nodes/ and credentials/ */
/**
 * The list cases of the benchmark (scripts/bench/bench.ts, scripts/bench/scale.ts): the sandbox's seed,
 * our node's and the HTTP Request node's workflows for each list, one measured run in real n8n, and
 * the bare fetch client (scripts/bench/bare-client.mjs) for the same walk.
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { DEMO } from '../../test/sandbox';
import type { Sandbox } from '../../test/sandbox';
import { fillCategory, growChat } from '../../test/sandbox/seed-bench';
import { webhookPathOf, type E2EContext } from '../../test/e2e/harness/context';
import type { CredentialRecord, WorkflowDefinition, WorkflowRecord } from '../../test/e2e/harness/n8n-client';
import { REPO_ROOT } from '../../test/e2e/harness/provision';
import { chainWorkflow } from '../../test/e2e/harness/workflows';

// ---- small helpers --------------------------------------------------------------------------

export const median = (values: number[]): number => {
	const sorted = [...values].sort((a, b) => a - b);
	const mid = Math.floor(sorted.length / 2);
	return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

export const ms = (value: number): string => `${value.toFixed(0)} ms`;
export const ratio = (value: number): string => `${value.toFixed(2)}×`;
export const log = (text: string): void => void process.stderr.write(`[bench] ${text}\n`);

// ---- the seed -------------------------------------------------------------------------------

/** The chat category whose Return All is measured, and the chat whose messages are. */
export const CHAT_CATEGORY = 'attendance';
export const MESSAGES_CHAT = DEMO.chats.alice;

export interface ListSizes {
	tagContacts: number;
	/** chats in CHAT_CATEGORY, exactly */
	chats: number;
	/** messages in MESSAGES_CHAT */
	messages: number;
	templates: number;
}

/** Reseeds the sandbox: the ordinary seed, then the chat category and the one chat brought to size. */
export function seedLists(sandbox: Sandbox, sizes: ListSizes): void {
	// Enough generated chats to fill the category (a fifth of them are generated into it).
	sandbox.reset({ contactsOnBigTag: sizes.tagContacts, templates: sizes.templates, chats: sizes.chats });
	fillCategory(sandbox.state, CHAT_CATEGORY, sizes.chats);
	const chat = sandbox.state.chats.get(MESSAGES_CHAT.id);
	if (!chat) throw new Error('the seed has no DEMO.chats.alice');
	growChat(sandbox.state, chat, sizes.messages);
}

// ---- the cases ------------------------------------------------------------------------------

export type ListKey = 'tag' | 'chats' | 'messages' | 'templates';

/** How the list pages: offset with a total (tag contacts), offset until a short page, or a cursor. */
export type Paging = 'total' | 'untilShort' | 'cursor';

export interface ListCase {
	key: ListKey;
	label: string;
	paging: Paging;
	pageSize: number;
	/** the API path, to count pages in the sandbox's request log */
	path: string;
	/** our node's resource and operation, to read its Concurrent Page Requests default */
	resource: string;
	operation: string;
	ours: Record<string, unknown>;
	httpRequest: (baseUrl: string) => Record<string, unknown>;
	/** parameters of scripts/bench/bare-client.mjs for the same walk (besides the concurrency) */
	bare: Record<string, unknown>;
}

const qs = (parameters: Record<string, string>): Record<string, unknown> => ({
	sendQuery: true,
	specifyQuery: 'keypair',
	queryParameters: { parameters: Object.entries(parameters).map(([name, value]) => ({ name, value })) },
});

/**
 * The HTTP Request node as a user configures it: GET, Header Auth credential, its Pagination option
 * updating one query parameter per page (`value`) until `complete` is true.
 */
function httpRequestParameters(url: string, query: Record<string, string>, parameter: string, value: string, complete: string): Record<string, unknown> {
	return {
		method: 'GET',
		url,
		authentication: 'genericCredentialType',
		genericAuthType: 'httpHeaderAuth',
		...qs(query),
		options: {
			pagination: {
				pagination: {
					limitPagesFetched: false,
					requestInterval: 0,
					paginationMode: 'updateAParameterInEachRequest',
					parameters: { parameters: [{ type: 'qs', name: parameter, value }] },
					paginationCompleteWhen: 'other',
					completeExpression: complete,
				},
			},
		},
	};
}

/** An offset list without a total: pages of `size` until one comes back shorter (an empty one included). */
const offsetUntilShort = (url: string, query: Record<string, string>, size: number, listPath: string): Record<string, unknown> =>
	httpRequestParameters(url, { ...query, limit: String(size) }, 'offset', `={{ $pageCount * ${size} }}`, `={{ $response.body.${listPath}.length < ${size} }}`);

export const LIST_CASES: ListCase[] = [
	{
		key: 'tag',
		label: 'tag contacts Return All (offset, 100/page, total)',
		paging: 'total',
		pageSize: 100,
		path: '/v2/tag/list-contacts',
		resource: 'tag',
		operation: 'getContacts',
		bare: { tagId: DEMO.tags.big.id },
		ours: { resource: 'tag', operation: 'getContacts', tag: { __rl: true, mode: 'id', value: DEMO.tags.big.id }, returnAll: true },
		// The API gives the total: stop after the page that reaches it (no extra empty page).
		httpRequest: (baseUrl) =>
			httpRequestParameters(`${baseUrl}/tag/list-contacts`, { tagId: DEMO.tags.big.id, limit: '100' }, 'offset', '={{ $pageCount * 100 }}', '={{ ($pageCount * 100) >= $response.body.data.total }}'),
	},
	{
		key: 'chats',
		label: `chats Return All (offset, 1000/page, no total; one category)`,
		paging: 'untilShort',
		pageSize: 1000,
		path: '/v2/inbox/find-all-chats',
		resource: 'chat',
		operation: 'getAll',
		bare: { category: CHAT_CATEGORY },
		ours: { resource: 'chat', operation: 'getAll', category: CHAT_CATEGORY, returnAll: true },
		httpRequest: (baseUrl) => offsetUntilShort(`${baseUrl}/inbox/find-all-chats`, { category: CHAT_CATEGORY }, 1000, 'response.chats'),
	},
	{
		key: 'messages',
		label: 'messages Return All (offset, 1000/page, no total; one chat)',
		paging: 'untilShort',
		pageSize: 1000,
		path: '/v2/inbox/find-messages-from-inbox',
		resource: 'message',
		operation: 'getAll',
		bare: { chatInternalId: MESSAGES_CHAT.id },
		ours: { resource: 'message', operation: 'getAll', chatInternalId: { __rl: true, mode: 'id', value: MESSAGES_CHAT.id }, returnAll: true },
		httpRequest: (baseUrl) => offsetUntilShort(`${baseUrl}/inbox/find-messages-from-inbox`, { chatInternalId: MESSAGES_CHAT.id }, 1000, 'response.messages'),
	},
	{
		key: 'templates',
		label: 'templates Return All (cursor, 250/page)',
		paging: 'cursor',
		pageSize: 250,
		path: '/v2/provider-template/list',
		resource: 'template',
		operation: 'getAll',
		bare: { integrationId: DEMO.integrations.official.id },
		ours: {
			resource: 'template',
			operation: 'getAll',
			integrationId: { __rl: true, mode: 'id', value: DEMO.integrations.official.id },
			returnAll: true,
		},
		// n8n resolves the pagination parameters before the first request too ($pageCount 0, no
		// $response yet); an empty query value is "no cursor" for the API.
		httpRequest: (baseUrl) =>
			httpRequestParameters(
				`${baseUrl}/provider-template/list`,
				{ integrationId: DEMO.integrations.official.id, limit: '250' },
				'after',
				"={{ $pageCount === 0 ? '' : $response.body.response.paging.after }}",
				'={{ $response.body.response.paging.hasNext !== true }}',
			),
	},
];

interface DescribedProperty {
	name: string;
	type?: string;
	default?: unknown;
	displayOptions?: { show?: Record<string, unknown[]> };
	options?: DescribedProperty[];
}

/**
 * Our node's declared Concurrent Page Requests default for an operation (`options.concurrentPageRequests`),
 * read from the built node's description (wherever the source keeps it); undefined when the operation
 * has no such option (it pages one after the other).
 */
export function declaredConcurrency(resource: string, operation: string): number | undefined {
	const manifest = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { n8n: { nodes: string[] } };
	const file = manifest.n8n.nodes.find((f) => f.endsWith('/ConversationInbox.node.js'));
	if (!file) throw new Error('package.json lists no ConversationInbox.node.js');
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	// A VersionedNodeType: the properties of the version a new node gets.
	const { ConversationInbox } = require(join(REPO_ROOT, file)) as { ConversationInbox: new () => { getNodeType(): { description: { properties: DescribedProperty[] } } } };
	const shown = (p: DescribedProperty): boolean =>
		(p.displayOptions?.show?.resource ?? []).includes(resource) && (p.displayOptions?.show?.operation ?? []).includes(operation);
	for (const property of new ConversationInbox().getNodeType().description.properties) {
		if (property.name !== 'options' || !shown(property)) continue;
		const option = property.options?.find((o) => o.name === 'concurrentPageRequests');
		if (typeof option?.default === 'number') return option.default;
	}
	return undefined;
}

// ---- one run in n8n -------------------------------------------------------------------------

export interface Sample {
	/** the node's executionTime from runData */
	nodeMs: number;
	/** the execution's stoppedAt − startedAt */
	executionMs: number;
	items: number;
	pages: number;
	maxInFlight: number;
	/** per request: arrival → answer at the API (latency + handler), median */
	apiPerRequestMs: number;
}

export interface Measured {
	samples: Sample[];
	median: Sample;
}

type RunData = Record<string, Array<{ executionTime?: number; data?: { main: Array<unknown[] | null> } }>>;

function summarize(samples: Sample[]): Measured {
	const pick = (f: (s: Sample) => number): number => median(samples.map(f));
	return {
		samples,
		median: {
			nodeMs: pick((s) => s.nodeMs),
			executionMs: pick((s) => s.executionMs),
			items: pick((s) => s.items),
			pages: pick((s) => s.pages),
			maxInFlight: pick((s) => s.maxInFlight),
			apiPerRequestMs: pick((s) => s.apiPerRequestMs),
		},
	};
}

export const NODE = 'List';

/** Webhook (answers its first item when the list node finished) → the list node. */
export function listWorkflow(name: string, parameters: Record<string, unknown>, nodeType: string, typeVersion: number, credential: CredentialRecord, credentialType: string): WorkflowDefinition {
	const path = `bench-${randomUUID()}`;
	const definition = chainWorkflow(name, path, [{ name: NODE, type: nodeType, typeVersion, parameters }], credential);
	// Only the first item goes back over HTTP: what is measured is the node, not the answer.
	const webhook = definition.nodes[0];
	webhook.parameters = { ...webhook.parameters, responseData: 'firstEntryJson' };
	const node = definition.nodes[1];
	node.credentials = { [credentialType]: { id: credential.id, name: credential.name } };
	return definition;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/**
 * One run: calls the workflow's webhook, waits until its execution finished, calls `finished` (the
 * scale case reads n8n's peak memory there, before the execution's data is fetched), then reads the
 * node's figures from the execution and the sandbox's request log.
 */
export async function runList(ctx: E2EContext, workflow: WorkflowRecord, path: string, options: { timeoutMs?: number; finished?: () => void } = {}): Promise<Sample> {
	const { client, sandbox } = ctx;
	sandbox.clearRequests();
	const known = await client.executionIds(workflow.id);
	const response = await client.callWebhook(webhookPathOf(workflow), {});
	if (response.status !== 200) throw new Error(`webhook of "${workflow.name}" answered ${response.status}: ${response.text.slice(0, 500)}`);
	const deadline = Date.now() + (options.timeoutMs ?? 120_000);
	let done: { id: string } | undefined;
	while (!done) {
		done = (await client.listExecutions(workflow.id)).find((e) => !known.has(e.id) && e.stoppedAt);
		if (!done && Date.now() > deadline) throw new Error(`"${workflow.name}": no finished execution after ${options.timeoutMs ?? 120_000} ms`);
		if (!done) await sleep(200);
	}
	options.finished?.();
	const execution = await client.getExecution(done.id);
	if (execution.status !== 'success') {
		throw new Error(`execution ${execution.id} of "${workflow.name}" ended ${execution.status}: ${JSON.stringify(execution.data.resultData.error ?? {}).slice(0, 1500)}`);
	}
	const runData = execution.data.resultData.runData as unknown as RunData;
	const task = runData[NODE]?.[0];
	if (!task || typeof task.executionTime !== 'number') throw new Error(`execution ${execution.id}: no executionTime for node "${NODE}"`);
	const requests = sandbox.requests.filter((r) => r.path === path);
	const perRequest = requests.filter((r) => r.answeredAt !== undefined).map((r) => (r.answeredAt as number) - r.at);
	return {
		nodeMs: task.executionTime,
		executionMs: Date.parse(execution.stoppedAt ?? execution.startedAt) - Date.parse(execution.startedAt),
		items: task.data?.main[0]?.length ?? 0,
		pages: requests.length,
		maxInFlight: sandbox.maxInFlight,
		apiPerRequestMs: perRequest.length ? median(perRequest) : 0,
	};
}

/** One warm-up run (modules, connections, expression engine), then `runs` measured ones. */
export async function measureList(ctx: E2EContext, workflow: WorkflowRecord, path: string, label: string, runs: number): Promise<Measured> {
	await runList(ctx, workflow, path);
	const samples: Sample[] = [];
	for (let run = 0; run < runs; run++) samples.push(await runList(ctx, workflow, path));
	const m = summarize(samples);
	log(`${label}: ${samples.map((s) => s.nodeMs).join(', ')} ms → median ${m.median.nodeMs} ms (${m.median.items} items, ${m.median.pages} requests, ${m.median.maxInFlight} in flight)`);
	return m;
}

// ---- the bare fetch client ------------------------------------------------------------------

export interface BareClient {
	median: number;
	runs: number[];
	pages: number;
	items: number;
	/** the most requests the sandbox had in flight at once during the client's runs */
	maxInFlight: number;
}

/**
 * The same walk by a bare fetch + JSON client in its own process on n8n's Node
 * (scripts/bench/bare-client.mjs), `concurrency` pages at a time where the list allows: what the API
 * and network allow any client. Async spawn: the sandbox answers from this process's event loop.
 */
export async function measureBareClient(nodeBinary: string, item: ListCase, sandbox: Sandbox, runs: number, concurrency: number): Promise<BareClient> {
	const params = { ...item.bare, concurrency, pageSize: item.pageSize };
	const args = [join(REPO_ROOT, 'scripts', 'bench', 'bare-client.mjs'), item.key, sandbox.baseUrl, sandbox.token, String(runs), JSON.stringify(params)];
	sandbox.clearRequests();
	const child = spawn(nodeBinary, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NODE_OPTIONS: '' } });
	let stdout = '';
	let stderr = '';
	child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
	child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
	const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
	if (code !== 0) throw new Error(`bare client ${item.key} exited ${code}: ${stderr}`);
	const result = JSON.parse(stdout.trim()) as Omit<BareClient, 'median' | 'maxInFlight'>;
	const bare = { ...result, median: median(result.runs), maxInFlight: sandbox.maxInFlight };
	log(`bare client ${item.key}: ${result.runs.join(', ')} ms → median ${bare.median} ms (${result.items} items, ${result.pages} requests, ${bare.maxInFlight} in flight)`);
	return bare;
}

// ---- printing -------------------------------------------------------------------------------

/** A plain-text table: the first row is the header, `leftColumns` columns flush left, the rest right. */
export function printTable(rows: string[][], leftColumns = 1): void {
	const widths = rows[0].map((_, column) => Math.max(...rows.map((row) => (row[column] ?? '').length)));
	for (const [index, row] of rows.entries()) {
		console.log(row.map((cell, column) => (column < leftColumns ? cell.padEnd(widths[column]) : cell.padStart(widths[column]))).join('  '));
		if (index === 0) console.log(widths.map((w) => '-'.repeat(w)).join('  '));
	}
}

export const verdict = (met: boolean): string => (met ? 'target met' : 'target MISSED');
