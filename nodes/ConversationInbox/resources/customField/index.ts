import type { Resource } from '../../helpers/operation';
import { customFieldGet } from './get';
import { customFieldGetV1 } from './get.v1';
import { customFieldUpsert } from './upsert';
import { customFieldUpsertV1 } from './upsert.v1';

/** The operations of this resource: one line per operation file (a released form kept for node version 1: .v1.ts). */
export const customFieldResource: Resource = {
	resource: 'customField',
	operations: [
		customFieldGet,
		customFieldGetV1,
		customFieldUpsert,
		customFieldUpsertV1,
	],
	defaultOperation: 'get',
};
