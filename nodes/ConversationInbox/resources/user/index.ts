import { resourceProperties } from '../../helpers/operation';
import { userGetAll } from './getAll';

/** The operations of this resource: one line per operation file. */
export const userProperties = resourceProperties('user', [
	userGetAll,
], 'getAll');
