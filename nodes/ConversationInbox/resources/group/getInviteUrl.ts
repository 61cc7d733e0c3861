import { GROUP_JID_SUFFIX } from '../../../shared/constants';
import { idParameter, toQuery } from '../../helpers/fields';
import { defineOperation } from '../../helpers/operation';
import { pick } from '../../helpers/output';
import { id, queryField, text } from '../../helpers/validation';
import { WIRE } from '../../wireNames';

export const getInviteUrl = defineOperation({
	resource: 'group',
	operation: 'getInviteUrl',
	name: 'Get Invite URL',
	action: 'Get the invite URL of a group',
	description: 'Get the full invite link of a group chat',
	method: 'GET',
	path: '/group/get-invite-url',
	fields: [
		idParameter({
			displayName: 'Integration ID',
			name: 'integrationId',
			required: true,
			description: 'ID of the channel integration the group belongs to',
			routing: toQuery(WIRE.groupInvite.integrationId),
		}),
		{
			displayName: 'Group JID',
			name: 'groupJid',
			type: 'string',
			required: true,
			default: '',
			placeholder: 'e.g. 120363025246125486@g.us',
			description: 'Channel ID of the group, ending in @g.us',
			routing: toQuery(WIRE.groupInvite.groupJid),
		},
	],
	rules: [
		id(queryField(WIRE.groupInvite.integrationId, 'Integration ID'), { required: true }),
		text(queryField(WIRE.groupInvite.groupJid, 'Group JID'), {
			required: true,
			trim: true,
			check: (value) =>
				value.endsWith(GROUP_JID_SUFFIX) && value.length > GROUP_JID_SUFFIX.length
					? undefined
					: 'must be a group JID ending in @g.us, like 120363025246125486@g.us',
		}),
	],
	// { inviteUrl }
	output: { kind: 'single', unwrap: pick('response') },
});
