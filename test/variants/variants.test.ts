/**
 * The variant suite (issue 12): every row of test/variants/rows.ts runs its operation through
 * n8n-core's real RoutingNode against the sandbox switched to the row's variant, and asserts the
 * row's outcome: the right result, or an error naming the assumption and the option that fixes it
 * (and, where an option fixes it, the right result with that option set). Every run is bounded:
 * an error row sends at most 2 requests (one repeated page at most), and each walk is capped.
 */
import { runNode, runNodeError, useSandbox } from '../helpers/node-runner';
import { ROWS } from './rows';

const ctx = useSandbox();

describe('the node under every variant: right, or loudly wrong with the fix named', () => {
	test('the table covers every README assumption row and the issue\'s other open facts', () => {
		const covered = ROWS.map((row) => row.assumption).join('\n');
		for (const endpoint of [
			'/tag/list-contacts',
			'/automation/edit',
			'/integration/webhook/create',
			'/provider-template/list',
			'/group/get-invite-url',
			'/inbox/get-custom-fields-from-chat',
			'/inbox/find-all-chats',
			'/inbox/find-messages-from-inbox',
		]) {
			expect(covered).toContain(endpoint);
		}
		const switches = new Set(ROWS.flatMap((row) => Object.keys(row.variants)));
		expect([...switches].sort()).toEqual(
			['cursorIgnored', 'defaultErrorText', 'editFullReplace', 'extraFieldShape', 'lenient', 'offsetIgnored', 'pageSizeCap', 'pagingNames', 'renamed', 'sharedPhones'].sort(),
		);
	});

	test.each(ROWS.map((row) => [`${row.assumption} | ${row.alternative}`, row] as const))('%s', async (_label, row) => {
		const { sandbox } = ctx;
		sandbox.setVariants(row.variants);
		if (row.outcome === 'right') {
			const out = await runNode(sandbox, { parameters: row.parameters, items: row.items });
			row.right(out, sandbox);
			return;
		}
		const error = await runNodeError(sandbox, { parameters: row.parameters, items: row.items });
		const text = `${error.message}\n${String(error.description)}`;
		for (const name of row.names ?? []) expect(text).toMatch(name);
		expect(sandbox.requests.length).toBeGreaterThanOrEqual(1);
		expect(sandbox.requests.length).toBeLessThanOrEqual(2);
		if (row.fix) {
			sandbox.clearRequests();
			const out = await runNode(sandbox, { parameters: row.fix, items: row.items });
			row.right(out, sandbox);
		}
	});
});
