import { resourceProperties } from '../../helpers/operation';
import { getAll } from './getAll';

export const messageOperations = [getAll];

export const messageProperties = resourceProperties('message', messageOperations, 'getAll');
