import { resourceProperties } from '../../helpers/operation';
import { getAll } from './getAll';

export const chatOperations = [getAll];

export const chatProperties = resourceProperties('chat', chatOperations, 'getAll');
