import { resourceProperties } from '../../helpers/operation';
import { groupGetInviteUrl } from './getInviteUrl';

/** The operations of this resource: one line per operation file. */
export const groupProperties = resourceProperties('group', [
	groupGetInviteUrl,
], 'getInviteUrl');
