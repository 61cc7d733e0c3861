import type { IBuilderHintVariation, IParameterBuilderHint, INodeProperties, INodePropertyCollection, INodePropertyOptions } from 'n8n-workflow';

import { ID_PLACEHOLDER } from './constants';

/**
 * What n8n's AI workflow builder reads about a parameter (n8n-workflow's IParameterBuilderHint):
 * n8n prints the hint into the type definition it gives the builder (@n8n/workflow-sdk,
 * generateNodeTypeFile). One table for both nodes, by parameter name, for the values builders get
 * wrong: phone numbers and LIDs, IDs of the `c` + 24 form, By ID vs Name, the chat's two IDs.
 * Texts use the SDK's forms (expr(), placeholder()), never n8n's stored expression syntax (n8n's
 * lint rule no-builder-hint-leakage).
 */
const ID = `"c" + 24 lowercase letters or digits, e.g. ${ID_PLACEHOLDER}; never a name`;
const PROPERTY_HINTS: Record<string, { builderHint: IParameterBuilderHint }> = {
	phoneNumber: {
		builderHint: {
			propertyHint: `Country and area code, e.g. 5511987650001 (+, spaces, dashes allowed); not a name or chat ID. Tag removeFromContact also takes a LID (ending in @lid). After the trigger: expr('{{ $json.phoneNumber }}').`,
		},
	},
	tagIds: { builderHint: { propertyHint: `Tag IDs: ${ID} (names go in tagNames). The API cannot list tags.` } },
	tag: { builderHint: { propertyHint: `mode 'name' with the exact tag name, or mode 'id' with a tag ID: ${ID}.` } },
	automationTriggerId: { builderHint: { propertyHint: `${ID}. The API cannot list them: unless an earlier node gives it, use placeholder('Automation trigger ID').` } },
	automationBotId: { builderHint: { propertyHint: `${ID}.` } },
	templateFieldId: { builderHint: { propertyHint: `${ID}.` } },
	tagId: { builderHint: { propertyHint: `${ID}.` } },
	integrationId: { builderHint: { propertyHint: `mode 'list' with an empty value lets the user pick; mode 'id' takes an ID: ${ID}.` } },
	chatInternalId: {
		builderHint: { propertyHint: `mode 'id' with the chat's internal ID, e.g. expr('{{ $json.chatInternalId }}') after the trigger; not the channel chat ID (chatId). ${ID}.` },
	},
	chat: {
		builderHint: {
			propertyHint: `mode 'phoneNumber' with the contact's number, e.g. expr('{{ $json.phoneNumber }}') after the trigger; mode 'jid' with the channel chat ID (…@s.whatsapp.net); mode 'id' with the internal chat ID (${ID}); mode 'list' with an empty value lets the user pick.`,
		},
	},
	chatId: { builderHint: { propertyHint: 'The channel chat ID, e.g. 5511987650001@s.whatsapp.net; not the internal chat ID (chatInternalId).' } },
	events: { builderHint: { propertyHint: 'Each event kind selected registers one webhook on activation: select only what the workflow needs.' } },
};

/**
 * A first-level parameter that is not a string cannot hold placeholder()'s text (an option, a
 * number, a locator, a collection). Inside a collection the SDK never puts a placeholder anyway.
 */
const refusesPlaceholder = (property: INodeProperties, nested: boolean): boolean => !nested && property.type !== 'string';

/** n8n refuses to load a node with a builderHint on its resource, operation or mode selector (n8n-core validateNodeDescription). */
const DISCRIMINATORS = new Set(['resource', 'operation', 'mode']);

/**
 * `properties` with their builder hints: the table's hint by name, and `placeholderSupported: false`
 * where a placeholder cannot work (IParameterBuilderHint requires a text: an empty one prints none;
 * n8n's type definition leaves out notices and hidden fields, whatever they hold). Collections and
 * fixed collections get the same for their entries.
 */
export function withBuilderHints(properties: INodeProperties[], nested = false): INodeProperties[] {
	return properties.map((property) => {
		if (DISCRIMINATORS.has(property.name) && property.type === 'options') return property;
		const builderHint: IParameterBuilderHint = { propertyHint: PROPERTY_HINTS[property.name]?.builderHint.propertyHint ?? '' };
		if (refusesPlaceholder(property, nested)) builderHint.placeholderSupported = false;
		const hinted: INodeProperties = { ...property, builderHint };
		if (property.type === 'collection') return { ...hinted, options: withBuilderHints(property.options as INodeProperties[], true) };
		if (property.type === 'fixedCollection') {
			const groups = property.options as INodePropertyCollection[];
			return { ...hinted, options: groups.map((group) => ({ ...group, values: withBuilderHints(group.values, true) })) };
		}
		return hinted;
	});
}

