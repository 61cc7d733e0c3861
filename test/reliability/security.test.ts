/* eslint-disable -- development tooling, not shipped: n8n's node rules (eslint.config.mjs, n8n-node lint) are for nodes/ and credentials/ */
/**
 * Security: the API token never leaks, pagination cannot be steered to another host, forged
 * webhook deliveries start nothing.
 *
 * Already covered elsewhere and not repeated here (test/trigger/receiving.test.ts): missing, wrong,
 * truncated, one-character-longer, differently-cased, empty and foreign secrets → 401 and no
 * execution, with the answer never echoing the secret; the constant-time comparison; a node that
 * was never activated → 401; a text/plain body that is not JSON → 400; a 6 MB raw body → 413; a
 * deeply nested body; a payload or query echoing the secret → redacted from the output.
 * test/node/errors.test.ts: the token is not in a 401 error, an error item or a thrown 404.
 */
// The ceiling shortened to 1 s: the "429 on every attempt" case ends once the API has accepted
// nothing for it (pace.ts), not after the shipped minute.
jest.mock('../../nodes/shared/retry', () => jest.requireActual('./fast-retry').fastRetryModule({ maxRetryAfterMs: 1000 }));

import { randomUUID } from 'node:crypto';
import { actionDescription } from '../helpers/action-node';

import { LoadOptionsContext } from 'n8n-core';
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { ConversationInboxTrigger } from '../../nodes/ConversationInboxTrigger/ConversationInboxTrigger.node';
import { SECRET_HEADER } from '../../nodes/ConversationInboxTrigger/registrations';
import { makeAdditionalData, makeWorkflow } from '../helpers/n8n-harness';
import { useSandbox } from '../helpers/node-runner';
import { operationKey, operationsOf } from '../helpers/operations';
import { N8nWebhookEndpointStandIn, TRIGGER_TYPE, TriggerInstance } from '../helpers/trigger-harness';
import type { Fault } from '../sandbox';
import { DEMO } from '../sandbox';
import { headersOf, triggerParameters, webhooksFor } from '../trigger/setup';
import type { Decoy } from './helpers';
import { closedPort, dumpEverything, run, startDecoy } from './helpers';
import { VALID } from './operations';

const TOKEN = 'tok_Sec7et-Zq9-Value-4242';
const WRONG_TOKEN = 'tok_Wrong-Value-0000';
const ctx = useSandbox({ token: TOKEN });

const OPERATIONS = Object.values(VALID) as INodeParameters[];
const key = operationKey;

interface FaultCase {
	name: string;
	fault?: Fault;
	closedPort?: boolean;
	apiToken?: string;
	timeoutMs?: number;
	/** the API's error text quotes the request's Authorization header */
	echoes?: boolean;
	/** a 2xx answer quotes the request's Authorization header: some runs succeed with it as output */
	echoesInOutput?: boolean;
}

const ECHO = 'the request carried {authorization}';
const FAULT_CASES: FaultCase[] = [
	{ name: 'no fault (success)' },
	{ name: '400 whose message echoes the Authorization header', fault: { kind: 'status', status: 400, message: ECHO, times: Infinity }, echoes: true },
	{ name: '401 (a wrong token)', apiToken: WRONG_TOKEN },
	{ name: '429 on every attempt', fault: { kind: 'status', status: 429, retryAfterSeconds: 0, times: Infinity } },
	{ name: '500 whose message echoes the Authorization header', fault: { kind: 'status', status: 500, message: ECHO, times: Infinity }, echoes: true },
	{ name: '502', fault: { kind: 'status', status: 502, times: Infinity } },
	{ name: '503', fault: { kind: 'status', status: 503, times: Infinity } },
	{ name: 'timeout', fault: { kind: 'slow', delayMs: 150, times: Infinity }, timeoutMs: 40 },
	{ name: 'non-JSON body', fault: { kind: 'non-json', times: Infinity } },
	{ name: 'success:false echoing the Authorization header', fault: { kind: 'success-false', message: ECHO, times: Infinity }, echoes: true },
	{ name: 'connection reset', fault: { kind: 'reset', times: Infinity } },
	{ name: 'connection refused', closedPort: true },
	{
		name: '2xx without the payload, echoing the Authorization header (a debug or gateway layer)',
		fault: { kind: 'json', body: { success: true, debug: { headers: { authorization: '{authorization}' }, seen: ['{authorization}'] } }, times: Infinity },
		echoesInOutput: true,
	},
];

