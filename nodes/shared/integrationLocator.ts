import type {
	IDataObject,
	ILoadOptionsFunctions,
	INode,
	INodeListSearchItems,
	INodeListSearchResult,
	INodeProperties,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { ID_PATTERN, ID_PLACEHOLDER, ID_RULE } from './constants';
import { inboxApiRequest } from './transport';

/** Name of the list-search method the locator's "From List" mode calls. */
export const SEARCH_INTEGRATIONS_METHOD = 'searchIntegrations';

/** `ID_PATTERN` without anchors: the editor wraps mode validation regexes in `^...$` itself. */
const ID_REGEX_UNANCHORED = ID_PATTERN.source.replace(/^\^/, '').replace(/\$$/, '');

/**
 * A resource-locator property for a channel integration id: "From List" (GET /integration/list,
 * filtered by the typed text) or "By ID" (validated against `^c[a-z0-9]{24}$`).
 * The value the node reads is the id either way (`extractValue: true`).
 */
export function integrationLocatorProperty(
	overrides: Partial<INodeProperties> = {},
): INodeProperties {
	return {
		displayName: 'Integration',
		name: 'integrationId',
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		required: true,
		description: 'The channel integration (connected messaging line) to use',
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				placeholder: 'Select an integration...',
				typeOptions: {
					searchListMethod: SEARCH_INTEGRATIONS_METHOD,
					searchable: true,
				},
			},
			{
				displayName: 'By ID',
				name: 'id',
				type: 'string',
				placeholder: ID_PLACEHOLDER,
				validation: [
					{
						type: 'regex',
						properties: {
							regex: ID_REGEX_UNANCHORED,
							errorMessage: `The integration ID ${ID_RULE}`,
						},
					},
				],
			},
		],
		...overrides,
	};
}

interface IntegrationRecord extends IDataObject {
	id?: string;
	name?: string;
	connectionStatus?: string;
}

function integrationsOf(body: IDataObject): IntegrationRecord[] {
	const response = body.response as IDataObject | undefined;
	const list = response?.integrations;
	return Array.isArray(list) ? (list as IntegrationRecord[]) : [];
}

/**
 * listSearch method for the "From List" mode: every integration of the company whose name or id
 * contains the typed text (case-insensitive), sorted by name. GET /integration/list returns the
 * whole list, so there is no pagination token.
 */
export async function searchIntegrations(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const body = await inboxApiRequest.call(this, { method: 'GET', path: '/integration/list' });
	const needle = (filter ?? '').trim().toLowerCase();
	const results: INodeListSearchItems[] = integrationsOf(body)
		.filter((integration) => typeof integration.id === 'string' && integration.id !== '')
		.filter((integration) => {
			if (!needle) return true;
			const name = String(integration.name ?? '').toLowerCase();
			return name.includes(needle) || String(integration.id).toLowerCase().includes(needle);
		})
		.map((integration) => {
			const name = String(integration.name ?? integration.id);
			const status = integration.connectionStatus ? ` (${String(integration.connectionStatus)})` : '';
			return { name: `${name}${status}`, value: String(integration.id) };
		})
		.sort((a, b) => a.name.localeCompare(b.name));
	return { results };
}

/**
 * Checks an integration id read from the locator (`getNodeParameter(name, ..., { extractValue: true })`)
 * against the spec's id rule, so that a wrong value fails with a message naming the field before
 * any request is sent. Returns the trimmed id.
 */
export function validateIntegrationId(node: INode, raw: unknown, itemIndex?: number): string {
	const value = typeof raw === 'string' ? raw.trim() : '';
	if (!ID_PATTERN.test(value)) {
		throw new NodeOperationError(
			node,
			`Integration: ${value === '' ? 'no integration is selected' : `"${value}" ${ID_RULE}`}`,
			{
				description: `Pick the integration from the list, or enter its ID (for example ${ID_PLACEHOLDER}).`,
				itemIndex,
			},
		);
	}
	return value;
}
