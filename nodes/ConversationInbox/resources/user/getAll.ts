import { returnAllAndLimit } from '../../helpers/fields';
import { defineOperation } from '../../helpers/operation';

export const getAll = defineOperation({
	resource: 'user',
	operation: 'getAll',
	name: 'Get Many',
	action: 'Get many users',
	description: 'List the users (attendants) of the company',
	method: 'GET',
	path: '/user/list',
	fields: [
		...returnAllAndLimit(
			'The API returns the whole list in one answer; Limit keeps the first ones. One item per user.',
		),
	],
	rules: [],
	output: { kind: 'list', list: { itemsPath: 'data.users', paging: { kind: 'whole' } } },
});
