import type { Resource } from '../../helpers/operation';
import { messageGetAll, messageGetAllV1 } from './getAll';

/** The operations of this resource: one line per operation file. */
export const messageResource: Resource = {
	resource: 'message',
	operations: [
		messageGetAll,
		messageGetAllV1,
	],
	defaultOperation: 'getAll',
};
