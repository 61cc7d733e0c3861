/**
 * The variant table (docs/reliability.md → Variant sandbox): for every fact the spec leaves open and the node
 * assumes, the alternative a real API might choose (a sandbox switch, test/sandbox/variants.ts),
 * the affected operation, and what the node must do under it: give the right result, or fail with
 * an error naming the assumption and the option that fixes it — and then, with that option set,
 * give the right result. Never a silently wrong, truncated, doubled or endless result.
 */
import type { IDataObject, INodeExecutionData, INodeParameters } from 'n8n-workflow';

import type { Sandbox, Variants } from '../sandbox';
import { DEMO } from '../sandbox';

export interface VariantRow {
	/** the assumption (as the README's assumptions table words it) */
	assumption: string;
	/** what the variant API does instead */
	alternative: string;
	variants: Variants;
	parameters: INodeParameters;
	items?: IDataObject[];
	/** 'right': the node's output is right as it is; 'error': it stops with a clear error */
	outcome: 'right' | 'error';
	/** for 'error': what the message or description must say (the assumption and the option) */
	names?: RegExp[];
	/**
	 * for 'error': what only this variant's answer makes the node say. The row also runs without the
	 * variant against an unrelated 400, whose error names the assumptions too (every request error
	 * does): `because` must be absent there, so the row cannot pass for any 400.
	 */
	because?: RegExp;
	/** for 'error': the option set that makes the same run right */
	fix?: INodeParameters;
	/** the right result, checked against the sandbox's state */
	right: (out: INodeExecutionData[], sandbox: Sandbox) => void;
}

const WHATSAPP = DEMO.integrations.whatsapp.id;
const OFFICIAL = DEMO.integrations.official.id;
const ALICE = DEMO.contacts.alice.phoneNumber;
const rename = (pairs: Record<string, string>): INodeParameters => ({
	renameFields: { field: Object.entries(pairs).map(([from, to]) => ({ from, to })) },
});
const ids = (out: INodeExecutionData[]): unknown[] => out.map((item) => item.json.id);
const RENAME_OPTION = /Options → Rename Sent Fields/;

// The operations the rows run, with the options a fix adds.
const contacts = (options: INodeParameters = {}): INodeParameters => ({
	resource: 'tag',
	operation: 'getContacts',
	tagId: DEMO.tags.big.id,
	returnAll: true,
	options,
});
const chats = (options: INodeParameters = {}, extra: INodeParameters = {}): INodeParameters => ({
	resource: 'chat',
	operation: 'getAll',
	returnAll: true,
	...extra,
	options,
});
const messages = (options: INodeParameters = {}): INodeParameters => ({
	resource: 'message',
	operation: 'getAll',
	chatInternalId: DEMO.chats.alice.id,
	returnAll: true,
	options,
});
const templates = (options: INodeParameters = {}, filters: INodeParameters = {}): INodeParameters => ({
	resource: 'template',
	operation: 'getAll',
	integrationId: OFFICIAL,
	returnAll: true,
	filters,
	options,
});
const updateTrigger = (updateFields: INodeParameters, options: INodeParameters = {}): INodeParameters => ({
	resource: 'automation',
	operation: 'update',
	automationTriggerId: DEMO.triggers.firstMessage.id,
	updateFields,
	options,
});
const webhook = (options: INodeParameters = {}): INodeParameters => ({
	resource: 'webhook',
	operation: 'create',
	integrationId: WHATSAPP,
	url: 'https://example.com/variant-hook',
	type: 'MESSAGE_SENT',
	method: 'PUT',
	additionalFields: { transferType: 'API' },
	options,
});
const invite = (options: INodeParameters = {}): INodeParameters => ({
	resource: 'group',
	operation: 'getInviteUrl',
	integrationId: WHATSAPP,
	groupJid: DEMO.group.jid,
	options,
});
const customFields = (options: INodeParameters = {}): INodeParameters => ({
	resource: 'customField',
	operation: 'get',
	phoneNumber: ALICE,
	options,
});
const upsertExtra = (extraFieldInputs: string): INodeParameters => ({
	resource: 'customField',
	operation: 'upsert',
	phoneNumber: ALICE,
	inputs: {},
	additionalFields: { extraFieldInputs },
});

