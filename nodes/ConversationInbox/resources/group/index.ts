import type { Resource } from '../../helpers/operation';
import { groupGetInviteUrl } from './getInviteUrl';

/** The operations of this resource: one line per operation file. */
export const groupResource: Resource = {
	resource: 'group',
	operations: [
		groupGetInviteUrl,
	],
	defaultOperation: 'getInviteUrl',
};
