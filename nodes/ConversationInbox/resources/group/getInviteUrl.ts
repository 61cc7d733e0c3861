import { id, text } from '../../../shared/checks';
import { GROUP_JID_SUFFIX } from '../../../shared/constants';
import { INTEGRATION_BY_NAME } from '../../../shared/integrationLocator';
import { GROUP_JID_EXAMPLE, INTEGRATION, query, requiredText } from '../../helpers/fields';
import { defineOperation } from '../../helpers/operation';
import { pick } from '../../helpers/output';
import { WIRE } from '../../../shared/wireNames';

export const groupGetInviteUrl = defineOperation({
	resource: 'group',
	operation: 'getInviteUrl',
	name: 'Get Invite URL',
	action: 'Get the invite link of a group by its JID',
	description:
		'Get the full invite URL of a group chat, given the integration the group is on and the group\'s JID (ending in @g.us). Returns { inviteUrl }.',
	method: 'GET',
	path: '/group/get-invite-url',
	wireNames: WIRE.groupInvite,
	fields: [
		query(
			INTEGRATION,
			id({ required: true, byName: INTEGRATION_BY_NAME }),
			{ key: WIRE.groupInvite.integrationId },
		),
		query(requiredText({
			displayName: 'Group JID',
			name: 'groupJid',
			placeholder: `e.g. ${GROUP_JID_EXAMPLE}`,
			description:
				'Channel ID of the group: digits followed by @g.us. A group chat\'s channel chat ID is its JID.',
		}), text({
			required: true,
			trim: true,
			// The spec's rule: it ends with @g.us (and names a group before it).
			check: (value) =>
				value.endsWith(GROUP_JID_SUFFIX) && value.length > GROUP_JID_SUFFIX.length
					? undefined
					: 'must be a group JID ending in @g.us, like 120363025246125486@g.us',
			fix: 'Copy the group\'s channel chat ID (it ends in @g.us) from Chat → Get Many with Category Groups.',
		}), { key: WIRE.groupInvite.groupJid }),
	],
	// { inviteUrl }
	output: { kind: 'single', unwrap: pick('response') },
});
