import type { INodeProperties, INodePropertyRouting } from 'n8n-workflow';

import { ID_PLACEHOLDER } from '../../shared/constants';

/** Routing that puts the parameter's value into the body / query string under its API name. */
export const toBody = (property: string): INodePropertyRouting => ({
	send: { type: 'body', property, propertyInDotNotation: false },
});
export const toQuery = (property: string): INodePropertyRouting => ({
	send: { type: 'query', property, propertyInDotNotation: false },
});

export const PHONE_PLACEHOLDER = 'e.g. 5511999998888';
export const ID_HINT = `An ID looks like ${ID_PLACEHOLDER}: "c" followed by 24 lowercase letters or digits`;

/** A string parameter holding one `<id>`. */
export function idParameter(
	options: Omit<INodeProperties, 'type' | 'default'> & { default?: string },
): INodeProperties {
	return {
		type: 'string',
		default: '',
		placeholder: `e.g. ${ID_PLACEHOLDER}`,
		hint: ID_HINT,
		...options,
	} as INodeProperties;
}

/** A list of strings: several values, or one comma-separated text, or a list from an expression. */
export function listParameter(
	options: Omit<INodeProperties, 'type' | 'default'> & { buttonText: string },
): INodeProperties {
	const { buttonText, ...rest } = options;
	return {
		type: 'string',
		default: [],
		typeOptions: { multipleValues: true, multipleValueButtonText: buttonText },
		...rest,
	} as INodeProperties;
}

/** Return All and Limit of a list operation; `pageHint` tells how the node pages. */
export function returnAllAndLimit(pageHint: string): INodeProperties[] {
	return [
		{
			displayName: 'Return All',
			name: 'returnAll',
			type: 'boolean',
			default: false,
			description: 'Whether to return all results or only up to a given limit',
			hint: pageHint,
		},
		{
			displayName: 'Limit',
			name: 'limit',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: 50,
			description: 'Max number of results to return',
			displayOptions: { show: { returnAll: [false] } },
		},
	];
}
