import { resourceProperties } from '../../helpers/operation';
import { tagCreate } from './create';
import { tagGetContacts } from './getContacts';
import { tagRemoveFromContact } from './removeFromContact';

/** The operations of this resource: one line per operation file. */
export const tagProperties = resourceProperties('tag', [
	tagCreate,
	tagRemoveFromContact,
	tagGetContacts,
], 'create');
