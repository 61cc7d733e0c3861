import { resourceProperties } from '../../helpers/operation';
import { tagCreate } from './create';
import { tagGetContacts } from './getContacts';
import { tagGetContactsV1 } from './getContacts.v1';
import { tagRemoveFromContact } from './removeFromContact';

/** The operations of this resource: one line per operation file (a released form kept for node version 1: .v1.ts). */
export const tagProperties = resourceProperties('tag', [
	tagCreate,
	tagRemoveFromContact,
	tagGetContacts,
	tagGetContactsV1,
], 'create');
