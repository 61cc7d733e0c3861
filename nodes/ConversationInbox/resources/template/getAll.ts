import { NAME_MAX_LENGTH, PAGE_SIZE, TEMPLATE_STATUS_OPTIONS } from '../../../shared/constants';
import { idParameter, returnAllAndLimit, toQuery } from '../../helpers/fields';
import { defineOperation } from '../../helpers/operation';
import { id, oneOf, queryField, text } from '../../helpers/validation';
import { WIRE } from '../../wireNames';

export const getAll = defineOperation({
	resource: 'template',
	operation: 'getAll',
	name: 'Get Many',
	action: 'Get many message templates',
	description: 'List the provider message templates of an official-channel integration',
	method: 'GET',
	path: '/provider-template/list',
	fields: [
		idParameter({
			displayName: 'Integration ID',
			name: 'integrationId',
			required: true,
			description: 'ID of the official-channel integration that owns the templates',
			routing: toQuery(WIRE.templateList.integrationId),
		}),
		...returnAllAndLimit(
			`Fetched in pages of up to ${PAGE_SIZE.templates.max} templates; one item per template`,
		),
		{
			displayName: 'Filters',
			name: 'filters',
			type: 'collection',
			placeholder: 'Add Filter',
			default: {},
			options: [
				{
					displayName: 'Search',
					name: 'search',
					type: 'string',
					default: '',
					placeholder: 'e.g. order_confirmation',
					description: 'Only templates whose name or content contains this text (at most 255 characters)',
					routing: toQuery(WIRE.templateList.search),
				},
				{
					displayName: 'Status',
					name: 'status',
					type: 'options',
					options: TEMPLATE_STATUS_OPTIONS,
					default: 'APPROVED',
					description: 'Only templates in this review status',
					routing: toQuery(WIRE.templateList.status),
				},
			],
		},
	],
	rules: [
		id(queryField(WIRE.templateList.integrationId, 'Integration ID'), { required: true }),
		text(queryField(WIRE.templateList.search, 'Search'), { max: NAME_MAX_LENGTH }),
		oneOf(queryField(WIRE.templateList.status, 'Status'), TEMPLATE_STATUS_OPTIONS),
	],
	output: {
		kind: 'list',
		list: {
			itemsPath: 'response.templates',
			paging: {
				kind: 'cursor',
				pageSizeKey: WIRE.templateList.pageSize,
				cursorKey: WIRE.templateList.cursor,
				maxPageSize: PAGE_SIZE.templates.max,
				cursorPath: 'response.paging.after',
				hasNextPath: 'response.paging.hasNext',
			},
		},
	},
});
