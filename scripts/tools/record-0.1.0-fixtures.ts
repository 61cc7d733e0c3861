/* eslint-disable -- development tooling, not shipped: n8n's node rules (eslint.config.mjs, n8n-node lint) are for nodes/ and credentials/ */
/**
 * Records the 0.1.0 fixtures of the action node. THE FIXTURES ARE FROZEN: they were recorded once,
 * from the build released as 0.1.0, and are never regenerated. This script never overwrites a file:
 * it records only the cases that have no files yet (a case added to CASES later, still from the
 * 0.1.0 build) and stops if a case has one of its two files only. It is kept to show how the
 * fixtures were made.
 *
 * What it does, for every case below (the values a user of 0.1.0 sets in the panel):
 * 1. the workflow as the 0.1.0 editor saves it: parameters left at their default are not stored
 *    (n8n-workflow's NodeHelpers.getNodeParameters(properties, values, false, false, node) against
 *    0.1.0's description), behind a Manual Trigger;
 * 2. the requests 0.1.0 sent for it: 0.1.0's built node run through n8n-core's RoutingNode against
 *    a freshly reset sandbox; method, path, query and body of every request the sandbox received.
 * Written to test/fixtures/0.1.0/action/<case>.workflow.json and <case>.requests.json, and the
 * files' SHA-256 added to test/fixtures/0.1.0/SHA256SUMS (one `sha256  path` line per file, path
 * relative to test/fixtures/0.1.0, sorted by path).
 *
 * Usage (0.1.0 is commit 74a8fad):
 *   mkdir /tmp/release-0.1.0 && git archive 74a8fad | tar -x -C /tmp/release-0.1.0
 *   cd /tmp/release-0.1.0 && ln -s <repo>/node_modules node_modules && npm run build
 *   cd <repo> && npx ts-node --transpile-only scripts/tools/record-0.1.0-fixtures.ts /tmp/release-0.1.0
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

import { DirectoryLoader } from 'n8n-core';
import type { INode, INodeParameters, INodeType } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { runRoutingNode } from '../../test/helpers/n8n-harness';
import { DEMO, startSandbox } from '../../test/sandbox';

const FIXTURES = resolve(__dirname, '..', '..', 'test', 'fixtures', '0.1.0');
const ACTION_DIR = join(FIXTURES, 'action');
const SUMS = join(FIXTURES, 'SHA256SUMS');
const NODE_TYPE = 'n8n-nodes-conversation-inbox.conversationInbox';

const rl = (value: string): INodeParameters => ({ __rl: true, mode: 'id', value });
const { tags, triggers, integrations, contacts, chats, customFields, bots, group } = DEMO;

/** One case: the file name and the values the user set (as the panel stores them). */
const CASES: Array<{ name: string; values: INodeParameters }> = [
	{ name: 'tag.create', values: { resource: 'tag', operation: 'create', name: 'Gold customers', additionalFields: { color: '#FFAA00' } } },
	{ name: 'tag.create.name-only', values: { resource: 'tag', operation: 'create', name: 'Newsletter 2027' } },
	{
		name: 'tag.removeFromContact',
		values: {
			resource: 'tag', operation: 'removeFromContact', phoneNumber: contacts.alice.phoneNumber,
			tagIds: [tags.vip.id], tagNames: ['Lead'], additionalFields: { triggerAutomations: true },
		},
	},
	{ name: 'tag.getContacts.by-name', values: { resource: 'tag', operation: 'getContacts', tagName: tags.vip.name, limit: 2 } },
	{ name: 'tag.getContacts.return-all', values: { resource: 'tag', operation: 'getContacts', tagId: tags.big.id, returnAll: true } },
	{
		// Issue 25's first row: a rename with a description, another trigger type and a delay.
		name: 'automation.update',
		values: {
			resource: 'automation', operation: 'update', automationTriggerId: triggers.firstMessage.id,
			name: 'Welcome new contacts (renamed)', description: 'Greets contacts who write for the first time',
			triggerType: 'RECEIVE_FIRST_MESSAGE', delayMinutes: 5,
		},
	},
	{
		name: 'automation.update.specific-message',
		values: {
			resource: 'automation', operation: 'update', automationTriggerId: triggers.specificMessage.id,
			name: 'Pricing answer', description: 'Answers questions about prices',
			triggerType: 'RECEIVE_SPECIFIC_MESSAGE', specificMessage: 'How much is it?',
			automationBotId: bots.faq.id, integrations: [integrations.whatsapp.id, integrations.official.id],
			chatType: 'CONTACT', inAttendance: true, transferType: 'USER', moveToQueue: true,
		},
	},
	{
		name: 'automation.update.tag-trigger',
		values: {
			resource: 'automation', operation: 'update', automationTriggerId: triggers.addTag.id,
			name: 'Lead follow-up', description: 'Follows up new leads', triggerType: 'ADD_TAG_TO_CONTACT', tagId: tags.lead.id,
		},
	},
	{ name: 'automation.delete', values: { resource: 'automation', operation: 'delete', automationTriggerId: triggers.webhook.id } },
	{ name: 'automation.stopInChat', values: { resource: 'automation', operation: 'stopInChat', chatInternalId: rl(chats.botFlow.id) } },
	{
		name: 'automation.stopInChat.by-phone',
		values: {
			resource: 'automation', operation: 'stopInChat', phoneNumber: contacts.twoLines.phoneNumber,
			additionalFields: { integrationId: rl(integrations.whatsapp.id) },
		},
	},
	{
		name: 'botIntegration.create',
		values: { resource: 'botIntegration', operation: 'create', name: 'Sales bot', url: 'https://bots.example.com/api/v1/bots/sales' },
	},
	{ name: 'integration.getAll', values: { resource: 'integration', operation: 'getAll', returnAll: true } },
	{ name: 'integration.disconnect', values: { resource: 'integration', operation: 'disconnect', integrationId: rl(integrations.whatsapp.id) } },
	{ name: 'integration.delete', values: { resource: 'integration', operation: 'delete', integrationId: rl(integrations.disconnected.id) } },
	{
		name: 'integration.validatePhoneNumber',
		values: { resource: 'integration', operation: 'validatePhoneNumber', integrationId: rl(integrations.whatsapp.id), phoneNumber: contacts.alice.phoneNumber },
	},
	{
		name: 'webhook.create',
		values: {
			resource: 'webhook', operation: 'create', integrationId: rl(integrations.whatsapp.id), url: 'https://example.com/hooks/inbox',
			type: 'MESSAGE_SENT', method: 'PUT',
			additionalFields: { delayMinutes: 2, transferType: 'USER', headers: { header: [{ key: 'X-Source', value: 'inbox' }] } },
		},
	},
	{ name: 'webhook.create.required-only', values: { resource: 'webhook', operation: 'create', integrationId: rl(integrations.official.id), url: 'https://example.com/hooks/official' } },
	{
		name: 'template.getAll',
		values: {
			resource: 'template', operation: 'getAll', integrationId: rl(integrations.official.id), returnAll: true,
			filters: { status: 'APPROVED', search: DEMO.templates.searchWord },
		},
	},
	{ name: 'template.getAll.limit', values: { resource: 'template', operation: 'getAll', integrationId: rl(integrations.official.id), limit: 30 } },
	{ name: 'group.getInviteUrl', values: { resource: 'group', operation: 'getInviteUrl', integrationId: rl(group.integrationId), groupJid: group.jid } },
	{ name: 'customField.get', values: { resource: 'customField', operation: 'get', phoneNumber: contacts.alice.phoneNumber } },
	{
		// Issue 25's second row: two template fields, "Gold" and 42.
		name: 'customField.upsert',
		values: {
			resource: 'customField', operation: 'upsert', phoneNumber: contacts.alice.phoneNumber,
			inputs: { templateField: [
				{ templateFieldId: customFields.profile.fields.plan, valueJson: '"Gold"' },
				{ templateFieldId: customFields.profile.fields.score, valueJson: '42' },
			] },
		},
	},
	{
		// A template field added with Value (JSON) left at its default: 0.1.0 sent "".
		name: 'customField.upsert.default-value',
		values: {
			resource: 'customField', operation: 'upsert', phoneNumber: contacts.pinned.phoneNumber,
			inputs: { templateField: [{ templateFieldId: customFields.delivery.fields.address, valueJson: '""' }] },
		},
	},
	{
		name: 'customField.upsert.extra-fields',
		values: {
			resource: 'customField', operation: 'upsert', phoneNumber: contacts.botFlow.phoneNumber,
			inputs: { templateField: [{ templateFieldId: customFields.delivery.fields.notes, valueJson: '{"floor": 3, "ring": true}' }] },
			additionalFields: { extraFieldInputs: '[{"sourceType": "EXTRA_FIELD", "key": "favoriteColor", "valueJson": "blue"}]' },
		},
	},
	{
		name: 'chat.getAll',
		values: { resource: 'chat', operation: 'getAll', category: 'queue', limit: 10, filters: { integrationIds: [integrations.whatsapp.id], sectorIds: [DEMO.sectors.support] } },
	},
	{ name: 'chat.getAll.return-all', values: { resource: 'chat', operation: 'getAll', returnAll: true } },
	{ name: 'message.getAll', values: { resource: 'message', operation: 'getAll', chatInternalId: rl(chats.alice.id), limit: 3 } },
	{ name: 'message.getAll.return-all', values: { resource: 'message', operation: 'getAll', chatInternalId: rl(chats.alice.id), returnAll: true } },
	{ name: 'user.getAll', values: { resource: 'user', operation: 'getAll', returnAll: true } },
];

