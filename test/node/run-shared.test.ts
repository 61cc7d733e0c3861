/* eslint-disable -- development tooling, not shipped: n8n's node rules (eslint.config.mjs, n8n-node lint) are for nodes/ and credentials/ */
/**
 * What the items of one run share (nodes/ConversationInbox/helpers/run.ts; issue 31, docs/performance.md
 * "Freeze"): the credential read once per run, and each item's own preparation in slices with a turn
 * of n8n's event loop between two. Through n8n-core's RoutingNode against the sandbox over HTTP; the
 * credential store is the harness's in-memory one (n8n's reads its database), counted at its
 * `getDecrypted`, the call n8n's credential helper answers a node's credential read with.
 */
import { Expression } from 'n8n-workflow';

import { Slices } from '../../nodes/ConversationInbox/helpers/run';
import { DEMO } from '../sandbox';
import { StoredCredentialsHelper } from '../helpers/n8n-harness';
import { runNode, useSandbox } from '../helpers/node-runner';

const env = useSandbox();

/** Tag → Remove From Contact of the VIP tag, Phone Number mapped per item. */
function removal(items: number): Parameters<typeof runNode>[1] {
	return {
		parameters: { resource: 'tag', operation: 'removeFromContact', phoneNumber: '={{ $json.phone }}', tagIds: [DEMO.tags.vip.id] },
		items: Array.from({ length: items }, () => ({ phone: DEMO.contacts.alice.phoneNumber })),
		continueOnFail: true,
	};
}

const removals = () => env.sandbox.requests.filter((r) => r.path === '/v2/tag/remove-from-contact');

describe('the credential: read once per run', () => {
	test('40 items: two reads in all (n8n\'s own before its loop, the node\'s first item), not two per item; every request authenticated', async () => {
		const reads = jest.spyOn(StoredCredentialsHelper.prototype, 'getDecrypted');
		const before = removals().length;
		try {
			const output = await runNode(env.sandbox, removal(40));
			expect(output).toHaveLength(40);
			expect(output.filter((item) => item.json.error !== undefined)).toEqual([]);
			// 2 = RoutingNode.prepareCredentials (n8n, once per run) + the node's one read (run.ts).
			// Before: 1 + 2 per item (the node's, and httpRequestWithAuthentication's): 81.
			expect(reads).toHaveBeenCalledTimes(2);
		} finally {
			reads.mockRestore();
		}
		// The sandbox checks the token of each request (401 without it): all 40 reached the API with it.
		expect(removals().length - before).toBe(40);
	});

	test('two runs read it again (a changed token is used by the next run)', async () => {
		const reads = jest.spyOn(StoredCredentialsHelper.prototype, 'getDecrypted');
		try {
			await runNode(env.sandbox, removal(3));
			await runNode(env.sandbox, removal(3));
			expect(reads).toHaveBeenCalledTimes(4);
		} finally {
			reads.mockRestore();
		}
	});

	test('a wrong token in the credential: every item fails with the API\'s 401, none is sent with another token', async () => {
		const output = await runNode(env.sandbox, { ...removal(5), apiToken: 'not-the-token' });
		expect(output.map((item) => item.json.httpCode)).toEqual(['401', '401', '401', '401', '401']);
	});
});

describe('slices: n8n\'s event loop turns while a large input is prepared', () => {
	test("300 items: when n8n's loop has evaluated every item's phone twice, the node has read at most 50 (one slice) before n8n's event loop turns; then all 300 are sent", async () => {
		const ITEMS = 300;
		// n8n's loop evaluates the mapped phone twice per item (its two passes over the properties);
		// the node reads it once more in its own part (evaluations.test.ts: 3 per item). The node's part
		// starts only after n8n's loop, so the 600th evaluation marks the loop's end.
		const evaluator = Expression.prototype as unknown as { renderExpression: (expression: string, data: unknown) => unknown };
		let evaluations = 0;
		let atFirstTurn: number | undefined;
		const real = evaluator.renderExpression;
		const counting = jest.spyOn(evaluator, 'renderExpression').mockImplementation(function (this: unknown, expression: string, data: unknown) {
			if (String(expression).includes('$json.phone')) {
				evaluations++;
				if (evaluations === 2 * ITEMS) setImmediate(() => (atFirstTurn = evaluations - 2 * ITEMS));
			}
			return real.call(this, expression, data);
		});
		const before = removals().length;
		try {
			const output = await runNode(env.sandbox, removal(ITEMS));
			expect(output).toHaveLength(ITEMS);
			expect(output.filter((item) => item.json.error !== undefined)).toEqual([]);
		} finally {
			counting.mockRestore();
		}
		expect(evaluations).toBe(3 * ITEMS);
		// The node's reads done before n8n's event loop first turned after its loop: one slice at most.
		// Without slices all 300 are read (and their requests built) before n8n answers anything.
		expect(atFirstTurn).toBeDefined();
		expect(atFirstTurn).toBeLessThanOrEqual(50);
		expect(removals().length - before).toBe(ITEMS);
	});

	test('a cancel while items wait for their slice: each waiting item is refused with the cancel, none runs after it', async () => {
		const cancel = new AbortController();
		const slices = new Slices(cancel.signal);
		const outcomes = Array.from({ length: 120 }, () =>
			slices.turn().then(
				() => 'ran',
				(error: Error) => error.message,
			),
		);
		cancel.abort(new Error('cancelled by the test'));
		const results = await Promise.all(outcomes);
		const ran = results.filter((r) => r === 'ran').length;
		expect(results.filter((r) => r !== 'ran')).toEqual(Array.from({ length: 120 - ran }, () => 'cancelled by the test'));
		// Only the first slice (taken before the cancel) ran.
		expect(ran).toBeGreaterThanOrEqual(1);
		expect(ran).toBeLessThanOrEqual(50);
	});
});
