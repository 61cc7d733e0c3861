import { resourceProperties } from '../../helpers/operation';
import { customFieldGet } from './get';
import { customFieldUpsert } from './upsert';

/** The operations of this resource: one line per operation file. */
export const customFieldProperties = resourceProperties('customField', [
	customFieldGet,
	customFieldUpsert,
], 'get');
