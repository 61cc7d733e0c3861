import { resourceProperties } from '../../helpers/operation';
import { getAll } from './getAll';

export const templateOperations = [getAll];

export const templateProperties = resourceProperties('template', templateOperations, 'getAll');