describe('the API token never appears in output items, error messages, descriptions or thrown objects', () => {
	test('the runs below cover every operation of the node', () => {
		expect(OPERATIONS.map(key).sort()).toEqual(operationsOf(actionDescription()).map(operationKey).sort());
	});

	test.each(FAULT_CASES.map((c) => [c.name, c] as const))('%s: every operation, with and without continueOnFail', async (_name, faultCase) => {
		const { sandbox } = ctx;
		if (faultCase.fault) sandbox.addFault(faultCase.fault);
		const baseUrl = faultCase.closedPort ? `http://127.0.0.1:${await closedPort()}/v2` : undefined;
		const runs = OPERATIONS.flatMap((parameters) =>
			[true, false].map(async (continueOnFail) => {
				try {
					const output = await run(sandbox, {
						parameters,
						continueOnFail,
						baseUrl,
						apiToken: faultCase.apiToken,
						timeoutMs: faultCase.timeoutMs,
					});
					return { operation: key(parameters), continueOnFail, output, thrown: undefined as unknown };
				} catch (thrown) {
					return { operation: key(parameters), continueOnFail, output: undefined, thrown };
				}
			}),
		);
		const results = await Promise.all(runs);
		expect(results).toHaveLength(2 * OPERATIONS.length);

		for (const result of results) {
			const dump = dumpEverything(result);
			expect({ operation: result.operation, leaksToken: dump.includes(TOKEN) }).toEqual({ operation: result.operation, leaksToken: false });
			expect(dump.includes(WRONG_TOKEN)).toBe(false);
			const errors = [result.thrown, ...(result.output ?? []).map((item) => item.error)].filter(Boolean) as Array<Error & IDataObject>;
			if ((faultCase.fault && !faultCase.echoesInOutput) || faultCase.closedPort || faultCase.apiToken) {
				// Every run failed, so there is something to search: an error item or a thrown error.
				expect({ operation: result.operation, errors: errors.length }).toEqual({ operation: result.operation, errors: 1 });
			}
			if (faultCase.echoes) {
				// The API's own text reached the error (so the test searched it), minus the token.
				expect(String(errors[0].message)).toContain('the request carried Bearer [redacted]');
			}
		}
		if (faultCase.echoesInOutput) {
			// The writes without a created ID were done: their items carry the answer, minus the token.
			const outputs = results.flatMap((result) => result.output ?? []).map((item) => JSON.stringify(item.json));
			expect(outputs.filter((json) => json.includes('"authorization":"Bearer [redacted]"')).length).toBeGreaterThan(0);
		}
		if (faultCase.echoes || faultCase.echoesInOutput) {
			// The sandbox did echo the token: the node received it and removed it.
			expect(sandbox.requests.every((request) => request.headers.authorization === `Bearer ${TOKEN}`)).toBe(true);
		}
	});

	test('trigger activation and the integration list search: an echoed token is redacted there too', async () => {
		const { sandbox } = ctx;
		sandbox.addFault({ kind: 'status', status: 400, message: ECHO, times: Infinity });
		const credentials = { baseUrl: sandbox.baseUrl, apiToken: TOKEN };
		const instance = new TriggerInstance({
			parameters: triggerParameters(),
			credentials,
			webhookBaseUrl: 'http://127.0.0.1:5678/webhook',
			webhookId: randomUUID(),
		});
		const activation = await instance.activate().then(
			() => undefined,
			(caught: unknown) => caught,
		);
		const trigger = new ConversationInboxTrigger();
		const { workflow, node } = makeWorkflow(TRIGGER_TYPE, trigger, triggerParameters());
		const context = new LoadOptionsContext(workflow, node, makeAdditionalData(credentials), 'parameters.integrationId');
		const search = await trigger.methods.listSearch.searchIntegrations.call(context).then(
			() => undefined,
			(caught: unknown) => caught,
		);
		for (const error of [activation, search]) {
			expect(error).toBeInstanceOf(Error);
			expect(String((error as Error).message)).toContain('Bearer [redacted]');
			expect(dumpEverything(error)).not.toContain(TOKEN);
		}
		expect(sandbox.requests.length).toBeGreaterThanOrEqual(2);
	});
});

