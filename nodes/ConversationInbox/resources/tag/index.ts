import type { Resource } from '../../helpers/operation';
import { tagCreate } from './create';
import { tagGetContacts } from './getContacts';
import { tagGetContactsV1 } from './getContacts.v1';
import { tagRemoveFromContact, tagRemoveFromContactV1 } from './removeFromContact';

/** The operations of this resource: one line per operation file (a released form kept for node version 1: .v1.ts). */
export const tagResource: Resource = {
	resource: 'tag',
	operations: [
		tagCreate,
		tagRemoveFromContact,
		tagRemoveFromContactV1,
		tagGetContacts,
		tagGetContactsV1,
	],
	defaultOperation: 'create',
};
