import { resourceProperties } from '../../helpers/operation';
import { webhookCreate } from './create';

/** The operations of this resource: one line per operation file. */
export const webhookProperties = resourceProperties('webhook', [
	webhookCreate,
], 'create');
