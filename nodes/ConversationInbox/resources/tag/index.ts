import { resourceProperties } from '../../helpers/operation';
import { create } from './create';
import { getContacts } from './getContacts';
import { removeFromContact } from './removeFromContact';

export const tagOperations = [create, removeFromContact, getContacts];

export const tagProperties = resourceProperties('tag', tagOperations, 'create');
