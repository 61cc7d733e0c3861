/**
 * The answer-shape rows of the variant suite (test/variants/shapes.ts): every operation under every
 * answer shape that applies to it, through n8n-core's real RoutingNode against the sandbox. A
 * shape the node reads gives exactly the output of the spec's shape; one it cannot read is an
 * error that names what was expected and what came; an error in any shape shows the API's whole
 * explanation.
 */
import type { INodeExecutionData } from 'n8n-workflow';

import { runNode, runNodeError, useSandbox } from '../helpers/node-runner';
import { ERROR_SHAPES, SUCCESS_SHAPES } from '../sandbox';
import { OPERATIONS, SHAPE_ROWS, SPEC_RESULT } from './shapes';

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
		expect(new Set(SHAPE_ROWS.map((row) => row.shape))).toEqual(new Set([...SUCCESS_SHAPES, ...ERROR_SHAPES]));
		for (const shape of ERROR_SHAPES) {
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
		for (const { fault, names } of row.faults ?? [{ fault: undefined, names: row.names ?? [] }]) {
			sandbox.reset();
			sandbox.setVariants(row.variants);
			if (fault) sandbox.addFault(fault);
			const error = await runNodeError(sandbox, { parameters: row.parameters });
			const text = `${error.message}\n${String(error.description)}`;
			for (const name of names) expect(text).toMatch(name);
			expect(text).not.toContain('The API sent no message');
		}
	});
});
