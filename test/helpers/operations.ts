/**
 * The operations a node description offers, read from its Resource and Operation selectors: the
 * one list the tests iterate over, so no test repeats how many there are. The contract (which
 * operations, with which method and path) is pinned once, in test/node/description.test.ts.
 */
import type { INodePropertyOptions, INodeTypeDescription } from 'n8n-workflow';

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