function loadReleasedNode(releaseDir: string): INodeType {
	const path = join(releaseDir, 'dist', 'nodes', 'ConversationInbox', 'ConversationInbox.node.js');
	const { ConversationInbox } = require(path) as { ConversationInbox: new () => INodeType };
	const node = new ConversationInbox();
	DirectoryLoader.applyDeclarativeNodeOptionParameters(node);
	if (node.description.version !== 1) throw new Error(`${path} is not the 0.1.0 build (version ${String(node.description.version)})`);
	return node;
}

/** The parameters as the 0.1.0 editor stores them: without the values left at their default. */
function savedParameters(nodeType: INodeType, values: INodeParameters): INodeParameters {
	const node = { typeVersion: 1, parameters: values } as unknown as INode;
	const saved = NodeHelpers.getNodeParameters(nodeType.description.properties, values, false, false, node, nodeType.description);
	if (!saved) throw new Error('getNodeParameters returned nothing');
	return saved;
}

function savedWorkflow(name: string, parameters: INodeParameters): Record<string, unknown> {
	const trigger = 'When clicking ‘Execute workflow’';
	return {
		name: `0.1.0 fixture: ${name}`,
		nodes: [
			{ id: '0d1f0a10-0000-4000-8000-000000000001', name: trigger, type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} },
			{
				id: '0d1f0a10-0000-4000-8000-000000000002',
				name: 'Conversation Inbox',
				type: NODE_TYPE,
				typeVersion: 1,
				position: [220, 0],
				parameters,
				credentials: { conversationInboxApi: { id: '1', name: 'Conversation Inbox account' } },
			},
		],
		connections: { [trigger]: { main: [[{ node: 'Conversation Inbox', type: 'main', index: 0 }]] } },
		settings: { executionOrder: 'v1' },
	};
}

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

