/**
 * One property per parameter name (nodes/ConversationInbox/helpers/sharing.ts) must not change any
 * operation's panel: for every operation of every node version, n8n's own display code
 * (NodeHelpers.getNodeParameters and displayParameter, what the editor runs) shows the same fields,
 * in the same order, with the same types, defaults, texts and display rules, and in each collection
 * the same entries, as the operations declare them before they are shared.
 */
import type { INode, INodeParameters, INodeProperties, INodeTypeDescription } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { ConversationInbox } from '../../nodes/ConversationInbox/ConversationInbox.node';
import { NODE_VERSIONS } from '../../nodes/ConversationInbox/helpers/operation';
import { declaredOperationProperties } from '../../nodes/ConversationInbox/resources';
import { operationsOf } from '../helpers/operations';

const shared = new ConversationInbox().description;
/** The same node with each operation's fields as declared (one property per operation and name). */
const declared: INodeTypeDescription = {
	...shared,
	properties: [shared.properties[0], ...declaredOperationProperties],
};

/** What a property shows, without the rules that select its operation (they differ by design) and the builderHint only n8n's AI builder reads. */
function shown(property: INodeProperties): unknown {
	const { displayOptions, options, ...rest } = property;
	const show = { ...displayOptions?.show };
	for (const key of ['resource', 'operation', '@version', '/resource', '/operation']) delete show[key];
	return withoutBuilderHints({ ...rest, show, hide: displayOptions?.hide, options: property.type === 'collection' ? undefined : options });
}

function withoutBuilderHints(value: unknown): unknown {
	if (Array.isArray(value)) return value.map(withoutBuilderHints);
	if (!value || typeof value !== 'object') return value;
	return Object.fromEntries(Object.entries(value).filter(([key]) => key !== 'builderHint').map(([key, entry]) => [key, withoutBuilderHints(entry)]));
}

/** The panel n8n shows for these parameters: each field, and each collection's entries. */
function panel(description: INodeTypeDescription, parameters: INodeParameters, version: number): unknown[] {
	const node = { name: 'n', type: 't', typeVersion: version, parameters, position: [0, 0] } as unknown as INode;
	const values = NodeHelpers.getNodeParameters(description.properties, parameters, true, false, node, description) as INodeParameters;
	return description.properties
		.filter((property) => NodeHelpers.displayParameter(values, property, node, description, values))
		.map((property) => {
			if (property.type !== 'collection') return shown(property);
			const entries = (property.options as INodeProperties[]).filter((entry) =>
				NodeHelpers.displayParameter({}, entry, node, description, values),
			);
			return { ...(shown(property) as object), entries: entries.map(shown) };
		});
}

const FORMS = NODE_VERSIONS.flatMap((version) =>
	operationsOf(shared).map(({ resource, operation }) => [`${resource}.${operation} v${version}`, resource, operation, version] as const),
);

describe('shared properties: every operation\'s panel as declared', () => {
	test('the description has one property per name, but for the few that cannot be shared', () => {
		const names = shared.properties.filter((p) => p.name !== 'operation').map((p) => p.name);
		const twice = [...new Set(names.filter((name, index) => names.indexOf(name) !== index))].sort();
		expect(twice).toEqual(['inputs', 'integrationId', 'name', 'tagId', 'tagName']);
		expect(declared.properties.length).toBe(119);
		expect(shared.properties.length).toBe(63);
	});

	test.each(FORMS)('%s', (_label, resource, operation, version) => {
		const parameters = { resource, operation };
		expect(panel(shared, parameters, version)).toEqual(panel(declared, parameters, version));
	});

	test.each([
		['Return All on', { resource: 'tag', operation: 'getContacts', returnAll: true }],
		['a Limit of two pages', { resource: 'chat', operation: 'getAll', limit: 1001 }],
		['a trigger type that needs a tag (version 1)', { resource: 'automation', operation: 'update', triggerType: 'ADD_TAG_TO_CONTACT' }],
	] as const)('with %s', (_label, parameters) => {
		for (const version of NODE_VERSIONS) {
			expect(panel(shared, { ...parameters }, version)).toEqual(panel(declared, { ...parameters }, version));
		}
	});
});
