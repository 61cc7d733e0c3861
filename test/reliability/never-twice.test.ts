/**
 * Never twice (DESIGN.md, "Never twice"; issue 29): n8n's Retry On Fail re-runs the whole node, so
 * every item's write would be sent again on each try. Run through n8n-core's WorkflowExecute with
 * the node's settings (Retry On Fail, 3 tries, On Error stop / continue / error output) against the
 * sandbox, which counts what it receives: a write the API accepted is received exactly once, a write
 * whose outcome is unknown is not sent again, a refused one is.
 */
jest.mock('../../nodes/shared/retry', () => jest.requireActual('./fast-retry').fastRetryModule());

import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { useSandbox } from '../helpers/node-runner';
import { closedPort } from './helpers';
import type { OnError } from '../helpers/workflow-runner';
import { runWorkflow } from '../helpers/workflow-runner';

const ctx = useSandbox();

const NAMES = ['Twice-A', 'Twice-B', 'Twice-C', 'Twice-D', 'Twice-E'];
const items = NAMES.map((tag) => ({ tag }));
const parameters = { resource: 'tag', operation: 'create', name: '={{ $json.tag }}' };

let executions = 0;
const newExecutionId = (): string => `never-twice-${++executions}-${Date.now()}`;

/** The POST /tag/create requests the sandbox received for each name. */
function receivedPerName(): Record<string, number> {
	const counts: Record<string, number> = Object.fromEntries(NAMES.map((name) => [name, 0]));
	for (const request of ctx.sandbox.requests) {
		if (request.method !== 'POST' || request.path !== '/v2/tag/create') continue;
		const name = (request.body as IDataObject).name as string;
		counts[name] = (counts[name] ?? 0) + 1;
	}
	return counts;
}

const once = Object.fromEntries(NAMES.map((name) => [name, 1]));

/** Each output item's tag must be the one the sandbox holds under its name (its ID included). */
function expectTagsOfSandbox(output: INodeExecutionData[], names: string[]): void {
	expect(output.map((item) => item.json.name)).toEqual(names);
	for (const item of output) {
		const stored = ctx.sandbox.state.tagByName(item.json.name as string);
		expect(stored).toBeDefined();
		expect(item.json.id).toBe(stored?.id);
	}
}

const retrySettings = { retryOnFail: true, maxTries: 3, waitBetweenTries: 10 };

describe('Retry On Fail (3 tries) with one write answered 502: each write is received once', () => {
	// n8n retries a node under Continue while its FIRST output item is an error: the 502 is item 0.
	const cases: Array<{ onError: OnError; failing: number }> = [
		{ onError: 'stopWorkflow', failing: 2 },
		{ onError: 'continueRegularOutput', failing: 0 },
		{ onError: 'continueErrorOutput', failing: 0 },
	];

	test.each(cases)('On Error $onError: 5 items, item $failing answered 502 every time it arrives', async ({ onError, failing }) => {
		ctx.sandbox.addFault({ kind: 'status', status: 502, method: 'POST', path: '/tag/create', match: `"${NAMES[failing]}"`, times: Infinity });
		const result = await runWorkflow(ctx.sandbox, { parameters, items, onError, ...retrySettings, executionId: newExecutionId() });

		// Received exactly once each: the 4 accepted and the one whose outcome was unknown (502).
		expect(receivedPerName()).toEqual(once);
		const accepted = NAMES.filter((_, index) => index !== failing);
		for (const name of accepted) expect(ctx.sandbox.state.tagByName(name)).toBeDefined();
		expect(ctx.sandbox.state.tagByName(NAMES[failing])).toBeUndefined();

		const notSentAgain = /Not sent again: an earlier try of this item may have carried it out/;
		if (onError === 'stopWorkflow') {
			// The last try failed on the 502 item without sending it: its error says why.
			expect(result.error?.message).toMatch(notSentAgain);
			expect(result.error?.message).toMatch(/HTTP 502/);
			return;
		}
		expect(result.error).toBeUndefined();
		const [regular, errors = []] = result.outputs;
		const all = onError === 'continueRegularOutput' ? regular : [...regular, ...errors];
		// N in, N out, each paired with its input item.
		expect(all.map((item) => item.pairedItem)).toEqual(
			expect.arrayContaining(NAMES.map((_, index) => ({ item: index }))),
		);
		expect(all).toHaveLength(NAMES.length);
		const failed = all.filter((item) => item.json.error !== undefined);
		expect(failed).toHaveLength(1);
		expect(failed[0].pairedItem).toEqual({ item: failing });
		// The error comes from a try after the first: proof that n8n did retry the node.
		expect(String(failed[0].json.error)).toMatch(notSentAgain);
		expect(failed[0].error?.description).toMatch(/Check on the platform/);
		expectTagsOfSandbox(all.filter((item) => item.json.error === undefined), accepted);
		if (onError === 'continueErrorOutput') {
			expect(errors).toHaveLength(1);
			expect(regular).toHaveLength(4);
		}
	});
});

