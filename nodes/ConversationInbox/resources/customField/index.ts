import { resourceProperties } from '../../helpers/operation';
import { customFieldGet } from './get';
import { customFieldGetV1 } from './get.v1';
import { customFieldUpsert } from './upsert';
import { customFieldUpsertV1 } from './upsert.v1';

/** The operations of this resource: one line per operation file (a released form kept for node version 1: .v1.ts). */
export const customFieldProperties = resourceProperties('customField', [
	customFieldGet,
	customFieldGetV1,
	customFieldUpsert,
	customFieldUpsertV1,
], 'get');
