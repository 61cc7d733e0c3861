import type {
	IDataObject,
	ILoadOptionsFunctions,
	INodeListSearchItems,
	INodeListSearchResult,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { runPool } from './pool';
import { WIRE } from './wireNames';
import { firstText, locatorProperty, textMatcher } from './locatorModes';
import { LIST_AT, objectsAt } from './answers';
import { inboxApiRequest } from './transport';

/** Name of the list-search method the locator's "From List" mode calls. */
const SEARCH_INTEGRATIONS_METHOD = 'searchIntegrations';
/** Name of the load-options method of multi-select integration fields (chat and trigger filters). */
export const GET_INTEGRATIONS_METHOD = 'getIntegrations';

/** Where an integration's name goes instead of its ID (checks.ts `id`'s `byName`). */
export const INTEGRATION_BY_NAME = 'choose the integration From List to find it by its name';
/** The same for a list of integrations chosen by name (multiOptions). */
export const INTEGRATIONS_BY_NAME = 'choose the integrations by name from the list';

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

/** Every integration of the company that has an id (GET /integration/list: the whole list). */
export async function fetchIntegrations(this: ILoadOptionsFunctions): Promise<IntegrationRecord[]> {
	const body = await inboxApiRequest.call(this, { method: 'GET', path: '/integration/list', interactive: true });
	return (objectsAt(body, LIST_AT.integrations) as IntegrationRecord[]).filter(
		(integration) => typeof integration.id === 'string' && integration.id !== '',
	);
}

const byName = (a: INodePropertyOptions, b: INodePropertyOptions): number =>
	a.name.localeCompare(b.name);

/** Template checks run side by side in the template picker (one request each). */
const TEMPLATE_CHECK_CONCURRENCY = 4;

type TemplateCheck = 'has-templates' | 'no-templates' | 'unchecked';

/**
 * Whether GET /provider-template/list works for an integration. Only official-channel integrations
 * have provider templates, and the spec shows no integration field that says which ones are
 * official, so we ask the API itself (one template, the smallest page): an answer means the picker
 * may offer it; a refusal (HTTP 4xx other than 408/429) means picking it can only fail. Anything
 * else (network, 5xx, rate limit after the retries) says nothing about templates: "unchecked".
 */
async function templateCheck(this: ILoadOptionsFunctions, integrationId: string): Promise<TemplateCheck> {
	const W = WIRE.templateList;
	try {
		await inboxApiRequest.call(this, {
			method: 'GET',
			path: '/provider-template/list',
			qs: { [W.integrationId]: integrationId, [W.pageSize]: 1 },
			interactive: true,
		});
		return 'has-templates';
	} catch (error) {
		const status = error instanceof NodeApiError ? Number(error.httpCode) : NaN;
		return status >= 400 && status < 500 && status !== 408 && status !== 429 ? 'no-templates' : 'unchecked';
	}
}

/** The picker serves Template → Get Many (the trigger has no resource: the fallback applies). */
function servesTemplates(context: ILoadOptionsFunctions): boolean {
	return context.getNodeParameter('resource', '') === 'template';
}

/**
 * listSearch method for the "From List" mode: every integration of the company whose name or id
 * contains the typed text (case-insensitive), sorted by name. GET /integration/list returns the
 * whole list, so there is no pagination token.
 *
 * For Template → Get Many the list holds only integrations whose templates the API lists (see
 * templateCheck; the typed text narrows the list first, so only matches are checked). One that could
 * not be checked stays, marked "templates not checked".
 */
export async function searchIntegrations(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const matches = textMatcher(filter);
	let integrations = (await fetchIntegrations.call(this)).filter((integration) =>
		matches(integration.name, integration.id),
	);
	const checks = new Map<string, TemplateCheck>();
	if (servesTemplates(this)) {
		const found = await runPool(integrations.length, TEMPLATE_CHECK_CONCURRENCY, async (index) =>
			templateCheck.call(this, String(integrations[index].id)),
		);
		integrations.forEach((integration, index) => checks.set(String(integration.id), found[index]));
		integrations = integrations.filter((integration) => checks.get(String(integration.id)) !== 'no-templates');
	}
	const results: INodeListSearchItems[] = integrations
		.map((integration) => {
			const name = firstText(integration.name) ?? String(integration.id);
			const status = integration.connectionStatus ? ` (${String(integration.connectionStatus)})` : '';
			const mark = checks.get(String(integration.id)) === 'unchecked' ? ' · templates not checked' : '';
			return { name: `${name}${status}${mark}`, value: String(integration.id) };
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