describe('Retry On Fail: what is sent again and what is not', () => {
	test('a write received and carried out, then its connection reset (outcome unknown), is not sent again', async () => {
		ctx.sandbox.addFault({ kind: 'reset-after', method: 'POST', path: '/tag/create', match: `"${NAMES[0]}"`, times: Infinity });
		const result = await runWorkflow(ctx.sandbox, {
			parameters,
			items,
			onError: 'continueRegularOutput',
			...retrySettings,
			executionId: newExecutionId(),
		});
		expect(receivedPerName()).toEqual(once);
		// The sandbox did create it: sending it again would have been a second write.
		expect(ctx.sandbox.state.tagByName(NAMES[0])).toBeDefined();
		const [regular] = result.outputs;
		expect(regular).toHaveLength(NAMES.length);
		expect(String(regular[0].json.error)).toMatch(/Not sent again/);
		expectTagsOfSandbox(regular.slice(1), NAMES.slice(1));
	});

	test('a write the API refused (HTTP 400) is sent again by the retry, the accepted ones are not', async () => {
		ctx.sandbox.addFault({ kind: 'status', status: 400, method: 'POST', path: '/tag/create', match: `"${NAMES[0]}"`, times: 1 });
		const result = await runWorkflow(ctx.sandbox, {
			parameters,
			items,
			onError: 'continueRegularOutput',
			...retrySettings,
			executionId: newExecutionId(),
		});
		expect(receivedPerName()).toEqual({ ...once, [NAMES[0]]: 2 });
		const [regular] = result.outputs;
		expectTagsOfSandbox(regular, NAMES);
		expect(regular.map((item) => item.pairedItem)).toEqual(NAMES.map((_, index) => ({ item: index })));
	});

	test('a write that never left (connection refused) is sent again by each try: the last error says nothing was sent', async () => {
		const port = await closedPort();
		const result = await runWorkflow(ctx.sandbox, {
			parameters,
			items: items.slice(0, 1),
			onError: 'stopWorkflow',
			...retrySettings,
			executionId: newExecutionId(),
			baseUrl: `http://127.0.0.1:${port}/v2`,
		});
		// Not "Not sent again": nothing reached the API, so n8n's third try sent it (and failed) again.
		expect(result.error?.message).toBe(`Could not reach the API at 127.0.0.1:${port} (ECONNREFUSED): nothing was sent`);
	});

	test('another execution of the same workflow sends its writes (the memory is per execution)', async () => {
		await runWorkflow(ctx.sandbox, { parameters, items: items.slice(0, 1), onError: 'stopWorkflow', ...retrySettings, executionId: newExecutionId() });
		const second = await runWorkflow(ctx.sandbox, { parameters, items: items.slice(0, 1), onError: 'continueRegularOutput', ...retrySettings, executionId: newExecutionId() });
		// A fresh execution is not a retry: sent again, and refused by the API (the name exists); a
		// refusal is sent again by each of n8n's 3 tries: 1 + 3.
		expect(receivedPerName()[NAMES[0]]).toBe(4);
		expect(String(second.outputs[0][0].json.error)).toMatch(/HTTP 409/);
	});
});
