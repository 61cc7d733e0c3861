import type { Resource } from '../../helpers/operation';
import { templateGetAll } from './getAll';

/** The operations of this resource: one line per operation file. */
export const templateResource: Resource = {
	resource: 'template',
	operations: [
		templateGetAll,
	],
	defaultOperation: 'getAll',
};
