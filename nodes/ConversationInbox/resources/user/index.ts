import { resourceProperties } from '../../helpers/operation';
import { getAll } from './getAll';

export const userOperations = [getAll];

export const userProperties = resourceProperties('user', userOperations, 'getAll');
