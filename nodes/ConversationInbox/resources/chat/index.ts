import type { Resource } from '../../helpers/operation';
import { chatGetAll } from './getAll';

/** The operations of this resource: one line per operation file. */
export const chatResource: Resource = {
	resource: 'chat',
	operations: [
		chatGetAll,
	],
	defaultOperation: 'getAll',
};
