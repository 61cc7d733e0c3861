import { resourceProperties } from '../../helpers/operation';
import { templateGetAll } from './getAll';

/** The operations of this resource: one line per operation file. */
export const templateProperties = resourceProperties('template', [
	templateGetAll,
], 'getAll');
