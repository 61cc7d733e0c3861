import type {
	IDataObject,
	ILoadOptionsFunctions,
	INode,
	INodeListSearchItems,
	INodeListSearchResult,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { ID_PATTERN, ID_PLACEHOLDER, ID_RULE } from './constants';
import { firstText, locatorProperty, textMatcher } from './locatorModes';
import { inboxApiRequest } from './transport';

/** Name of the list-search method the locator's "From List" mode calls. */
export const SEARCH_INTEGRATIONS_METHOD = 'searchIntegrations';
/** Name of the load-options method of multi-select integration fields (chat and trigger filters). */
export const GET_INTEGRATIONS_METHOD = 'getIntegrations';

/**
 * A resource-locator property for a channel integration id: "From List" (GET /integration/list,
 * filtered by the typed text) or "By ID" (validated against `^c[a-z0-9]{24}$`).
 * The value the node reads is the id either way (`extractValue: true`, which also accepts a
 * workflow that stores the id as a plain string). The trigger and every `integrationId` of the
 * action node use it; `overrides` sets the description, routing, required-ness, ...
 */
export function integrationLocatorProperty(
	overrides: Partial<INodeProperties> = {},
): INodeProperties {
	return {
		...locatorProperty({
			displayName: 'Integration',
			name: 'integrationId',
			description: 'The channel integration (connected messaging line) to use',
			searchListMethod: SEARCH_INTEGRATIONS_METHOD,
			listPlaceholder: 'Select an integration...',
			what: 'integration',
			idHint: 'The ID of a channel integration, as listed by Integration → Get Many',
		}),
		required: true,
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

/** Every integration of the company that has an id (GET /integration/list: the whole list). */
async function fetchIntegrations(this: ILoadOptionsFunctions): Promise<IntegrationRecord[]> {
	const body = await inboxApiRequest.call(this, { method: 'GET', path: '/integration/list' });
	return integrationsOf(body).filter(
		(integration) => typeof integration.id === 'string' && integration.id !== '',
	);
}

const byName = (a: INodePropertyOptions, b: INodePropertyOptions): number =>
	a.name.localeCompare(b.name);

/**
 * listSearch method for the "From List" mode: every integration of the company whose name or id
 * contains the typed text (case-insensitive), sorted by name. GET /integration/list returns the
 * whole list, so there is no pagination token.
 */
export async function searchIntegrations(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const matches = textMatcher(filter);
	const results: INodeListSearchItems[] = (await fetchIntegrations.call(this))
		.filter((integration) => matches(integration.name, integration.id))
		.map((integration) => {
			const name = firstText(integration.name) ?? String(integration.id);
			const status = integration.connectionStatus ? ` (${String(integration.connectionStatus)})` : '';
			return { name: `${name}${status}`, value: String(integration.id) };
		})
		.sort(byName);
	return { results };
}

/**
 * loadOptions method for multi-select integration fields: one option per integration, sorted by
 * name, with its connection status and id as the option's description.
 */
export async function getIntegrations(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	return (await fetchIntegrations.call(this))
		.map((integration) => ({
			name: firstText(integration.name) ?? String(integration.id),
			value: String(integration.id),
			description: [firstText(integration.connectionStatus), String(integration.id)]
				.filter(Boolean)
				.join(' · '),
		}))
		.sort(byName);
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
