/* eslint-disable -- development tooling, not shipped: n8n's node rules (eslint.config.mjs, n8n-node lint) are for nodes/ and credentials/ */
/**
 * Expression evaluations per item (issue 31; DESIGN.md, "Cost per item"; docs/performance.md).
 *
 * n8n's routing engine prepares every input item before any request leaves, and resolves the value
 * of every property of the node twice per item (RoutingNode.runNode and resolveBaseUrl), shown or
 * not; n8n 2.x evaluates each expression in an isolated VM (about 0.5 ms). So each evaluation per
 * item is paid by every item of a large input while n8n answers nothing.
 *
 * Each case runs one operation through n8n-core's RoutingNode with n8n-workflow's own `Expression`,
 * one field mapped to `={{ $json.value }}` over three items, and counts the evaluations
 * (Expression.renderExpression, the call that evaluates one expression): those of the mapped value,
 * and every other one (the node's own; the Base URL's `={{ $credentials.baseUrl }}` was one). The
 * figures are the documented ones (docs/performance.md), as literals.
 */
import type { INodeParameters, NodeParameterValue } from 'n8n-workflow';
import { Expression } from 'n8n-workflow';

import { DEMO } from '../sandbox';
import { VALID } from '../reliability/operations';
import { runNode, useSandbox } from '../helpers/node-runner';

const MAPPED = '={{ $json.value }}';
const ITEMS = 3;

interface Case {
	/** what the row names: resource.operation (version), mapped field */
	name: string;
	parameters: INodeParameters;
	/** the mapped parameter; a resource locator is mapped in its value (in mode 'id', or the mode named) */
	field: string;
	locator?: boolean | string;
	value: NodeParameterValue;
	typeVersion: 1 | 2;
	/** documented evaluations per item: of the mapped value, and of the node's own expressions */
	mapped: number;
	own: number;
}

const ALICE = DEMO.contacts.alice.phoneNumber;
const WHATSAPP = DEMO.integrations.whatsapp.id;

/**
 * One operation of every resource (and the forms version 1 keeps), each with its main field mapped.
 * 3 = n8n's two passes over the one property of that name, plus the node's one read. Each version
 * has its own description (n8n's VersionedNodeType, issue 44), so a property of one version costs
 * nothing in the other. 5 where a second property of the version has the name and cannot be shared:
 * Integration (Template → Get Many's, since Integration → Get Many has none: n8n's display rules
 * cannot show one property for exactly these operations); in version 1 also Name (Automation →
 * Update's top-level Name) and Tag ID (Automation → Update's, shown by Trigger Type). Changed by
 * issue 43/44: Tag → Create's Name 5 → 3 and version 1's Tag ID 7 → 5 (version 1's properties left
 * version 2's description); Stop in Chat's Chat is one field whose mode says how the chat is
 * found, 3 whichever mode. The node's own: none (it had the Base URL, `={{ $credentials.baseUrl
 * }}`, resolved in both passes: 2 per item until issue 31's second step).
 */
