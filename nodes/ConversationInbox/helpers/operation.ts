import type {
	IDisplayOptions,
	IHttpRequestMethods,
	INodeProperties,
	INodePropertyOptions,
	INodePropertyRouting,
} from 'n8n-workflow';

import type { ErrorHints } from '../../shared/errors';
import type { OperationOutput } from './executor';
import { captureResponse, executor } from './executor';
import type { Paging } from './pagination';
import { assumedNames, PAGING_NAME_OPTIONS } from './pagination';
import { prepareRequest } from './prepare';
import type { Rule } from './validation';
import { describeValue, invalid, limitRule } from './validation';

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
	/** hints for failed calls that replace the standard ones, or say what to check (errors.ts) */
	errors?: Omit<ErrorHints, 'assumptions'>;
	/** request names the spec does not show (wireNames.ts), named in request errors */
	assumedNames?: readonly string[];
	/** a further assumption of the operation, named in request errors */
	assumption?: string;
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
		displayName: 'Rename Sent Fields',
		name: 'renameFields',
		type: 'fixedCollection',
		placeholder: 'Add Rename',
		typeOptions: { multipleValues: true },
		default: {},
		description:
			'Send a body field or query parameter of this node under another name, for an API that names it differently from the node\'s assumption (README → Assumptions about the API). Applied before the extra fields and parameters.',
		options: [
			{
				displayName: 'Field',
				name: 'field',
				values: [
					{
						displayName: 'Name Sent by the Node',
						name: 'from',
						type: 'string',
						default: '',
						placeholder: 'e.g. chatType',
					},
					{
						displayName: 'Name the API Expects',
						name: 'to',
						type: 'string',
						default: '',
						placeholder: 'e.g. chatTypeFilter',
					},
				],
			},
		],
	});
	options.push({
		displayName: 'Extra Query Parameters',
		name: 'extraQueryParameters',
		type: 'fixedCollection',
		placeholder: 'Add Query Parameter',
		typeOptions: { multipleValues: true },
		default: {},
		description:
			'Query parameters added to the request last, replacing ones of the same name (paging parameters are renamed with the … Parameter Name options instead)',
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

/**
 * Options → "… Parameter Name" of a list that pages: the paging names the spec does not show,
 * renamable per operation for an API that names them differently (DESIGN.md).
 */
function pagingNameOptions(paging: Paging): INodeProperties[] {
	const assumed = assumedNames(paging);
	const what = {
		offset: 'the number of elements to skip',
		pageSize: 'the number of elements per page',
		cursor: 'the cursor of the next page (taken from paging.after)',
	};
	return (Object.keys(assumed) as Array<keyof typeof assumed>).map((key) => {
		const assumedName = String(assumed[key]);
		return {
			displayName: PAGING_NAME_OPTIONS[key].label,
			name: PAGING_NAME_OPTIONS[key].parameter.replace(/^options\./, ''),
			type: 'string',
			default: assumedName,
			description: `Name of the query parameter for ${what[key]}. The API description does not name it; "${assumedName}" is assumed. Change it if the API names it differently (the node stops with an error naming this option when the API ignores it).`,
		};
	});
}

/** A paging name set under Options: text without spaces (blank = the assumed name). */
const pagingNamesRule: Rule = (ctx) => {
	for (const { parameter, label } of Object.values(PAGING_NAME_OPTIONS)) {
		const value = ctx.fn.getNodeParameter(parameter, '') as unknown;
		if (value === undefined || value === null || (typeof value === 'string' && value.trim() === '')) continue;
		if (typeof value !== 'string' || /\s/.test(value.trim())) {
			throw invalid(ctx, { key: parameter, label }, 'must be a query parameter name without spaces', describeValue(value));
		}
	}
};

/** The error hints of an operation: its own, and the assumptions a request error may come from. */
function errorHints(definition: OperationDefinition): ErrorHints {
	const { output, assumedNames = [], assumption } = definition;
	const parts: string[] = [];
	if (assumption) parts.push(assumption);
	if (assumedNames.length > 0) {
		const names = assumedNames.map((name) => `"${name}"`).join(', ');
		parts.push(
			`The API description does not show the names ${names}; the node assumes them (README → Assumptions about the API). If the API's message names one of them, or a field it expects instead, set the API's name under Options → Rename Sent Fields.`,
		);
	}
	if (output.kind === 'list' && output.list.paging.kind !== 'whole') {
		parts.push('The paging parameters are renamed under Options → … Parameter Name.');
	}
	return {
		noReason: `Check the values of this item for "${definition.action}" against the fields' hints (the API's rules), and that the IDs it names exist.`,
		...definition.errors,
		assumptions: parts.length > 0 ? parts.join(' ') : undefined,
	};
}

export function defineOperation(definition: OperationDefinition): Operation {
	const { output } = definition;
	const paged = output.kind === 'list' && output.list.paging.kind !== 'whole';
	const rules =
		output.kind === 'list'
			? [limitRule, ...(paged ? [pagingNamesRule] : []), ...definition.rules]
			: definition.rules;
	const options = [
		...(definition.options ?? []),
		...(output.kind === 'list' ? pagingNameOptions(output.list.paging) : []),
	];
	const routing: INodePropertyRouting = {
		request: { method: definition.method, url: definition.path },
		send: { paginate: true, preSend: [prepareRequest(rules)] },
		output: { postReceive: [captureResponse] },
		operations: { pagination: executor(definition.output, errorHints(definition)) },
	};
	return {
		option: {
			name: definition.name,
			value: definition.operation,
			action: definition.action,
			description: definition.description,
			routing,
		},
		properties: [...definition.fields, escapeHatch(definition.method, options)].map((property) =>
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
