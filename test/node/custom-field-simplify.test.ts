/**
 * Custom Field → Get, Simplify (issue 36, point 7): a node added from now on (version 2) gives one
 * item with the phone number and each field's key with its value; a workflow saved with 0.1.0
 * (version 1) keeps the API's shape, and so does version 2 with Simplify off. Through n8n-core's
 * RoutingNode against the sandbox; the expected values are the sandbox's seeded contact (Alice).
 */
import { NodeHelpers } from 'n8n-workflow';

import { runNode, useSandbox } from '../helpers/node-runner';
import { makeWorkflow } from '../helpers/n8n-harness';
import { NODE_TYPE, versioned } from '../editor/helpers';
import { actionDescription } from '../helpers/action-node';
import { DEMO } from '../sandbox';

const ctx = useSandbox();
const ALICE = DEMO.contacts.alice.phoneNumber;
const GET = { resource: 'customField', operation: 'get', phoneNumber: ALICE };

/** Alice's custom fields as the sandbox seeds them (test/sandbox/seed.ts). */
const ALICE_FIELDS = { cpf: '123.456.789-00', birthday: null, plan: 'pro', score: null, favoriteColor: 'blue' };

describe('Custom Field → Get: Simplify', () => {
	test('a new node (version 2): one item, the phone number and each field\'s key with its value', async () => {
		const out = await runNode(ctx.sandbox, { parameters: GET });
		expect(out.map((item) => item.json)).toEqual([{ ...ALICE_FIELDS, phoneNumber: ALICE }]);
		expect(out[0].pairedItem).toEqual({ item: 0 });
		expect(ctx.sandbox.requests.map((request) => request.query)).toEqual([{ phoneNumber: ALICE }]);
	});

	test('the number is the one the item asked for, as typed', async () => {
		const out = await runNode(ctx.sandbox, { parameters: { ...GET, phoneNumber: '+55 11 98765-0001' } });
		expect(out.map((item) => item.json.phoneNumber)).toEqual(['+55 11 98765-0001']);
	});

	test.each([
		['a workflow saved with 0.1.0 (version 1)', { typeVersion: 1, parameters: GET }],
		['version 2 with Simplify off', { typeVersion: 2, parameters: { ...GET, simplify: false } }],
	])('%s: the API\'s shape { fields, assignedTemplateIds }, as before', async (_name, run) => {
		const out = await runNode(ctx.sandbox, run);
		expect(out).toHaveLength(1);
		expect(Object.keys(out[0].json).sort()).toEqual(['assignedTemplateIds', 'fields']);
		const fields = out[0].json.fields as Array<{ key: string; value: unknown }>;
		expect(Object.fromEntries(fields.map((field) => [field.key, field.value]))).toEqual(ALICE_FIELDS);
	});

	test('the panel: Simplify, on by default, in version 2 only', () => {
		const shownAt = (typeVersion: number) => {
			const { node: workflowNode } = makeWorkflow(NODE_TYPE, versioned, GET, { typeVersion });
			const description = actionDescription(typeVersion);
			return description.properties.filter((property) =>
				NodeHelpers.displayParameter(workflowNode.parameters, property, workflowNode, description, workflowNode.parameters),
			);
		};
		expect(shownAt(2).find((property) => property.name === 'simplify')).toMatchObject({ type: 'boolean', default: true });
		expect(shownAt(1).map((property) => property.name)).not.toContain('simplify');
	});
});