async function main(): Promise<void> {
	const releaseDir = process.argv[2];
	if (!releaseDir) throw new Error('usage: record-0.1.0-fixtures.ts <folder with the 0.1.0 build>');
	const nodeType = loadReleasedNode(resolve(releaseDir));
	const filesOf = (name: string): string[] => [`${name}.workflow.json`, `${name}.requests.json`];
	const recorded = (name: string): number => filesOf(name).filter((file) => existsSync(join(ACTION_DIR, file))).length;
	const half = CASES.filter(({ name }) => recorded(name) === 1);
	if (half.length > 0) throw new Error(`one file of ${half.map((c) => c.name).join(', ')} is missing; the fixtures are frozen, restore it from git`);
	const toRecord = CASES.filter(({ name }) => recorded(name) === 0);

	mkdirSync(ACTION_DIR, { recursive: true });
	const sandbox = await startSandbox({ quiet: true });
	const sums = new Map<string, string>();
	try {
		for (const { name, values } of toRecord) {
			const parameters = savedParameters(nodeType, values);
			sandbox.reset();
			await runRoutingNode('conversationInbox', nodeType, {
				parameters,
				credentials: { baseUrl: sandbox.baseUrl, apiToken: sandbox.token },
			});
			const requests = sandbox.requests.map(({ method, path, query, body }) => ({ method, path, query, body }));
			if (requests.length === 0) throw new Error(`${name}: 0.1.0 sent nothing`);
			for (const [file, content] of [
				[`${name}.workflow.json`, savedWorkflow(name, parameters)],
				[`${name}.requests.json`, requests],
			] as const) {
				const text = `${JSON.stringify(content, null, '\t')}\n`;
				writeFileSync(join(ACTION_DIR, file), text, { flag: 'wx' });
				sums.set(`action/${file}`, sha256(text));
			}
			console.log(`${name}: ${requests.length} request(s)`);
		}
	} finally {
		await sandbox.close();
	}

	// Other fixtures (the trigger's) may be listed already: keep their lines, add ours, sorted by path.
	const lines = existsSync(SUMS) ? readFileSync(SUMS, 'utf8').split('\n').filter(Boolean) : [];
	for (const line of lines) {
		const [hash, path] = line.split(/ {2}/);
		if (sums.has(path)) throw new Error(`${path} is listed already`);
		sums.set(path, hash);
	}
	const sorted = [...sums.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
	writeFileSync(SUMS, sorted.map(([path, hash]) => `${hash}  ${path}\n`).join(''));
}

main().catch((error: unknown) => {
	console.error(error instanceof Error ? error.message : error);
	process.exitCode = 1;
});
