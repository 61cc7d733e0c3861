import type { Resource } from '../../helpers/operation';
import { webhookCreate } from './create';

/** The operations of this resource: one line per operation file. */
export const webhookResource: Resource = {
	resource: 'webhook',
	operations: [
		webhookCreate,
	],
	defaultOperation: 'create',
};
