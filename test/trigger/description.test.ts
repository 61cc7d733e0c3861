/**
 * The trigger's description (what the editor shows and workflows store) and the shared
 * integration locator's list search, run in n8n-core's real LoadOptionsContext against the sandbox.
 */
import { LoadOptionsContext } from 'n8n-core';
import type { INodeProperties, INodePropertyMode } from 'n8n-workflow';
import { NodeApiError, NodeHelpers } from 'n8n-workflow';

import codex from '../../nodes/ConversationInboxTrigger/ConversationInboxTrigger.node.json';
import { ConversationInboxTrigger } from '../../nodes/ConversationInboxTrigger/ConversationInboxTrigger.node';
import { SETTINGS } from '../../nodes/ConversationInboxTrigger/settings';
import { makeAdditionalData, makeWorkflow } from '../helpers/n8n-harness';
import { TRIGGER_TYPE } from '../helpers/trigger-harness';
import { DEMO, OFFICIAL, sandboxForFile, triggerParameters, WHATSAPP } from './setup';

const trigger = new ConversationInboxTrigger();
const { description } = trigger;

function property(name: string): INodeProperties {
	const found = description.properties.find((entry) => entry.name === name);
	if (!found) throw new Error(`no property ${name}`);
	return found;
}

describe('description', () => {
	test('identity: name, display name, trigger group, versions 1 to 4 (new nodes get 4), no usableAsTool, shared icons, credential', () => {
		expect(description).toMatchObject({
			name: 'conversationInboxTrigger',
			displayName: 'Conversation Inbox Trigger',
			group: ['trigger'],
			version: [1, 2, 3, 4],
			defaultVersion: 4,
			inputs: [],
			defaults: { name: 'Conversation Inbox Trigger' },
			icon: {
				light: 'file:../ConversationInbox/conversationInbox.svg',
				dark: 'file:../ConversationInbox/conversationInbox.dark.svg',
			},
			credentials: [{ name: 'conversationInboxApi', required: true }],
		});
		expect(description.usableAsTool).toBeUndefined();
		expect(description.subtitle).toContain('$parameter["events"]');
	});

	test('codex file: this node, category Communication', () => {
		expect(codex.node).toBe(`n8n-nodes-conversation-inbox.${TRIGGER_TYPE}`);
		expect(codex.categories).toEqual(['Communication']);
	});

	test('webhooks: one entry per delivery method on one path, all named default; only POST shows its URL', () => {
		const webhooks = description.webhooks ?? [];
		expect(webhooks.map((webhook) => webhook.httpMethod).sort()).toEqual(['DELETE', 'GET', 'PATCH', 'POST', 'PUT']);
		expect(new Set(webhooks.map((webhook) => webhook.path)).size).toBe(1);
		expect(webhooks.every((webhook) => webhook.name === 'default')).toBe(true);
		expect(webhooks.filter((webhook) => !webhook.ndvHideUrl).map((webhook) => webhook.httpMethod)).toEqual(['POST']);
	});

	test('parameters: integration locator, the seven events (required), transfer type ALL, delay ≥ 0, extra headers, notice', () => {
		const integration = property('integrationId');
		expect(integration.type).toBe('resourceLocator');
		expect(integration.required).toBe(true);
		const modes = integration.modes as INodePropertyMode[];
		expect(modes.map((mode) => mode.name)).toEqual(['list', 'id']);
		expect(modes[0].typeOptions?.searchListMethod).toBe('searchIntegrations');

		const events = property('events');
		expect(events.type).toBe('multiOptions');
		expect(events.required).toBe(true);
		// The spec's seven event kinds, in its order.
		expect(events.options?.map((option) => (option as { value: string }).value)).toEqual([
			'MESSAGE_SENT_AND_RECEIVED',
			'MESSAGE_SENT',
			'MESSAGE_RECEIVED',
			'FIRST_MESSAGE_RECEIVED',
			'MESSAGE_IN_SERVICE',
			'CONNECTION_STATUS_UPDATE',
			'SERVICE_CONTINUITY_VERIFICATION',
		]);
		expect(
			events.options?.every((option) => typeof (option as { description?: string }).description === 'string'),
		).toBe(true);

		expect(property('transferType')).toMatchObject({ type: 'options', default: 'ALL' });
		expect(property('transferType').description).toBeTruthy();
		expect(property('delayMinutes')).toMatchObject({ type: 'number', default: 0, typeOptions: { minValue: 0 } });
		const options = property('options');
		// Message ID Field and Window belong to version 4's One Execution per Message (once-per-message.test.ts).
		expect(options.options?.map((option) => (option as INodeProperties).name)).toEqual(['messageIdField', 'windowMinutes', 'extraHeaders']);

		const notice = description.properties.find((entry) => entry.type === 'notice');
		expect(notice?.displayName).toMatch(/cannot delete webhooks/);
		// After the events, not first on the node.
		const names = description.properties.map((entry) => entry.name);
		// (Events is two properties of one name: its text up to version 3, and from version 4.)
		expect(names.indexOf('apiCannotDeleteNotice')).toBe(names.lastIndexOf('events') + 1);
		expect(notice?.displayName).toMatch(/activating again reuses it/);
		// Issue 43, item 9: what Execute step leaves behind (test/trigger/test-url.test.ts holds it).
		expect(notice?.displayName).toContain("Execute step registers n8n's test URL once per node while n8n runs (again after a restart)");
		// One or two sentences.
		expect((notice?.displayName.match(/[.!?](\s|$)/g) ?? []).length).toBeLessThanOrEqual(2);
	});

	test('the notice shows once events are chosen, not on an empty node (n8n\'s own display rules)', () => {
		const notice = property('apiCannotDeleteNotice');
		const shown = (events: string[]) =>
			NodeHelpers.displayParameter({ ...triggerParameters({ events }) }, notice, null, description);
		expect(shown([])).toBe(false);
		expect(shown(['MESSAGE_RECEIVED'])).toBe(true);
		expect(shown(['SERVICE_CONTINUITY_VERIFICATION', 'MESSAGE_SENT'])).toBe(true);
	});

	test('the event list says which events overlap, each in words that fit n8n\'s two lines: a first message is Message Received and First Message Received', () => {
		const descriptionOf = (value: string) =>
			(property('events').options as Array<{ value: string; description?: string }>).find((option) => option.value === value)
				?.description ?? '';
		expect(descriptionOf('MESSAGE_RECEIVED')).toBe('A message from a contact. Also Message Sent and Received; a first one also First Message Received.');
		expect(descriptionOf('FIRST_MESSAGE_RECEIVED')).toBe("A new contact's first message. Also Message Received and Message Sent and Received.");
		expect(descriptionOf('MESSAGE_SENT_AND_RECEIVED')).toBe('Every message, sent or received. Each one is also Message Sent or Message Received.');
		// n8n 2.41 clamps an option's description to two lines, 358 px at 1280 px (issue 43, row 9;
		// the browser suite measures it): 100 characters fit.
		for (const option of property('events').options as Array<{ description?: string }>) expect((option.description ?? '').length).toBeLessThanOrEqual(100);
		// From version 4 on, the text says what One Execution per Message does to them; that property
		// comes first (n8n's type definition for the AI builder, of the newest version, takes the first
		// property of a name); up to version 3 an occurrence starts one execution per event.
		const [fromVersion4, upToVersion3] = description.properties.filter((entry) => entry.name === 'events');
		expect(upToVersion3.displayOptions?.show?.['@version']).toEqual([{ _cnd: { lte: 3 } }]);
		expect(upToVersion3.description).toMatch(/one execution for each/);
		expect(fromVersion4.displayOptions?.show?.['@version']).toEqual([{ _cnd: { gte: 4 } }]);
		expect(fromVersion4.description).toBe(
			'The events that start the workflow. One webhook is registered on the platform per event. A message that counts as several selected events starts one execution while One Execution per Message is on, one per event when it is off.',
		);
	});

	test('Simplify: a boolean, on by default, shown from typeVersion 3 only (saved nodes at 1 and 2 keep the full item)', () => {
		const simplify = property('simplify');
		expect(simplify).toMatchObject({ type: 'boolean', default: true });
		const shownAt = (typeVersion: number) =>
			NodeHelpers.displayParameter(triggerParameters(), simplify, { typeVersion } as never, description);
		expect([1, 2, 3].map(shownAt)).toEqual([false, false, true]);
		// The parameters n8n fills in for a new node at each version (what a saved workflow holds).
		const filled = (typeVersion: number) =>
			NodeHelpers.getNodeParameters(description.properties, {}, true, false, { typeVersion } as never, description);
		expect(filled(3)?.simplify).toBe(true);
		expect(filled(2)).not.toHaveProperty('simplify');
	});

	test('the ID mode rejects what the API would reject, as the editor validates it', () => {
		const integration = property('integrationId');
		const { node } = makeWorkflow(TRIGGER_TYPE, trigger, triggerParameters());
		// n8n's own parameter-issue check, as the editor runs it on the node. n8n runs the mode's regex
		// in a VM with a 250 ms limit (safe-regex.ts); at load 15 that limit was once spent on the VM
		// alone ("Regular expression execution timed out"): that error only is asked again.
		const check = (value: string) =>
			NodeHelpers.getParameterIssues(
				integration,
				{ ...node.parameters, integrationId: { __rl: true, mode: 'id', value } },
				'',
				node,
				description,
			).parameters?.integrationId ?? [];
		const issues = (value: string): string[] => {
			for (let attempt = 1; attempt < 5; attempt++) {
				try {
					return check(value);
				} catch (error) {
					if ((error as Error).message !== 'Regular expression execution timed out') break;
				}
			}
			// The last try, or any other error: thrown as it comes.
			return check(value);
		};
		expect(issues(WHATSAPP)).toEqual([]);
		expect(issues('C' + WHATSAPP.slice(1))).toEqual([expect.stringMatching(/must be an ID/)]);
		expect(issues(`${WHATSAPP}x`)).toHaveLength(1);
		expect(issues('x' + WHATSAPP)).toHaveLength(1);
	});

	test('the settings\' checks name each setting as the panel does', () => {
		const options = property('options').options as INodeProperties[];
		const displayName = (name: string) =>
			[...description.properties, ...options].find((entry) => entry.name === name)?.displayName;
		for (const [name, setting] of Object.entries(SETTINGS)) expect([name, setting.label]).toEqual([name, displayName(name)]);
	});
});

