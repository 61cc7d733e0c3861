/**
 * The pickers read the API's answers with the one reader of answers (nodes/shared/reading.ts): in
 * n8n-core's real LoadOptionsContext against the sandbox switched to other answer shapes
 * (test/sandbox/shapes.ts), every picker offers the same entries as under the spec's shape, or
 * fails loudly (never an empty picker for a list that did not come).
 */
import { NodeApiError } from 'n8n-workflow';
import type { INodeParameters } from 'n8n-workflow';

import type { AnswerShape } from '../sandbox';
import { SECOND_REASON } from '../sandbox';
import { useSandbox } from '../helpers/node-runner';
import { loadOptionsContext, node } from './helpers';

const ctx = useSandbox();

type Picker = () => Promise<unknown>;

/** Every list-search and load-options method of the node, with the endpoint it reads. */
const PICKERS: Array<[string, string, Picker]> = [
	[
		'searchIntegrations',
		'/integration/list',
		async () => await node.methods.listSearch.searchIntegrations.call(context({ resource: 'integration', operation: 'disconnect' }, 'integrationId')),
	],
	[
		'searchChats',
		'/inbox/find-all-chats',
		async () => await node.methods.listSearch.searchChats.call(context({ resource: 'message', operation: 'getAll' }, 'chatInternalId')),
	],
	['getUsers', '/user/list', async () => await node.methods.loadOptions.getUsers.call(context(CHAT_FILTERS, 'filters.attendantIds'))],
	['getIntegrations', '/integration/list', async () => await node.methods.loadOptions.getIntegrations.call(context(CHAT_FILTERS, 'filters.integrationIds'))],
];
const CHAT_FILTERS: INodeParameters = { resource: 'chat', operation: 'getAll', filters: {} };
const context = (parameters: INodeParameters, path: string) => loadOptionsContext(ctx.sandbox, parameters, path);

async function failure(picker: Picker): Promise<NodeApiError> {
	const error = await picker().then(
		() => undefined,
		(caught: unknown) => caught,
	);
	expect(error).toBeInstanceOf(NodeApiError);
	return error as NodeApiError;
}

describe('pickers under other answer shapes', () => {
	test('every list-search and load-options method is covered', () => {
		const methods = [...Object.keys(node.methods.listSearch), ...Object.keys(node.methods.loadOptions)].sort();
		expect(PICKERS.map(([name]) => name).sort()).toEqual(methods);
	});

	const SAME: AnswerShape[] = ['noSuccess', 'otherEnvelope'];
	test.each(PICKERS.flatMap(([name, endpoint, picker]) => SAME.map((shape) => [name, shape, endpoint, picker] as const)))(
		'%s under %s: the same entries',
		async (_name, shape, endpoint, picker) => {
			const expected = await picker();
			ctx.sandbox.setVariants({ shapes: { [endpoint]: shape } });
			expect(await picker()).toEqual(expected);
		},
	);

	test.each(PICKERS)('%s under nested: a loud error naming the list expected and what came', async (_name, endpoint, picker) => {
		ctx.sandbox.setVariants({ shapes: { [endpoint]: 'nested' } });
		const error = await failure(picker);
		expect(error.message).toMatch(/^The API's answer has no (response|data)\.\w+ \(HTTP 200\)$/);
		expect(String(error.description)).toMatch(/the answer has success, (response|data)\.result/);
	});

	test.each(PICKERS)('%s under a 400 with a message list: the whole list shown', async (_name, endpoint, picker) => {
		ctx.sandbox.setVariants({ shapes: { [endpoint]: 'messageList' } });
		ctx.sandbox.addFault({ path: endpoint, kind: 'status', status: 400, message: 'category: unknown value', times: Infinity });
		const error = await failure(picker);
		expect(error.message).toBe(`The API rejected the request as invalid (HTTP 400): category: unknown value; ${SECOND_REASON}`);
	});

	// The list's key is there but holds no list: a loud error, as Get Many gives, not an empty picker.
	const NOT_A_LIST: Record<string, object> = {
		'/integration/list': { success: true, response: { integrations: { total: 3 } } },
		'/inbox/find-all-chats': { success: true, response: { chats: { total: 3 } } },
		'/user/list': { success: true, data: { users: { total: 3 } } },
	};
	test.each(PICKERS)('%s with an object where the list belongs: an error naming the list', async (_name, endpoint, picker) => {
		ctx.sandbox.addFault({ path: endpoint, kind: 'json', body: NOT_A_LIST[endpoint], times: Infinity });
		const error = await picker().then(
			() => undefined,
			(caught: unknown) => caught as Error,
		);
		expect(error?.message).toMatch(/^The API's answer has no list at (response|data)\.(integrations|chats|users)$/);
	});

	test('getUsers with entries that are not objects (null, a text, a number, a list): only the users offered', async () => {
		ctx.sandbox.addFault({
			path: '/user/list',
			kind: 'json',
			body: { success: true, data: { users: [null, 'u0', 7, ['u9'], { id: 'u1', user: { name: 'Ann', email: 'ann@example.com' } }] } },
		});
		expect(await node.methods.loadOptions.getUsers.call(context(CHAT_FILTERS, 'filters.attendantIds'))).toEqual([
			{ name: 'Ann', value: 'u1', description: 'ann@example.com' },
		]);
	});
});
