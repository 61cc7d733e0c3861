/**
 * One property per parameter name (nodes/ConversationInbox/helpers/sharing.ts) must not change any
 * operation's panel: for every operation of every node version, n8n's own display code
 * (NodeHelpers.getNodeParameters and displayParameter, what the editor runs) shows the same fields,
 * in the same order, with the same types, defaults, texts and display rules, and in each collection
 * the same entries, as the operations declare them before they are shared.
 */
import type { INode, INodeParameters, INodeProperties, INodeTypeDescription } from 'n8n-workflow';
import { actionDescription } from '../helpers/action-node';
import { NodeHelpers } from 'n8n-workflow';

import { NODE_VERSIONS } from '../../nodes/ConversationInbox/helpers/operation';
import { declaredOperationProperties } from '../../nodes/ConversationInbox/resources';
import { operationsOf } from '../helpers/operations';

/**
 * Each version's top-level properties (n8n's routing engine resolves every one of them for every
 * item): declared (one per operation and name) and shared, and the names shared properties could
 * not merge (issue 44: 63 properties in one description for both versions before).
 */
const PROPERTY_COUNTS = [
	{ version: 1, declared: 99, shared: 54, twice: ['integrationId', 'name', 'tagId'] },
	{ version: 2, declared: 87, shared: 44, twice: ['integrationId'] },
];

/** Each version's description, as n8n loads it. */
const sharedAt = (version: number): INodeTypeDescription => actionDescription(version);
/** The same version with each operation's fields as declared (one property per operation and name). */
const declaredAt = (version: number): INodeTypeDescription => {
	const shared = sharedAt(version);
	return { ...shared, properties: [shared.properties[0], ...declaredOperationProperties(version)] };
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
	operationsOf(sharedAt(version)).map(({ resource, operation }) => [`${resource}.${operation} v${version}`, resource, operation, version] as const),
);

/** A version's top-level property names that occur more than once (the Operation selectors aside). */
function namedTwice(description: INodeTypeDescription): string[] {
	const names = description.properties.filter((p) => p.name !== 'operation').map((p) => p.name);
	return [...new Set(names.filter((name, index) => names.indexOf(name) !== index))].sort();
}

describe('shared properties: every operation\'s panel as declared', () => {
	test('each version\'s description has one property per name, but for the few that cannot be shared', () => {
		const counts = NODE_VERSIONS.map((version) => ({
			version,
			declared: declaredAt(version).properties.length,
			shared: sharedAt(version).properties.length,
			twice: namedTwice(sharedAt(version)),
		}));
		expect(counts).toEqual(PROPERTY_COUNTS);
	});

	test.each(FORMS)('%s', (_label, resource, operation, version) => {
		const parameters = { resource, operation };
		expect(panel(sharedAt(version), parameters, version)).toEqual(panel(declaredAt(version), parameters, version));
	});

	test.each([
		['Return All on', { resource: 'tag', operation: 'getContacts', returnAll: true }],
		['a Limit of two pages', { resource: 'chat', operation: 'getAll', limit: 1001 }],
		['a trigger type that needs a tag (version 1)', { resource: 'automation', operation: 'update', triggerType: 'ADD_TAG_TO_CONTACT' }],
	] as const)('with %s', (_label, parameters) => {
		for (const version of NODE_VERSIONS) {
			expect(panel(sharedAt(version), { ...parameters }, version)).toEqual(panel(declaredAt(version), { ...parameters }, version));
		}
	});
});