describe('searchIntegrations (From List)', () => {
	const fixture = sandboxForFile();

	function context(apiToken: string = DEMO.token): LoadOptionsContext {
		const { workflow, node } = makeWorkflow(TRIGGER_TYPE, trigger, triggerParameters());
		return new LoadOptionsContext(
			workflow,
			node,
			makeAdditionalData({ ...fixture.credentials, apiToken }),
			'parameters.integrationId',
		);
	}

	test('lists every integration of the company, sorted by name, value = id', async () => {
		const result = await trigger.methods.listSearch.searchIntegrations.call(context());
		const values = result.results.map((entry) => entry.value);
		expect(values).toEqual(expect.arrayContaining([WHATSAPP, OFFICIAL, DEMO.integrations.disconnected.id]));
		expect(result.results).toHaveLength(fixture.sandbox.state.integrations.size);
		const names = result.results.map((entry) => entry.name);
		expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));
		expect(result.results.find((entry) => entry.value === WHATSAPP)?.name).toBe('Support WhatsApp (CONNECTED)');
		expect(fixture.sandbox.requests.some((request) => request.path === '/v2/integration/list')).toBe(true);
	});

	test('filters by the typed text, case-insensitive, on name or id', async () => {
		const byName = await trigger.methods.listSearch.searchIntegrations.call(context(), 'official');
		expect(byName.results.map((entry) => entry.value)).toEqual([OFFICIAL]);
		const byId = await trigger.methods.listSearch.searchIntegrations.call(context(), WHATSAPP.slice(0, 12));
		expect(byId.results.map((entry) => entry.value)).toContain(WHATSAPP);
		const none = await trigger.methods.listSearch.searchIntegrations.call(context(), 'no such line');
		expect(none.results).toEqual([]);
	});

	test('a rejected token surfaces as the shared NodeApiError', async () => {
		await expect(
			trigger.methods.listSearch.searchIntegrations.call(context('wrong-token')),
		).rejects.toBeInstanceOf(NodeApiError);
	});
});
