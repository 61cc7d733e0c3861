import { resourceProperties } from '../../helpers/operation';
import { get } from './get';
import { upsert } from './upsert';

export const customFieldOperations = [get, upsert];

export const customFieldProperties = resourceProperties('customField', customFieldOperations, 'get');