const CASES: Case[] = [
	{ name: 'tag.removeFromContact, Phone Number', parameters: VALID.tagRemove, field: 'phoneNumber', value: ALICE, typeVersion: 2, mapped: 3, own: 0 },
	{ name: 'tag.removeFromContact v1, Phone Number', parameters: VALID.tagRemove, field: 'phoneNumber', value: ALICE, typeVersion: 1, mapped: 3, own: 0 },
	{ name: 'tag.create, Name', parameters: VALID.tagCreate, field: 'name', value: 'Fresh tag', typeVersion: 2, mapped: 3, own: 0 },
	{ name: 'tag.create v1, Name', parameters: VALID.tagCreate, field: 'name', value: 'Fresh tag', typeVersion: 1, mapped: 5, own: 0 },
	{ name: 'tag.getContacts, Tag', parameters: VALID.tagContacts, field: 'tag', locator: true, value: DEMO.tags.vip.id, typeVersion: 2, mapped: 3, own: 0 },
	{
		name: 'tag.getContacts v1, Tag ID',
		parameters: { resource: 'tag', operation: 'getContacts', limit: 10 },
		field: 'tagId',
		value: DEMO.tags.vip.id,
		typeVersion: 1,
		mapped: 5,
		own: 0,
	},
	{ name: 'automation.delete, Automation Trigger ID', parameters: VALID.automationDelete, field: 'automationTriggerId', value: DEMO.triggers.webhook.id, typeVersion: 2, mapped: 3, own: 0 },
	{ name: 'automation.update, Automation Trigger ID', parameters: VALID.automationUpdate, field: 'automationTriggerId', value: DEMO.triggers.anyMessage.id, typeVersion: 2, mapped: 3, own: 0 },
	{
		name: 'automation.update v1, Automation Trigger ID',
		parameters: { resource: 'automation', automationTriggerId: '', name: 'Lead follow-up', description: 'Follows up new leads', triggerType: 'ADD_TAG_TO_CONTACT', tagId: DEMO.tags.lead.id },
		field: 'automationTriggerId',
		value: DEMO.triggers.addTag.id,
		typeVersion: 1,
		mapped: 3,
		own: 0,
	},
	{ name: 'automation.stopInChat, Chat', parameters: VALID.stopInChat, field: 'chat', locator: true, value: DEMO.chats.botFlow.id, typeVersion: 2, mapped: 3, own: 0 },
	{
		name: 'automation.stopInChat, Chat by phone number',
		parameters: VALID.stopInChat,
		field: 'chat',
		locator: 'phoneNumber',
		value: DEMO.contacts.twoLines.phoneNumber,
		typeVersion: 2,
		mapped: 3,
		own: 0,
	},
	{ name: 'automation.stopInChat v1, Chat', parameters: { resource: 'automation', operation: 'stopInChat' }, field: 'chatInternalId', locator: true, value: DEMO.chats.botFlow.id, typeVersion: 1, mapped: 3, own: 0 },
	{ name: 'automation.stopInChat v1, Phone Number', parameters: { resource: 'automation', operation: 'stopInChat' }, field: 'phoneNumber', value: DEMO.contacts.twoLines.phoneNumber, typeVersion: 1, mapped: 3, own: 0 },
	{ name: 'botIntegration.create, URL', parameters: VALID.botCreate, field: 'url', value: 'https://bots.example.com/api/v1/bots/sales', typeVersion: 2, mapped: 3, own: 0 },
	{ name: 'chat.getAll, Limit', parameters: VALID.chatList, field: 'limit', value: 10, typeVersion: 2, mapped: 3, own: 0 },
	{ name: 'customField.get, Phone Number', parameters: VALID.customFieldGet, field: 'phoneNumber', value: ALICE, typeVersion: 2, mapped: 3, own: 0 },
	{ name: 'customField.upsert, Phone Number', parameters: VALID.customFieldUpsert, field: 'phoneNumber', value: ALICE, typeVersion: 2, mapped: 3, own: 0 },
	{
		name: 'customField.upsert v1, Phone Number',
		parameters: {
			resource: 'customField',
			operation: 'upsert',
			inputs: { templateField: [{ templateFieldId: DEMO.customFields.profile.fields.plan, valueJson: '"Gold"' }] },
		},
		field: 'phoneNumber',
		value: ALICE,
		typeVersion: 1,
		mapped: 3,
		own: 0,
	},
	{ name: 'group.getInviteUrl, Integration', parameters: VALID.groupInvite, field: 'integrationId', locator: true, value: WHATSAPP, typeVersion: 2, mapped: 5, own: 0 },
	{ name: 'integration.validatePhoneNumber, Phone Number', parameters: VALID.validatePhone, field: 'phoneNumber', value: ALICE, typeVersion: 2, mapped: 3, own: 0 },
	{ name: 'message.getAll, Chat', parameters: VALID.messageList, field: 'chatInternalId', locator: true, value: DEMO.chats.alice.id, typeVersion: 2, mapped: 3, own: 0 },
	{ name: 'message.getAll v1, Chat', parameters: VALID.messageList, field: 'chatInternalId', locator: true, value: DEMO.chats.alice.id, typeVersion: 1, mapped: 3, own: 0 },
	{ name: 'integration.validatePhoneNumber v1, Phone Number', parameters: VALID.validatePhone, field: 'phoneNumber', value: ALICE, typeVersion: 1, mapped: 3, own: 0 },
	{ name: 'template.getAll, Integration', parameters: VALID.templateList, field: 'integrationId', locator: true, value: DEMO.integrations.official.id, typeVersion: 2, mapped: 5, own: 0 },
	{ name: 'user.getAll, Limit', parameters: VALID.userList, field: 'limit', value: 10, typeVersion: 2, mapped: 3, own: 0 },
	{ name: 'webhook.create, URL', parameters: VALID.webhookCreate, field: 'url', value: 'https://example.com/hook', typeVersion: 2, mapped: 3, own: 0 },
];

/** The parameters with `field` mapped to the items' `value`. */
function mapped(c: Case): INodeParameters {
	const value = c.locator ? { __rl: true, mode: typeof c.locator === 'string' ? c.locator : 'id', value: MAPPED } : MAPPED;
	return { ...c.parameters, [c.field]: value };
}

describe('expression evaluations per item (docs/performance.md)', () => {
	const env = useSandbox();
	const table: string[] = [];

	afterAll(() => {
		// The figures docs/performance.md documents: `npx jest test/node/evaluations.test.ts`.
		console.log(['evaluations per item: mapped value / node\'s own', ...table].join('\n'));
	});

	test.each(CASES.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
		// Counts, and calls through (jest.spyOn keeps the real evaluation).
		// renderExpression evaluates one expression (n8n-workflow's Expression; not in its public types).
		const evaluator = Expression.prototype as unknown as { renderExpression: (expression: string, data: unknown) => unknown };
		const counting = jest.spyOn(evaluator, 'renderExpression');
		try {
			const output = await runNode(env.sandbox, {
				parameters: mapped(c),
				items: Array.from({ length: ITEMS }, () => ({ value: c.value })),
				typeVersion: c.typeVersion,
				continueOnFail: true,
			});
			const calls = counting.mock.calls.map(([expression]) => String(expression));
			const ofMapped = calls.filter((expression) => expression.includes('$json.value')).length;
			const own = calls.length - ofMapped;
			table.push(`${c.name}: ${ofMapped / ITEMS} / ${own / ITEMS}`);
			// Every item was sent (a run that failed before sending would count less); the API may refuse
			// the second Create of one name, or the second Delete.
			const unsent = output.filter((item) => item.json.error !== undefined && item.json.httpCode === undefined);
			expect(unsent.map((item) => item.json.error)).toEqual([]);
			expect(output.length).toBeGreaterThanOrEqual(ITEMS);
			expect({ mapped: ofMapped / ITEMS, own: own / ITEMS }).toEqual({ mapped: c.mapped, own: c.own });
		} finally {
			counting.mockRestore();
		}
	});
});
