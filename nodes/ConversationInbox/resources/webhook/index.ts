import { resourceProperties } from '../../helpers/operation';
import { create } from './create';

export const webhookOperations = [create];

export const webhookProperties = resourceProperties('webhook', webhookOperations, 'create');