/** The trigger's example for the builder: a received message stops the bot in that chat. */
export function triggerTypeDefContent(version: number): IBuilderHintVariation[] {
	return [
		{
			content: `<patterns>
<pattern title="Hand a chat to a person when the contact writes">
const inbox = trigger({ type: 'n8n-nodes-conversation-inbox.conversationInboxTrigger', version: ${version}, config: { name: 'Inbox events', parameters: { integrationId: { __rl: true, mode: 'id', value: '${ID_PLACEHOLDER}' }, events: ['MESSAGE_RECEIVED'] } } });
const stop = node({ type: 'n8n-nodes-conversation-inbox.conversationInbox', version: 2, config: { name: 'Stop the bot', parameters: { resource: 'automation', operation: 'stopInChat', chat: { __rl: true, mode: 'phoneNumber', value: expr('{{ $json.phoneNumber }}') } } } });
</pattern>
</patterns>`,
		},
	];
}

/**
 * One example per resource, as the parameters a saved workflow holds besides the resource
 * (`={{ … }}` is written as expr() in the example), named after its operation. test/node/builder-hints.test.ts opens each in
 * the editor's checks.
 */
export const RESOURCE_EXAMPLES: Record<string, Record<string, unknown>> = {
	automation: { operation: 'stopInChat', chat: { __rl: true, mode: 'phoneNumber', value: '={{ $json.phoneNumber }}' } },
	botIntegration: { operation: 'create', name: 'Support bot', url: `https://bots.example.com/api/v1/bots/${ID_PLACEHOLDER}` },
	chat: { operation: 'getAll', category: 'queue', limit: 50 },
	customField: { operation: 'get', phoneNumber: '={{ $json.phoneNumber }}' },
	group: { operation: 'getInviteUrl', integrationId: { __rl: true, mode: 'id', value: ID_PLACEHOLDER }, groupJid: '120363025246125486@g.us' },
	integration: { operation: 'getAll', returnAll: true },
	message: { operation: 'getAll', chatInternalId: { __rl: true, mode: 'id', value: '={{ $json.chatInternalId }}' }, returnAll: true },
	tag: { operation: 'removeFromContact', phoneNumber: '={{ $json.phoneNumber }}', tagNames: ['VIP'] },
	template: { operation: 'getAll', integrationId: { __rl: true, mode: 'id', value: ID_PLACEHOLDER }, returnAll: true },
	user: { operation: 'getAll', returnAll: true },
	webhook: {
		operation: 'create',
		integrationId: { __rl: true, mode: 'id', value: ID_PLACEHOLDER },
		url: 'https://example.com/inbox-events',
		type: 'MESSAGE_RECEIVED',
	},
};

/** A parameter value as @n8n/workflow-sdk code: expr() for an expression. */
function sdkCode(value: unknown): string {
	if (typeof value === 'string' && value.startsWith('={{')) return `expr('${value.slice(1)}')`;
	if (Array.isArray(value)) return `[${value.map(sdkCode).join(', ')}]`;
	if (value && typeof value === 'object') {
		return `{ ${Object.entries(value).map(([key, entry]) => `${key}: ${sdkCode(entry)}`).join(', ')} }`;
	}
	return JSON.stringify(value);
}

/**
 * The action node's extraTypeDefContent, which @n8n/workflow-sdk prints into the narrowed type of
 * each resource and operation: the operation's own description first (n8n's generator heads each
 * narrowed type with the description of the first operation of that value in any resource: "getAll"
 * of Chat above Integration → Get Many), then the resource's example.
 */
export function typeDefContent(properties: INodeProperties[], version: number): IBuilderHintVariation[] {
	const resources = properties.find((property) => property.name === 'resource')!.options as INodePropertyOptions[];
	const newest = (selector: INodeProperties): number => Math.max(...((selector.displayOptions!.show!['@version'] as number[] | undefined) ?? [0]));
	// Newest version first: the generator types a node's highest version.
	const selectors = properties.filter((property) => property.name === 'operation').sort((a, b) => newest(b) - newest(a));
	const names = new Map<string, string>();
	const variations: IBuilderHintVariation[] = [];
	for (const selector of selectors) {
		const resource = String(selector.displayOptions!.show!.resource![0]);
		for (const option of selector.options as INodePropertyOptions[]) {
			const key = `${resource} ${option.value}`;
			if (names.has(key)) continue;
			names.set(key, `${resources.find((entry) => entry.value === resource)!.name} → ${option.name}`);
			variations.push({
				displayOptions: { show: { resource: [resource], operation: [option.value] } },
				content: `${names.get(key)}: ${option.description}`,
			});
		}
	}
	for (const [resource, example] of Object.entries(RESOURCE_EXAMPLES)) {
		const name = names.get(`${resource} ${example.operation}`);
		const parameters = { resource, ...example };
		variations.push({
			displayOptions: { show: { resource: [resource] } },
			content: `<patterns>\n<pattern title="${name}">\nnode({ type: 'n8n-nodes-conversation-inbox.conversationInbox', version: ${version}, config: { name: '${name}', parameters: ${sdkCode(parameters)} } })\n</pattern>\n</patterns>`,
		});
	}
	return variations;
}
