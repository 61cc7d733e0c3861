import { boolean, list, phone } from '../../../shared/checks';
import { MAX_TAGS_PER_REMOVAL, NAME_MAX_LENGTH } from '../../../shared/constants';
import {
	additionalFields,
	body,
	idHint,
	listParameter,
	PHONE_NUMBER,
	targetOf,
	WHERE_TO_FIND,
} from '../../helpers/fields';
import { defineOperation } from '../../helpers/operation';
import { pick } from '../../helpers/output';
import { atLeastOne } from '../../helpers/prepare';

const tagIds = body(
	listParameter({
		displayName: 'Tag IDs',
		name: 'tagIds',
		buttonText: 'Add Tag ID',
		placeholder: 'e.g. clx2v8k1h0000abcd1234efgh',
		description:
			'IDs of the tags to remove. Give Tag IDs, Tag Names or both. Several values or one comma-separated text.',
		hint: `At most 50 tag IDs. ${idHint(WHERE_TO_FIND.tag)}`,
	}),
	list({ ids: true, byName: 'put tag names under Tag Names', max: MAX_TAGS_PER_REMOVAL, send: 'array' }),
);

const tagNames = body(
	listParameter({
		displayName: 'Tag Names',
		name: 'tagNames',
		buttonText: 'Add Tag Name',
		placeholder: 'e.g. VIP Customer',
		description:
			'Exact names of the tags to remove (case-sensitive, 1-255 characters each); they must already exist. Add one value per name; a text is always one name (commas included), a list from an expression gives several.',
		hint: 'At most 50 tag names',
	}),
	list({ max: MAX_TAGS_PER_REMOVAL, itemMin: 1, itemMax: NAME_MAX_LENGTH, entriesAreExact: true, send: 'array' }),
);

export const tagRemoveFromContact = defineOperation({
	resource: 'tag',
	operation: 'removeFromContact',
	name: 'Remove From Contact',
	action: 'Remove tags from a contact by phone number',
	description:
		'Remove up to 50 tags (by ID and/or exact name) from a contact found by phone number or LID. Tags the contact does not have are reported in notInContact, not an error; no tag is created. Optionally starts the "tag removed" automations.',
	method: 'POST',
	path: '/tag/remove-from-contact',
	fields: [
		body(
			PHONE_NUMBER,
			phone({ required: true, format: 'numberOrLid' }),
		),
		{
			// The rule that spans the two fields, in the panel (not only in their tooltips).
			displayName: 'Give the tags to remove as Tag IDs, Tag Names or both: at least one tag, at most 50 of each.',
			name: 'removeTagsNotice',
			type: 'notice',
			default: '',
		},
		tagIds,
		tagNames,
		additionalFields([
			body({
				displayName: 'Trigger Automations',
				name: 'triggerAutomations',
				type: 'boolean',
				default: false,
				description:
					'Whether to start the system automations that react to a tag being removed from a contact, one per tag actually removed. They run on the most recent chat of the number; bot flows are not started.',
			}, boolean()),
		]),
	],
	rules: [atLeastOne([targetOf(tagIds), targetOf(tagNames)])],
	errors: {
		byStatus: {
			404: 'Every tag named must already exist (none is created; names are case-sensitive and exact), and the contact must be known by this phone number or LID.',
		},
		noReason: 'Check the Phone Number or LID, and that every Tag ID and exact Tag Name exists.',
	},
	// The whole result: contact, removedTags, notInContact, tags, automations.
	output: { kind: 'single', unwrap: pick('data') },
});
