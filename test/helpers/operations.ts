/**
 * The operations a node description offers, read from its Resource and Operation selectors: the
 * one list the tests iterate over, so no test repeats how many there are. The contract (which
 * operations, with which method and path) is pinned once, in test/node/description.test.ts.
 */
import type { INodeProperties, INodePropertyOptions, INodeTypeDescription } from 'n8n-workflow';

export interface DescribedOperation {
	/** e.g. 'tag' */
	resource: string;
	/** the resource as the panel names it, e.g. 'Tag' */
	resourceName: string;
	/** e.g. 'create' */
	operation: string;
	/** the Operation selector's option: action, description, routing */
	option: INodePropertyOptions;
}

/** Every resource → operation pair of `description`, in the order the panel lists them. */
export function operationsOf(description: INodeTypeDescription): DescribedOperation[] {
	const resources = (description.properties.find((p) => p.name === 'resource')?.options ?? []) as INodePropertyOptions[];
	return resources.flatMap((resource) => {
		const selector = description.properties.find(
			(p) => p.name === 'operation' && p.displayOptions?.show?.resource?.includes(resource.value),
		);
		return ((selector?.options ?? []) as INodePropertyOptions[]).map((option) => ({
			resource: String(resource.value),
			resourceName: resource.name,
			operation: String(option.value),
			option,
		}));
	});
}

/** 'resource.operation', the key the tests name an operation by. */
export const operationKey = (entry: { resource?: unknown; operation?: unknown }): string =>
	`${String(entry.resource)}.${String(entry.operation)}`;

type Show = NonNullable<NonNullable<INodeProperties['displayOptions']>['show']>;

/** Whether display rules select this operation (other rules, e.g. Return All, left aside). */
function selects(show: Show | undefined, keys: [string, string], resource: string, operation: string, version?: number): boolean {
	const [resourceKey, operationKey] = keys;
	const has = (key: string, value: string | number) => {
		const values = show?.[key] as unknown[] | undefined;
		return values === undefined || values.includes(value);
	};
	return has(resourceKey, resource) && has(operationKey, operation) && (version === undefined || has('@version', version));
}

/**
 * The parameters the panel shows for one operation (at `version`, else at any version), in the
 * panel's order; a collection lists only the entries it offers this operation. Properties are
 * shared by the operations that have the same field (nodes/ConversationInbox/helpers/sharing.ts),
 * so a property's first resource is not necessarily this one.
 */
export function panelOf(description: INodeTypeDescription, resource: string, operation: string, version?: number): INodeProperties[] {
	return description.properties
		.filter((p) => p.name !== 'resource' && p.name !== 'operation')
		.filter((p) => p.displayOptions?.show?.resource !== undefined)
		.filter((p) => selects(p.displayOptions?.show, ['resource', 'operation'], resource, operation, version))
		.map((p) => {
			if (p.type !== 'collection') return p;
			const entries = (p.options ?? []) as INodeProperties[];
			const offered = entries.filter((entry) => selects(entry.displayOptions?.show, ['/resource', '/operation'], resource, operation, version));
			return { ...p, options: offered };
		});
}
