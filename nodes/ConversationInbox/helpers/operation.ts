import type {
	IDisplayOptions,
	IHttpRequestMethods,
	INodeProperties,
	INodePropertyOptions,
	INodePropertyRouting,
} from 'n8n-workflow';

import type { OperationOutput } from './executor';
import { captureResponse, executor } from './executor';
import { prepareRequest } from './prepare';
import type { Rule } from './validation';
import { limitRule } from './validation';

/**
 * One operation = one file under resources/<resource>/: its fields, its request, its rules and its
 * output. `defineOperation` turns that into the operation option (with the shared routing: preSend
 * validation, the executor as pagination function, the response capture) and the operation's
 * parameters (shown only for that resource and operation, plus the escape hatch).
 */
export interface OperationDefinition {
	resource: string;
	operation: string;
	/** option label, e.g. 'Create' */
	name: string;
	/** sentence-case action, e.g. 'Create a tag' */
	action: string;
	description: string;
	method: IHttpRequestMethods;
	/** path under the base URL, e.g. '/tag/create' */
	path: string;
	fields: INodeProperties[];
	/** validation and normalisation, in order, before anything is sent */
	rules: Rule[];
	output: OperationOutput;
	/** further entries of the operation's "Options" collection (beside the escape hatch) */
	options?: INodeProperties[];
}

export interface Operation {
	option: INodePropertyOptions;
	properties: INodeProperties[];
}

/** "Options" collection with the escape hatch; body fields only where there is a body. */
function escapeHatch(method: IHttpRequestMethods, extra: INodeProperties[] = []): INodeProperties {
	const options: INodeProperties[] = [...extra];
	if (method !== 'GET') {
		options.push({
			displayName: 'Extra Body Fields',
			name: 'extraBodyFields',
			type: 'json',
			default: '{}',
			description:
				'JSON object merged into the request body last, replacing fields of the same name. For fields the node does not offer yet, or a field the live API names differently.',
		});
	}
	options.push({
		displayName: 'Extra Query Parameters',
		name: 'extraQueryParameters',
		type: 'fixedCollection',
		placeholder: 'Add Query Parameter',
		typeOptions: { multipleValues: true },
		default: {},
		description:
			'Query parameters added to the request last, replacing ones of the same name (page offset and size stay under the node\'s control)',
		options: [
			{
				displayName: 'Parameter',
				name: 'parameter',
				values: [
					{
						displayName: 'Name',
						name: 'name',
						type: 'string',
						default: '',
						placeholder: 'e.g. includeArchived',
					},
					{
						displayName: 'Value',
						name: 'value',
						type: 'string',
						default: '',
						placeholder: 'e.g. true',
					},
				],
			},
		],
	});
	return {
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		// Sorted by display name, as n8n lists a collection's options.
		options: options.sort((a, b) => a.displayName.localeCompare(b.displayName)),
	};
}

function showFor(
	property: INodeProperties,
	resource: string,
	operation: string,
): INodeProperties {
	const displayOptions: IDisplayOptions = {
		...property.displayOptions,
		show: {
			resource: [resource],
			operation: [operation],
			...property.displayOptions?.show,
		},
	};
	return { ...property, displayOptions };
}

export function defineOperation(definition: OperationDefinition): Operation {
	const rules =
		definition.output.kind === 'list' ? [limitRule, ...definition.rules] : definition.rules;
	const routing: INodePropertyRouting = {
		request: { method: definition.method, url: definition.path },
		send: { paginate: true, preSend: [prepareRequest(rules)] },
		output: { postReceive: [captureResponse] },
		operations: { pagination: executor(definition.output) },
	};
	return {
		option: {
			name: definition.name,
			value: definition.operation,
			action: definition.action,
			description: definition.description,
			routing,
		},
		properties: [...definition.fields, escapeHatch(definition.method, definition.options)].map((property) =>
			showFor(property, definition.resource, definition.operation),
		),
	};
}

/** The Operation selector of a resource, options in alphabetical order. */
export function operationSelector(
	resource: string,
	operations: Operation[],
	defaultOperation: string,
): INodeProperties {
	return {
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: [resource] } },
		options: operations
			.map((operation) => operation.option)
			.sort((a, b) => a.name.localeCompare(b.name)),
		default: defaultOperation,
	};
}

/** Everything a resource adds to the node: its operation selector and its operations' fields. */
export function resourceProperties(
	resource: string,
	operations: Operation[],
	defaultOperation: string,
): INodeProperties[] {
	return [
		operationSelector(resource, operations, defaultOperation),
		...operations.flatMap((operation) => operation.properties),
	];
}
