/**
 * The answer-shape rows of the variant suite (test/variants/shapes.ts): every operation under every
 * answer shape that applies to it, through n8n-core's real RoutingNode against the sandbox. A
 * shape the node reads gives exactly the output of the spec's shape; one it cannot read is an
 * error that names what was expected and what came; an error in any shape shows the API's whole
 * explanation.
 */
import type { INodeExecutionData } from 'n8n-workflow';

import { runNode, runNodeError, useSandbox } from '../helpers/node-runner';
import type { Fault } from '../sandbox';
import { BODY_SHAPES, ERROR_SHAPES, SUCCESS_SHAPES } from '../sandbox';
import { OPERATIONS, REASON, SHAPE_ROWS, SPEC_RESULT } from './shapes';

const ctx = useSandbox();

/** Times differ between two runs (createdAt of a new tag); everything else must not. */
const withoutTimes = (items: INodeExecutionData[]): unknown =>
	JSON.parse(JSON.stringify(items.map((item) => item.json)), (_key, value: unknown) =>
		typeof value === 'string' && /^\d{4}-\d\d-\d\dT\d\d:\d\d/.test(value) ? '<time>' : value,
	);

describe('the node under every answer shape: the same result, or an error naming what came', () => {
	test('the rows cover every operation and every shape', () => {
		for (const operation of OPERATIONS) {
			expect(operation.parameters).toBeDefined();
			expect(Object.keys(SPEC_RESULT)).toContain(operation.endpoint);
		}
		expect(new Set(SHAPE_ROWS.map((row) => row.shape))).toEqual(new Set([...SUCCESS_SHAPES, ...ERROR_SHAPES, ...BODY_SHAPES]));
		for (const shape of [...ERROR_SHAPES, ...BODY_SHAPES]) {
			expect(SHAPE_ROWS.filter((row) => row.shape === shape).map((row) => row.endpoint)).toEqual(OPERATIONS.map((operation) => operation.endpoint));
		}
	});

	test.each(SHAPE_ROWS.map((row) => [row.label, row] as const))('%s', async (_label, row) => {
		const { sandbox } = ctx;
		if (row.outcome === 'same') {
			const spec = { ...row.variants };
			delete spec.shapes;
			sandbox.setVariants(spec);
			const expected = await runNode(sandbox, { parameters: row.parameters });
			sandbox.reset();
			sandbox.setVariants(row.variants);
			const out = await runNode(sandbox, { parameters: row.parameters });
			expect(withoutTimes(out)).toEqual(withoutTimes(expected));
			return;
		}
		if (row.outcome === 'done') {
			sandbox.setVariants(row.variants);
			const out = await runNode(sandbox, { parameters: row.parameters });
			// One item: done, carrying exactly the body the API received.
			expect(out).toHaveLength(1);
			expect(out[0].json).toMatchObject({ success: true, sent: sandbox.requests[0].body });
			for (const name of row.names ?? []) expect(String(out[0].json.note)).toMatch(name);
			// What came: nothing, or the payload where the API put it (`data.result`).
			const envelope = String(SPEC_RESULT[row.endpoint]).split('.')[0];
			if (row.shape === 'nested') expect(out[0].json.answer).toMatchObject({ [envelope]: { result: expect.any(Object) } });
			else expect(out[0].json.answer).toEqual({});
			return;
		}
		// An error status, or success:false under 200; each row says what the error must name.
		const faultOf = (status: number): Fault =>
			status === 200 ? { kind: 'success-false', message: REASON, path: row.endpoint } : { kind: 'status', status, message: REASON, path: row.endpoint };
		const runs: Array<{ fault?: Fault; names: RegExp[]; never: RegExp[] }> = row.fault
			? (row.statuses ?? []).map((status) => ({ fault: faultOf(status), names: row.namesFor?.(status) ?? [], never: row.never?.(status) ?? [] }))
			: [{ names: row.names ?? [], never: [] }];
		expect(runs.length).toBeGreaterThan(0);
		for (const { fault, names, never } of runs) {
			sandbox.reset();
			sandbox.setVariants(row.variants);
			if (fault) sandbox.addFault(fault);
			const error = await runNodeError(sandbox, { parameters: row.parameters });
			const text = `${error.message}\n${String(error.description)}`;
			expect(names.length).toBeGreaterThan(0);
			for (const name of names) expect(text).toMatch(name);
			for (const name of never) expect(text).not.toMatch(name);
			expect(text).not.toContain('The API sent no message');
		}
	});
});