// The right results, read from the sandbox's state.
const allContacts = (out: INodeExecutionData[], sandbox: Sandbox): void => {
	expect(out.map((item) => item.json.phoneNumber)).toEqual(sandbox.state.tagMembers(DEMO.tags.big.id).map((m) => m.phoneNumber));
};
const allChats = (category = 'attendance') => (out: INodeExecutionData[], sandbox: Sandbox): void => {
	expect(ids(out)).toEqual(sandbox.state.chatsIn(category as never).map((chat) => chat.id));
};
const allMessages = (out: INodeExecutionData[], sandbox: Sandbox): void => {
	expect(ids(out)).toEqual([...sandbox.state.chats.get(DEMO.chats.alice.id)!.messages].reverse().map((m) => m.id));
};
const allTemplates = (status?: string) => (out: INodeExecutionData[], sandbox: Sandbox): void => {
	const list = sandbox.state.templates.get(OFFICIAL)!.list.filter((t) => !status || t.status === status);
	expect(ids(out)).toEqual(list.map((t) => t.id));
};
const webhookCreated = (out: INodeExecutionData[], sandbox: Sandbox): void => {
	expect(out[0].json).toMatchObject({ method: 'PUT', type: 'MESSAGE_SENT', transferType: 'API' });
	// The webhook the fixed run created has the chosen settings (under a lenient API, the first run's
	// webhook also exists: the error said so, and the API cannot delete webhooks).
	expect(sandbox.state.webhooks.get(String(out[0].json.id))).toMatchObject({ method: 'PUT', type: 'MESSAGE_SENT', transferType: 'API' });
};

const PAGING_NAMES = { offset: 'skip', limit: 'take', cursor: 'cursor' };
const SKIP_TAKE = { offsetParameter: 'skip', pageSizeParameter: 'take' };

/** An offset list whose API pages with `skip`/`take` (and a page size of `cap` by default). */
function skipTakeRow(
	endpoint: string,
	build: (options?: INodeParameters) => INodeParameters,
	right: VariantRow['right'],
	cap: number,
): VariantRow {
	return {
		assumption: `${endpoint} pages with \`offset\`, \`limit\``,
		alternative: 'pages with `skip`, `take` (ours ignored)',
		variants: { pagingNames: PAGING_NAMES, pageSizeCap: cap },
		parameters: build(),
		outcome: 'error',
		names: [/"offset"/, /Options → Offset Parameter Name/],
		because: /ignore the query parameter "offset"/,
		fix: build(SKIP_TAKE),
		right,
	};
}

