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

/** A request error that has nothing to do with any assumption. */
const UNRELATED_400 = 'the request was refused for a reason of its own';
const textOf = (error: Error & { description?: unknown }): string => `${error.message}\n${String(error.description)}`;

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
		if (row.outcome === 'right') {
			sandbox.setVariants(row.variants);
			const out = await runNode(sandbox, { parameters: row.parameters, items: row.items });
			row.right(out, sandbox);
			return;
		}
		// The same run against an unrelated 400, without the variant: its error names the operation's
		// assumptions too, so only `because` tells the variant's error from it.
		sandbox.addFault({ kind: 'status', status: 400, message: UNRELATED_400 });
		const control = textOf(await runNodeError(sandbox, { parameters: row.parameters, items: row.items }));
		expect(control).toContain(UNRELATED_400);
		sandbox.reset();
		sandbox.setVariants(row.variants);

		const text = textOf(await runNodeError(sandbox, { parameters: row.parameters, items: row.items }));
		for (const name of row.names ?? []) expect(text).toMatch(name);
		expect(row.because).toBeInstanceOf(RegExp);
		expect(text).toMatch(row.because as RegExp);
		expect(control).not.toMatch(row.because as RegExp);
		expect(text).not.toEqual(control);
		expect(sandbox.requests.length).toBeGreaterThanOrEqual(1);
		expect(sandbox.requests.length).toBeLessThanOrEqual(2);
		if (row.fix) {
			sandbox.clearRequests();
			const out = await runNode(sandbox, { parameters: row.fix, items: row.items });
			row.right(out, sandbox);
		}
	});
});
