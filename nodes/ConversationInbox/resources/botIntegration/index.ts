import { resourceProperties } from '../../helpers/operation';
import { create } from './create';

export const botIntegrationOperations = [create];

export const botIntegrationProperties = resourceProperties(
	'botIntegration',
	botIntegrationOperations,
	'create',
);