describe('pagination cannot be steered to another host by a response', () => {
	let decoy: Decoy;
	beforeAll(async () => {
		decoy = await startDecoy();
	});
	afterAll(async () => {
		await decoy.close();
	});
	beforeEach(() => {
		decoy.hits.length = 0;
	});

	const OFFICIAL = DEMO.integrations.official.id;
	const template = (id: string): IDataObject => ({ id, name: id, language: 'en', status: 'APPROVED', components: [] });
	const cursors = (origin: string): Array<[string, string]> => [
		['an absolute URL to another host', `${origin}/v2/provider-template/list?integrationId=${OFFICIAL}`],
		['a protocol-relative URL', `//${origin.replace(/^http:\/\//, '')}/steal`],
		['a URL with credentials and a fragment', `http://user:pass@${origin.replace(/^http:\/\//, '')}/x#frag`],
		['an absolute path with query and traversal', '/../../other?limit=1&after=x'],
	];

	test.each([0, 1, 2, 3])('cursor case %i: sent only as the `after` value to the API host; the other host gets nothing', async (index) => {
		const { sandbox } = ctx;
		const [, cursor] = cursors(decoy.url)[index];
		sandbox.addFault({
			path: '/provider-template/list',
			kind: 'json',
			body: { success: true, response: { templates: [template('t1'), template('t2')], paging: { after: cursor, hasNext: true } } },
		});
		sandbox.addFault({
			path: '/provider-template/list',
			kind: 'json',
			body: { success: true, response: { templates: [template('t3')], paging: { after: 'end', hasNext: false } } },
		});
		const out = await run(sandbox, { parameters: { resource: 'template', operation: 'getAll', integrationId: OFFICIAL, returnAll: true } });
		expect(out.map((item) => item.json.id)).toEqual(['t1', 't2', 't3']);
		expect(sandbox.requests.map((request) => request.path)).toEqual(['/v2/provider-template/list', '/v2/provider-template/list']);
		expect(sandbox.requests[1].query.after).toBe(cursor);
		expect(sandbox.requests[1].query.integrationId).toBe(OFFICIAL);
		expect(sandbox.requests[1].headers.authorization).toBe(`Bearer ${TOKEN}`);
		expect(decoy.hits).toEqual([]);
	});

	test('a cursor that is not text (an object holding a URL) ends the walk; nothing else is contacted', async () => {
		const { sandbox } = ctx;
		sandbox.addFault({
			path: '/provider-template/list',
			kind: 'json',
			body: { success: true, response: { templates: [template('t1')], paging: { after: { url: `${decoy.url}/next` }, hasNext: true } } },
		});
		const out = await run(sandbox, { parameters: { resource: 'template', operation: 'getAll', integrationId: OFFICIAL, returnAll: true } });
		expect(out.map((item) => item.json.id)).toEqual(['t1']);
		expect(sandbox.requests).toHaveLength(1);
		expect(decoy.hits).toEqual([]);
	});

	test('offset pages ignore next-page links in a response (`next`, `links.next` to another host)', async () => {
		const { sandbox } = ctx;
		sandbox.addFault({
			path: '/inbox/find-messages-from-inbox',
			kind: 'json',
			body: {
				success: true,
				next: `${decoy.url}/v2/inbox/find-messages-from-inbox?offset=2`,
				links: { next: `${decoy.url}/page2` },
				response: { messages: [{ id: 'm1' }, { id: 'm2' }] },
			},
		});
		const out = await run(sandbox, {
			parameters: { resource: 'message', operation: 'getAll', chatInternalId: DEMO.chats.alice.id, limit: 3 },
		});
		// Two of three asked for: a short page may be the API's own page size (issue 12), so the walk
		// goes on from what it received, on the API host only, with the offset it computes itself.
		expect(out.map((item) => item.json.id).slice(0, 2)).toEqual(['m1', 'm2']);
		expect(sandbox.requests.map((request) => `${request.path}?offset=${request.query.offset}&limit=${request.query.limit}`)).toEqual([
			'/v2/inbox/find-messages-from-inbox?offset=0&limit=3',
			'/v2/inbox/find-messages-from-inbox?offset=2&limit=1',
		]);
		expect(decoy.hits).toEqual([]);
	});
});

