import type { Resource } from '../../helpers/operation';
import { userGetAll } from './getAll';

/** The operations of this resource: one line per operation file. */
export const userResource: Resource = {
	resource: 'user',
	operations: [
		userGetAll,
	],
	defaultOperation: 'getAll',
};
