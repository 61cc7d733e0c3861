import type { INodeParameters } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { DEMO } from '../sandbox';
import { runNode, runNodeError, useSandbox } from '../helpers/node-runner';
import { updateTrigger, VALID } from '../reliability/operations';

const ctx = useSandbox();

const ID = DEMO.tags.vip.id;
const long = (n: number): string => 'x'.repeat(n);

// The valid parameters the reliability suites use too; each test changes one field.
// The table of bad inputs (field, rule, message; one item and several) is
// test/reliability/bad-input.test.ts; these are the cases around it: which item is named, and what
// is sent once the input is valid.
const removeTags = (extra: INodeParameters): INodeParameters => ({ ...VALID.tagRemove, ...extra });

describe('validation before sending: NodeOperationError naming field, rule and item; no request', () => {
	test('the item is named: item 2 fails, items 0 and 1 are sent, item 2 is not', async () => {
		const error = await runNodeError(ctx.sandbox, {
			items: [
				{ phone: DEMO.contacts.alice.phoneNumber },
				{ phone: DEMO.contacts.lid.phoneNumber },
				{ phone: '12345' },
			],
			parameters: {
				resource: 'customField',
				operation: 'get',
				phoneNumber: '={{ $json.phone }}',
			},
		});
		expect(error.message).toBe(
			'Invalid Phone Number: must be 8-30 characters, got 5 characters [item 2]',
		);
		expect((error.context as { itemIndex: number }).itemIndex).toBe(2);
		expect(ctx.sandbox.requests.map((r) => r.query.phoneNumber).sort()).toEqual(
			[DEMO.contacts.alice.phoneNumber, DEMO.contacts.lid.phoneNumber].sort(),
		);
	});

	test('one item in: one sentence with the display name, the rule and the unit; no item number; the description says what to do', async () => {
		const error = await runNodeError(ctx.sandbox, {
			parameters: { resource: 'customField', operation: 'get', phoneNumber: '12345' },
		});
		expect(error.message).toBe('Invalid Phone Number: must be 8-30 characters, got 5 characters');
		expect(error.description).toBe("Give the contact's number with country and area code, e.g. 5511987650001 or +55 11 98765-0001 (8-30 characters: digits, with an optional +, spaces, dashes, dots or parentheses). Nothing was sent to the API.");
		expect(`${error.message} ${error.description}`).not.toMatch(/\bitems?\b|phoneNumber|count from/i);
		// n8n still learns the item from the options and shows it its own way.
		expect((error.context as { itemIndex: number }).itemIndex).toBe(0);
		expect(ctx.sandbox.requests).toHaveLength(0);
	});

	test('several items in: the first item is named too, counting from 0 as n8n does ([item 0])', async () => {
		const out = await runNode(ctx.sandbox, {
			continueOnFail: true,
			items: [{ phone: '12345' }, { phone: DEMO.contacts.alice.phoneNumber }],
			parameters: { resource: 'customField', operation: 'get', phoneNumber: '={{ $json.phone }}' },
		});
		expect(out[0].json.error).toBe('Invalid Phone Number: must be 8-30 characters, got 5 characters [item 0]');
		expect(out[0].json.description).toBe(
			"Give the contact's number with country and area code, e.g. 5511987650001 or +55 11 98765-0001 (8-30 characters: digits, with an optional +, spaces, dashes, dots or parentheses). Nothing was sent to the API for this item.",
		);
		expect(out[1].error).toBeUndefined();
		expect(ctx.sandbox.requests).toHaveLength(1);
	});

	test('under continueOnFail the error item carries the NodeOperationError itself', async () => {
		const out = await runNode(ctx.sandbox, {
			continueOnFail: true,
			parameters: { resource: 'tag', operation: 'create', name: long(256) },
		});
		expect(out).toHaveLength(1);
		expect(out[0].error).toBeInstanceOf(NodeOperationError);
		expect(out[0].json.error).toBe('Invalid Name: must be 1-255 characters, got 256 characters');
		expect(ctx.sandbox.requests).toHaveLength(0);
	});

	test('values are normalised before sending: spaces around IDs and phone numbers are trimmed', async () => {
		await runNode(ctx.sandbox, {
			parameters: removeTags({ phoneNumber: ` ${DEMO.contacts.alice.phoneNumber} `, tagIds: [` ${ID} `] }),
		});
		expect(ctx.sandbox.requests[0].body).toEqual({
			phoneNumber: DEMO.contacts.alice.phoneNumber,
			tagIds: [ID],
		});
	});

	test('numbers and booleans given as text by expressions are sent as JSON numbers and booleans', async () => {
		await runNode(ctx.sandbox, {
			parameters: updateTrigger({ delayMinutes: '={{ "7" }}', moveToQueue: '={{ "true" }}' }),
		});
		expect(ctx.sandbox.requests[0].body).toMatchObject({ delayMinutes: 7, moveToQueue: true });
	});
});
