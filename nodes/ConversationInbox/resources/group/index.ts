import { resourceProperties } from '../../helpers/operation';
import { getInviteUrl } from './getInviteUrl';

export const groupOperations = [getInviteUrl];

export const groupProperties = resourceProperties('group', groupOperations, 'getInviteUrl');
