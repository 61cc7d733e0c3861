import { LIST_AT } from '../../../shared/answers';
import { returnAllAndLimit } from '../../helpers/fields';
import { defineOperation } from '../../helpers/operation';

export const userGetAll = defineOperation({
	resource: 'user',
	operation: 'getAll',
	name: 'Get Many',
	action: 'Get many users (attendants)',
	description:
		'List the users (attendants) of the company, one item each with its ID, name, e-mail address and online status. The ID is what chat filters call an attendant ID.',
	method: 'GET',
	path: '/user/list',
	fields: [
		...returnAllAndLimit(),
	],
	output: { kind: 'list', list: { itemsPath: LIST_AT.users, paging: { kind: 'whole' } } },
});
