import type { INodeProperties } from 'n8n-workflow';

import { boolean, list, phone } from '../../../shared/checks';
import { MAX_TAGS_PER_REMOVAL, NAME_MAX_LENGTH } from '../../../shared/constants';
import {
	additionalFields,
	body,
	idHint,
	listParameter,
	PHONE_NUMBER,
	PHONE_NUMBER_V1,
	targetOf,
	WHERE_TO_FIND,
} from '../../helpers/fields';
import type { OperationDefinition } from '../../helpers/operation';
import { defineOperation } from '../../helpers/operation';
import { pick } from '../../helpers/output';
import { atLeastOne } from '../../helpers/prepare';

const tagIds = body(
	listParameter({
		displayName: 'Tag IDs',
		name: 'tagIds',
		buttonText: 'Add Tag ID',
		placeholder: 'e.g. clx2v8k1h0000abcd1234efgh',
		// No hint: n8n repeats a list's hint under every row; the notice above says it once.
		description: `IDs of the tags to remove (at most 50). Give Tag IDs, Tag Names or both. Several values or one comma-separated text. ${idHint(WHERE_TO_FIND.tag)}`,
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
			'Exact names of the tags to remove (at most 50, case-sensitive, 1-255 characters each); they must already exist. Add one value per name; a text is always one name (commas included), a list from an expression gives several.',
	}),
	list({ max: MAX_TAGS_PER_REMOVAL, itemMin: 1, itemMax: NAME_MAX_LENGTH, entriesAreExact: true, send: 'array' }),
);

/** The contact's phone number or LID: the one phone check, in the words of every phone field. */
const phoneCheck = phone({ required: true, form: 'numberOrLid' });

/** The fields after Phone Number, and everything else both versions share. */
function removeFromContact(phoneProperty: INodeProperties, notice: string, versions: number[]): OperationDefinition {
	return {
		resource: 'tag',
		operation: 'removeFromContact',
		name: 'Remove From Contact',
		action: 'Remove tags from a contact by phone number',
		description:
			'Remove up to 50 tags (by ID and/or exact name) from a contact found by phone number or LID. Tags the contact does not have are reported in notInContact, not an error; no tag is created. Optionally starts the "tag removed" automations.',
		method: 'POST',
		path: '/tag/remove-from-contact',
		fields: [
			body(phoneProperty, phoneCheck),
			{
				// The rule that spans the two fields, in the panel (not only in their tooltips).
				displayName: notice,
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
		versions,
	};
}

/**
 * Said once, between Phone Number and the tags: what Phone Number takes here besides a number
 * (its shared texts speak for every operation), the rule across Tag IDs and Tag Names, and where
 * tag IDs come from (their rows carry no hint: n8n would repeat it under every row).
 */
const NOTICE = `Phone Number may also be the contact's LID (ending in @lid). Give the tags to remove as Tag IDs, Tag Names or both: at least one tag, at most 50 of each. ${WHERE_TO_FIND.tag}`;

/**
 * Version 2: Phone Number required (n8n marks it). Version 1 (as released in 0.1.0) shares its
 * Phone Number with Stop in Chat, where it is optional.
 */
export const tagRemoveFromContact = defineOperation(removeFromContact(PHONE_NUMBER, NOTICE, [2]));
export const tagRemoveFromContactV1 = defineOperation(removeFromContact(PHONE_NUMBER_V1, NOTICE, [1]));
