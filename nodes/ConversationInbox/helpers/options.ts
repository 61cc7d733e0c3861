import type { IHttpRequestMethods, INodeProperties } from 'n8n-workflow';

import type { Paging } from './paging';
import { assumedNames, PAGING_NAME_OPTIONS } from './paging';

/**
 * The "Options" collection every operation has: the escape hatch (extra body fields, renamed fields,
 * extra query parameters) for an API that differs from the node's assumptions, and on lists that
 * page, the names of the paging parameters.
 */

/**
 * Options → "… Parameter Name" of a list that pages: the paging names the spec does not show,
 * renamable per operation for an API that names them differently (DESIGN.md).
 */
export function pagingNameOptions(paging: Paging): INodeProperties[] {
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

/** "Options" collection with the escape hatch; body fields only where there is a body. */
export function optionsCollection(method: IHttpRequestMethods, extra: INodeProperties[] = []): INodeProperties {
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

