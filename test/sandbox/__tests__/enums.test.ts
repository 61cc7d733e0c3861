/**
 * The sandbox writes the API's enumerations out on its own (test/sandbox/types.ts) so that it stays
 * an independent stand-in for the API; the node offers them as option lists
 * (nodes/shared/constants.ts). Here the two are held together: a value added to, dropped from or
 * misspelt in either list fails, instead of the node offering what the sandbox refuses (or never
 * offering what it accepts). Order is the node's choice (the panel's), so sets are compared.
 */
import type { INodePropertyOptions } from 'n8n-workflow';

import * as node from '../../../nodes/shared/constants';
import * as sandbox from '../types';

const values = (options: INodePropertyOptions[]): string[] => options.map((option) => String(option.value)).sort();

const PAIRS: Array<[string, readonly string[], INodePropertyOptions[]]> = [
	['chat categories', sandbox.CHAT_CATEGORIES, node.CHAT_CATEGORY_OPTIONS],
	['automation trigger types', sandbox.TRIGGER_TYPES, node.TRIGGER_TYPE_OPTIONS],
	['chat types', sandbox.CHAT_TYPES, node.CHAT_TYPE_OPTIONS],
	['transfer types', sandbox.TRANSFER_TYPES, node.TRANSFER_TYPE_OPTIONS],
	['webhook methods', sandbox.WEBHOOK_METHODS, node.HTTP_METHOD_OPTIONS],
	['webhook event types', sandbox.EVENT_TYPES, node.WEBHOOK_EVENT_OPTIONS],
	['template statuses', sandbox.TEMPLATE_STATUSES, node.TEMPLATE_STATUS_OPTIONS],
];

describe('the sandbox and the node list the same enumerations', () => {
	test.each(PAIRS)('%s', (_name, sandboxValues, nodeOptions) => {
		expect(values(nodeOptions)).toEqual([...sandboxValues].sort());
		// No value twice on either side (a set comparison would hide it).
		expect(new Set(sandboxValues).size).toBe(sandboxValues.length);
	});

	test('a message is caused by one of the transfer types a webhook can filter on', () => {
		for (const kind of sandbox.MESSAGE_TRANSFER_TYPES) expect(values(node.TRANSFER_TYPE_OPTIONS)).toContain(kind);
	});

	test('the ID rule', () => {
		expect(sandbox.ID_PATTERN.source).toBe(node.ID_PATTERN.source);
		expect(sandbox.ID_PATTERN.flags).toBe(node.ID_PATTERN.flags);
	});
});
