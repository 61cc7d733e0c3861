import { resourceProperties } from '../../helpers/operation';
import { chatGetAll } from './getAll';

/** The operations of this resource: one line per operation file. */
export const chatProperties = resourceProperties('chat', [
	chatGetAll,
], 'getAll');
