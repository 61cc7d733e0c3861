import type { Resource } from '../../helpers/operation';
import { botIntegrationCreate } from './create';

/** The operations of this resource: one line per operation file. */
export const botIntegrationResource: Resource = {
	resource: 'botIntegration',
	operations: [
		botIntegrationCreate,
	],
	defaultOperation: 'create',
};
