import { LIST_AT } from '../../../shared/answers';
import { returnAllAndLimit } from '../../helpers/fields';
import { defineOperation } from '../../helpers/operation';

export const integrationGetAll = defineOperation({
	resource: 'integration',
	operation: 'getAll',
	name: 'Get Many',
	action: 'Get many integrations (messaging lines)',
	description:
		'List the channel integrations (connected messaging lines) of the company, one item each with its ID, name, sector and connection status',
	method: 'GET',
	path: '/integration/list',
	fields: [
		...returnAllAndLimit(),
	],
	output: {
		kind: 'list',
		list: { itemsPath: LIST_AT.integrations, paging: { kind: 'whole' } },
	},
});