describe('trigger: forged deliveries start nothing, the secret is never echoed (additions to receiving.test.ts)', () => {
	let endpoint: N8nWebhookEndpointStandIn;
	let instance: TriggerInstance;
	let url: string;
	let secret: string;
	let headers: Record<string, string>;

	beforeAll(async () => {
		endpoint = await new N8nWebhookEndpointStandIn().start();
	});
	afterAll(async () => {
		await endpoint.stop();
	});
	beforeEach(async () => {
		instance = new TriggerInstance({
			parameters: triggerParameters({ events: ['MESSAGE_RECEIVED'] }),
			credentials: { baseUrl: ctx.sandbox.baseUrl, apiToken: TOKEN },
			webhookBaseUrl: endpoint.webhookBaseUrl,
			webhookId: randomUUID(),
		});
		await instance.activate();
		url = instance.webhookUrl();
		headers = headersOf(webhooksFor(ctx.sandbox, url)[0]);
		secret = headers[SECRET_HEADER];
		expect(secret).toMatch(/^[0-9a-f]{64}$/);
		endpoint.attach(instance);
	});

	const payload = { event: 'MESSAGE_RECEIVED', integrationId: DEMO.integrations.whatsapp.id, data: { text: 'hi' } };

	async function deliver(init: RequestInit & { query?: Record<string, string> }): Promise<{ status: number; text: string; executed: boolean }> {
		const target = new URL(url);
		for (const [name, value] of Object.entries(init.query ?? {})) target.searchParams.set(name, value);
		const before = endpoint.calls.length;
		const executionsBefore = endpoint.executions.length;
		const response = await fetch(target, init);
		const text = await response.text();
		await endpoint.waitForCalls(before + 1);
		return { status: response.status, text, executed: endpoint.executions.length > executionsBefore };
	}

	const without = (name: string): Record<string, string> =>
		Object.fromEntries(Object.entries(headers).filter(([header]) => header.toLowerCase() !== name.toLowerCase()));

	test('control: the right secret executes once', async () => {
		const result = await deliver({ method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(payload) });
		expect(result).toMatchObject({ status: 200, executed: true });
	});

	test('a GET delivery with a wrong secret: 401, no execution', async () => {
		const result = await deliver({ method: 'GET', headers: { ...headers, [SECRET_HEADER]: 'f'.repeat(64) }, query: { event: 'MESSAGE_RECEIVED' } });
		expect(result).toMatchObject({ status: 401, executed: false });
	});

	test('the right secret in the query string or in another header instead of ours: 401, not echoed', async () => {
		const inQuery = await deliver({
			method: 'POST',
			headers: { ...without(SECRET_HEADER), 'content-type': 'application/json' },
			query: { [SECRET_HEADER]: secret, secret },
			body: JSON.stringify(payload),
		});
		const otherHeader = await deliver({
			method: 'POST',
			headers: { ...without(SECRET_HEADER), authorization: `Bearer ${secret}`, 'x-webhook-secret': secret, 'content-type': 'application/json' },
			body: JSON.stringify(payload),
		});
		for (const result of [inQuery, otherHeader]) {
			expect(result).toMatchObject({ status: 401, executed: false });
			expect(result.text).not.toContain(secret);
		}
	});

	test('the secret header twice (right + wrong, or right + right): 401', async () => {
		for (const second of ['f'.repeat(64), secret]) {
			const duplicated = new Headers({ 'content-type': 'application/json' });
			for (const [name, value] of Object.entries(without(SECRET_HEADER))) duplicated.set(name, value);
			duplicated.append(SECRET_HEADER, secret);
			duplicated.append(SECRET_HEADER, second);
			const result = await deliver({ method: 'POST', headers: duplicated, body: JSON.stringify(payload) });
			expect(result).toMatchObject({ status: 401, executed: false });
			expect(result.text).not.toContain(secret);
		}
	});

	test('a huge body (6 MB) with a wrong secret is refused with 401 before it is parsed', async () => {
		const huge = JSON.stringify({ ...payload, padding: 'x'.repeat(6 * 1024 * 1024) });
		for (const contentType of ['application/json', 'text/plain']) {
			const result = await deliver({ method: 'POST', headers: { ...headers, [SECRET_HEADER]: secret.slice(1), 'content-type': contentType }, body: huge });
			expect(result).toMatchObject({ status: 401, executed: false });
		}
	});

	test('a non-JSON body with the right secret is rejected cleanly (400), without echoing body or secret', async () => {
		const body = `not json ${secret}`;
		const result = await deliver({ method: 'POST', headers: { ...headers, 'content-type': 'text/plain' }, body });
		expect(result).toMatchObject({ status: 400, executed: false });
		expect(JSON.parse(result.text)).toEqual({ success: false, message: 'The body is not valid JSON' });
		expect(result.text).not.toContain(secret);
	});
});
