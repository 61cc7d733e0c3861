import { resourceProperties } from '../../helpers/operation';
import { messageGetAll } from './getAll';

/** The operations of this resource: one line per operation file. */
export const messageProperties = resourceProperties('message', [
	messageGetAll,
], 'getAll');
