import { NAME_MAX_LENGTH, PAGE_SIZE } from '../../../shared/constants';
import { idParameter, returnAllAndLimit, toQuery, WHERE_TO_FIND } from '../../helpers/fields';
import { defineOperation } from '../../helpers/operation';
import { atLeastOne, id, queryField, text } from '../../helpers/validation';
import { WIRE } from '../../wireNames';

const tagId = queryField('tagId', 'Tag ID');
const tagName = queryField('tagName', 'Tag Name');

export const getContacts = defineOperation({
	resource: 'tag',
	operation: 'getContacts',
	name: 'Get Contacts',
	action: 'Get the contacts that have a tag',
	description:
		'List the contacts that have a tag, given the tag\'s ID or exact name; one item per contact (phone number, name, chat ID, when it was tagged), most recently tagged first',
	method: 'GET',
	path: '/tag/list-contacts',
	fields: [
		idParameter({
			displayName: 'Tag ID',
			name: 'tagId',
			description: 'ID of the tag. Give Tag ID or Tag Name.',
			whereToFind: WHERE_TO_FIND.tag,
			routing: toQuery('tagId'),
		}),
		{
			displayName: 'Tag Name',
			name: 'tagName',
			type: 'string',
			default: '',
			placeholder: 'e.g. VIP Customer',
			description: 'Exact name of the tag (case-sensitive). Give Tag ID or Tag Name.',
			routing: toQuery('tagName'),
		},
		...returnAllAndLimit(
			`Fetched in pages of up to ${PAGE_SIZE.tagContacts.max} contacts; one item per contact`,
		),
	],
	rules: [
		id(tagId),
		text(tagName, { min: 1, max: NAME_MAX_LENGTH }),
		atLeastOne([tagId, tagName]),
	],
	output: {
		kind: 'list',
		list: {
			itemsPath: 'data.contacts',
			paging: {
				kind: 'offset',
				offsetKey: WIRE.tagContacts.offset,
				pageSizeKey: WIRE.tagContacts.limit,
				maxPageSize: PAGE_SIZE.tagContacts.max,
				totalPath: 'data.total',
			},
		},
	},
});