export const ROWS: VariantRow[] = [
	// ---- every row of README → Assumptions about the API -------------------------------------
	skipTakeRow('GET /tag/list-contacts', contacts, allContacts, 20),
	skipTakeRow('GET /inbox/find-all-chats', (options) => chats(options), allChats(), 10),
	skipTakeRow('GET /inbox/find-messages-from-inbox', messages, allMessages, 2),
	{
		assumption: 'POST /automation/edit names the filters `chatType`, `transferType`',
		alternative: '`chatTypeFilter`, `transferTypeFilter` (ours refused: 400)',
		variants: { renamed: { '/automation/edit': { chatType: 'chatTypeFilter', transferType: 'transferTypeFilter' } } },
		parameters: updateTrigger({ chatType: 'GROUP', transferType: 'USER' }),
		outcome: 'error',
		names: [/"chatType", "transferType"/, RENAME_OPTION],
		because: /The API's message names "chatType"/,
		fix: updateTrigger({ chatType: 'GROUP', transferType: 'USER' }, rename({ chatType: 'chatTypeFilter', transferType: 'transferTypeFilter' })),
		right: (_out, sandbox) => {
			expect(sandbox.state.triggers.get(DEMO.triggers.firstMessage.id)).toMatchObject({ chatType: 'GROUP', transferType: 'USER' });
		},
	},
	{
		assumption: 'POST /integration/webhook/create names `method`, `type`, `transferType`',
		alternative: '`httpMethod`, `eventType`, `transfer` (ours refused: 400)',
		variants: { renamed: { '/integration/webhook/create': { method: 'httpMethod', type: 'eventType', transferType: 'transfer' } } },
		parameters: webhook(),
		outcome: 'error',
		names: [/"method", "type", "transferType"/, RENAME_OPTION],
		because: /The API's message names "method"/,
		fix: webhook(rename({ method: 'httpMethod', type: 'eventType', transferType: 'transfer' })),
		right: webhookCreated,
	},
	{
		assumption: 'GET /provider-template/list names `integrationId`, `status`, `search`',
		alternative: '`integration`, `templateStatus`, `q` (ours refused: 400)',
		variants: { renamed: { '/provider-template/list': { integrationId: 'integration', status: 'templateStatus', search: 'q' } } },
		parameters: templates({}, { status: 'APPROVED' }),
		outcome: 'error',
		names: [/"integrationId", "status", "search"/, RENAME_OPTION],
		because: /The API's message names "integrationId"/,
		fix: templates(rename({ integrationId: 'integration', status: 'templateStatus' }), { status: 'APPROVED' }),
		right: allTemplates('APPROVED'),
	},
	{
		assumption: 'GET /provider-template/list pages with `limit`, `after`',
		alternative: 'pages with `pageSize`, `cursor` (ours ignored)',
		variants: { pagingNames: { cursor: 'cursor', limit: 'pageSize' } },
		parameters: templates(),
		outcome: 'error',
		names: [/"after"/, /Options → Cursor Parameter Name/],
		because: /ignore the query parameter "after"/,
		fix: templates({ cursorParameter: 'cursor', pageSizeParameter: 'pageSize' }),
		right: allTemplates(),
	},
	{
		assumption: 'GET /group/get-invite-url names `integrationId`, `groupJid`',
		alternative: '`integration`, `jid` (ours refused: 400)',
		variants: { renamed: { '/group/get-invite-url': { integrationId: 'integration', groupJid: 'jid' } } },
		parameters: invite(),
		outcome: 'error',
		names: [/"integrationId", "groupJid"/, RENAME_OPTION],
		because: /The API's message names "integrationId"/,
		fix: invite(rename({ integrationId: 'integration', groupJid: 'jid' })),
		right: (out) => expect(out[0].json.inviteUrl).toMatch(/^https:\/\/chat\.whatsapp\.com\//),
	},
	{
		assumption: 'GET /inbox/get-custom-fields-from-chat names `phoneNumber`',
		alternative: '`phone` (ours refused: 400)',
		variants: { renamed: { '/inbox/get-custom-fields-from-chat': { phoneNumber: 'phone' } } },
		parameters: customFields(),
		outcome: 'error',
		names: [/"phoneNumber"/, RENAME_OPTION],
		because: /The API's message names "phoneNumber"/,
		fix: customFields(rename({ phoneNumber: 'phone' })),
		// Version 2's Simplify (on by default): each field's key with its value, and the number it is
		// for although the query named it "phone".
		right: (out) => {
			expect(out[0].json).toHaveProperty('plan', 'pro');
			expect(out[0].json).toHaveProperty('phoneNumber', '5511987650001');
		},
	},
	{
		assumption: 'GET /inbox/find-all-chats names `category`, `integrationIds`, … (filters)',
		alternative: '`type`, `integrations` (ours refused: 400)',
		variants: { renamed: { '/inbox/find-all-chats': { category: 'type', integrationIds: 'integrations' } } },
		parameters: chats({}, { category: 'queue' }),
		outcome: 'error',
		names: [/"category", "integrationIds"/, RENAME_OPTION],
		because: /The API's message names "category"/,
		fix: chats(rename({ category: 'type' }), { category: 'queue' }),
		right: allChats('queue'),
	},
	{
		assumption: 'GET /inbox/find-messages-from-inbox names the chat `chatInternalId`',
		alternative: '`id` (ours refused: 400)',
		variants: { renamed: { '/inbox/find-messages-from-inbox': { chatInternalId: 'id' } } },
		parameters: messages(),
		outcome: 'error',
		names: [/"chatInternalId"/, RENAME_OPTION],
		because: /The API's message names "chatInternalId"/,
		fix: messages(rename({ chatInternalId: 'id' })),
		right: allMessages,
	},

	// The same names, on an API that silently ignores a field it does not know: where the answer
	// shows the field (the webhook record, a template's status), the node sees it and says so.
	{
		assumption: 'POST /integration/webhook/create names `method`, `transferType` (lenient API)',
		alternative: '`httpMethod`, `transfer`; ours silently ignored (`renamed` + `lenient`)',
		variants: { renamed: { '/integration/webhook/create': { method: 'httpMethod', transferType: 'transfer' } }, lenient: true },
		parameters: webhook(),
		outcome: 'error',
		names: [/created with method POST instead of PUT, transferType ALL instead of API/, RENAME_OPTION],
		because: /created with method POST instead of PUT/,
		fix: webhook(rename({ method: 'httpMethod', transferType: 'transfer' })),
		right: webhookCreated,
	},
	{
		assumption: 'GET /provider-template/list names the filter `status` (lenient API)',
		alternative: '`templateStatus`; ours silently ignored (`renamed` + `lenient`)',
		variants: { renamed: { '/provider-template/list': { status: 'templateStatus' } }, lenient: true },
		parameters: templates({}, { status: 'REJECTED' }),
		outcome: 'error',
		names: [/status is not REJECTED.*ignore the query parameter "status"/, RENAME_OPTION],
		because: /returned templates whose status is not REJECTED/,
		fix: templates(rename({ status: 'templateStatus' }), { status: 'REJECTED' }),
		right: allTemplates('REJECTED'),
	},

	// ---- the other open facts the issue lists -------------------------------------------------
	{
		assumption: 'automation/edit is a partial update (only the fields sent change)',
		alternative: 'a full replace that requires every field (400 naming the missing ones)',
		variants: { editFullReplace: true },
		parameters: updateTrigger({ name: 'Renamed' }),
		outcome: 'error',
		names: [/edits a trigger partially/, /add every field under Update Fields/],
		because: /required \(the edit replaces the whole trigger\)/,
		fix: updateTrigger({
			name: 'Renamed',
			description: 'Demo trigger',
			triggerType: 'RECEIVE_FIRST_MESSAGE',
			fieldsToClear: ['automationBotId'],
			integrations: [WHATSAPP],
			chatType: 'CONTACT',
			inAttendance: false,
			delayMinutes: 0,
			transferType: 'ALL',
			moveToQueue: false,
		}),
		right: (_out, sandbox) => {
			expect(sandbox.state.triggers.get(DEMO.triggers.firstMessage.id)).toMatchObject({ name: 'Renamed', triggerType: 'RECEIVE_FIRST_MESSAGE' });
		},
	},
	...(
		[
			['tag contacts', contacts(), allContacts, 30],
			['chats', chats(), allChats(), 7],
			['messages', messages(), allMessages, 2],
			['templates', templates(), allTemplates(), 25],
		] as const
	).map(
		([label, parameters, right, cap]): VariantRow => ({
			assumption: `${label}: the API returns the page size asked for`,
			alternative: `pages capped at ${cap}, below what the node asks`,
			variants: { pageSizeCap: cap },
			parameters,
			outcome: 'right',
			right,
		}),
	),
	...(
		[
			['tag contacts', contacts(), allContacts, 100],
			['chats', chats(), allChats(), 10],
			['messages', messages(), allMessages, 2],
		] as const
	).map(
		([label, parameters, right, cap]): VariantRow => ({
			assumption: `${label}: the API honours \`offset\``,
			alternative: 'offset ignored: always the first page',
			variants: { offsetIgnored: true, pageSizeCap: cap },
			parameters,
			outcome: 'error',
			names: [/ignore the query parameter "offset"/, /Options → Offset Parameter Name/],
			because: /The API sent the same page again \(offset=/,
			right,
		}),
	),
	{
		assumption: 'templates: the API honours `after`',
		alternative: 'cursor ignored: always the first page',
		variants: { cursorIgnored: true, pageSizeCap: 25 },
		parameters: templates(),
		outcome: 'error',
		names: [/ignore the query parameter "after"/, /Options → Cursor Parameter Name/],
		because: /The API sent the same page again \(after=/,
		right: allTemplates(),
	},
	{
		assumption: 'tag contacts: one entry per phone number',
		alternative: 'one entry per chat (a number on two lines twice) and LID-only contacts without a number',
		variants: { sharedPhones: true },
		parameters: { resource: 'tag', operation: 'getContacts', tagId: DEMO.tags.lead.id, returnAll: true },
		outcome: 'right',
		right: (out, sandbox) => {
			const phones = out.map((item) => item.json.phoneNumber);
			expect(phones.filter((phone) => phone === DEMO.contacts.twoLines.phoneNumber)).toHaveLength(2);
			expect(phones.filter((phone) => phone === '')).toHaveLength(2);
			expect(out).toHaveLength(sandbox.state.tagMembers(DEMO.tags.lead.id).length + 3);
		},
	},
	{
		assumption: 'errors carry a message that says what was wrong',
		alternative: 'every error says only `Erro ao enviar mensagem`',
		variants: { defaultErrorText: true },
		parameters: { resource: 'tag', operation: 'create', name: DEMO.tags.vip.name },
		outcome: 'error',
		names: [/Erro ao enviar mensagem/, /"error sending message"/, /Check the Name \(1-255 characters, unique in the company\)/],
		because: /"error sending message"/,
		right: () => undefined,
	},
	{
		assumption: 'extra custom-field inputs are `{sourceType: "EXTRA_FIELD", key, label?, valueJson}`',
		alternative: '`{fieldKey, value}` (ours refused: 400)',
		variants: { extraFieldShape: 'fieldKey' },
		parameters: upsertExtra('[{"sourceType": "EXTRA_FIELD", "key": "plan", "valueJson": "gold"}]'),
		outcome: 'error',
		names: [/does not document the shape of extra-field inputs/, /write them in the shape the API expects/],
		because: /extra fields are \{fieldKey, value\} here/,
		fix: upsertExtra('[{"fieldKey": "plan", "value": "gold"}]'),
		right: (out) => expect(out[0].json.customFields).toEqual([expect.objectContaining({ key: 'plan', value: 'gold' })]),
	},
];
