import { GROUP_JID_SUFFIX } from '../../../shared/constants';
import { integrationLocatorProperty } from '../../../shared/integrationLocator';
import { GROUP_JID_EXAMPLE, toQuery } from '../../helpers/fields';
import { defineOperation } from '../../helpers/operation';
import { pick } from '../../helpers/output';
import { id, queryField, text } from '../../helpers/validation';
import { WIRE } from '../../wireNames';

export const getInviteUrl = defineOperation({
	resource: 'group',
	operation: 'getInviteUrl',
	name: 'Get Invite URL',
	action: 'Get the invite link of a group by its JID',
	description:
		'Get the full invite URL of a group chat, given the integration the group is on and the group\'s JID (ending in @g.us). Returns { inviteUrl }.',
	method: 'GET',
	path: '/group/get-invite-url',
	fields: [
		integrationLocatorProperty({
			description: 'The channel integration (messaging line) the group is on',
			routing: toQuery(WIRE.groupInvite.integrationId),
		}),
		{
			displayName: 'Group JID',
			name: 'groupJid',
			type: 'string',
			required: true,
			default: '',
			placeholder: `e.g. ${GROUP_JID_EXAMPLE}`,
			description:
				'Channel ID of the group: digits followed by @g.us. A group chat\'s channel chat ID is its JID.',
			routing: toQuery(WIRE.groupInvite.groupJid),
		},
	],
	rules: [
		id(queryField(WIRE.groupInvite.integrationId, 'Integration'), { required: true }),
		text(queryField(WIRE.groupInvite.groupJid, 'Group JID'), {
			required: true,
			trim: true,
			// The spec's rule: it ends with @g.us (and names a group before it).
			check: (value) =>
				value.endsWith(GROUP_JID_SUFFIX) && value.length > GROUP_JID_SUFFIX.length
					? undefined
					: 'must be a group JID ending in @g.us, like 120363025246125486@g.us',
		}),
	],
	assumedNames: [WIRE.groupInvite.integrationId, WIRE.groupInvite.groupJid],
	// { inviteUrl }
	output: { kind: 'single', unwrap: pick('response') },
});
