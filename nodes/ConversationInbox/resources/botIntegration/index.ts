import { resourceProperties } from '../../helpers/operation';
import { botIntegrationCreate } from './create';

/** The operations of this resource: one line per operation file. */
export const botIntegrationProperties = resourceProperties('botIntegration', [
	botIntegrationCreate,
], 'create');
