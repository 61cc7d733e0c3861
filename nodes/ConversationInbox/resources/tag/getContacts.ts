import { LIST_AT } from '../../../shared/answers';
import type { INodeProperties } from 'n8n-workflow';

import { id, isAbsent, isLocatorValue, missing, text } from '../../../shared/checks';
import { ID_PLACEHOLDER, NAME_MAX_LENGTH, PAGE_SIZE } from '../../../shared/constants';
import { ID_MODE_REGEX } from '../../../shared/locatorModes';
import { idHint, returnAllAndLimit, WHERE_TO_FIND } from '../../helpers/fields';
import type { OperationDefinition } from '../../helpers/operation';
import { defineOperation } from '../../helpers/operation';
import { concurrencyOptions, PAGE_CONCURRENCY } from '../../helpers/options';
import type { Rule } from '../../helpers/prepare';
import { subject, writeTarget } from '../../helpers/prepare';
import { WIRE } from '../../../shared/wireNames';

/** Both query parameters are the one Tag field of the panel, given by ID or by name. */
const tagId = { in: 'qs', key: 'tagId', label: 'Tag' } as const;
const tagName = { in: 'qs', key: 'tagName', label: 'Tag' } as const;

/**
 * The Tag field: one input, two modes (n8n's resource locator without a list: the API cannot list
 * tags, which the field's description and both modes' hints say, with where IDs come from). The API
 * takes either `tagId` or `tagName`, so the mode picks the query key. n8n labels the mode `id` "By
 * ID" itself; the other is "Name", short for n8n's narrow mode box, which cut "By Name" to "By Nam".
 */
const tagLocator: INodeProperties = {
	displayName: 'Tag',
	name: 'tag',
	type: 'resourceLocator',
	default: { mode: 'id', value: '' },
	required: true,
	description:
		'The tag whose contacts to list: its ID, or its exact name. There is no list to pick from: the API cannot list tags.',
	modes: [
		{
			displayName: 'By ID',
			name: 'id',
			type: 'string',
			placeholder: `e.g. ${ID_PLACEHOLDER}`,
			hint: idHint(WHERE_TO_FIND.tag),
			validation: [
				{
					type: 'regex',
					properties: {
						regex: ID_MODE_REGEX,
						errorMessage: 'Not a tag ID ("c" and 24 lowercase letters or digits): for the tag\'s name, switch the mode to Name',
					},
				},
			],
		},
		{
			displayName: 'Name',
			name: 'name',
			type: 'string',
			placeholder: 'e.g. VIP Customer',
			hint: 'The exact name, case-sensitive: "vip" does not find "VIP". No list to pick from: the API cannot list tags; their IDs are in the platform and in the output of Tag → Create.',
		},
	],
};

/**
 * Tag ID and Tag Name, the parameters of version 1 (0.1.0, getContacts.v1.ts), as hidden parameters:
 * a node whose JSON names them (changed to version 2 by hand, or written by a tool) still runs;
 * used only while the Tag field is empty.
 */
const LEGACY_TAG_PARAMETERS: INodeProperties[] = [
	{ displayName: 'Tag ID (Legacy)', name: 'tagId', type: 'hidden', default: '' },
	{ displayName: 'Tag Name (Legacy)', name: 'tagName', type: 'hidden', default: '' },
];

const NAME_FIX = 'Give the tag\'s exact name (case-sensitive, as in the platform), or switch Tag to By ID.';

/** The Tag field's mode and value (else the legacy parameters) into `tagId` or `tagName`; then the check of each. */
const tagRule: Rule = (ctx) => {
	const raw = ctx.fn.getNodeParameter('tag', undefined) as unknown;
	const chosen = isLocatorValue(raw) ? raw : { mode: 'id', value: raw };
	const byName = chosen.mode === 'name';
	const legacy = isAbsent(chosen.value);
	const idValue = legacy ? ctx.fn.getNodeParameter('tagId', '') : byName ? undefined : chosen.value;
	const nameValue = legacy ? ctx.fn.getNodeParameter('tagName', '') : byName ? chosen.value : undefined;
	if (isAbsent(idValue) && isAbsent(nameValue)) {
		throw missing(subject(ctx, 'Tag'), 'give the tag\'s ID (By ID) or its exact name (Name)');
	}
	writeTarget(ctx, tagId, id({ byName: 'switch Tag to Name to give its name' })(idValue, subject(ctx, tagId.label)));
	writeTarget(ctx, tagName, text({ min: 1, max: NAME_MAX_LENGTH, fix: NAME_FIX })(nameValue, subject(ctx, tagName.label)));
};

/** What both versions share: everything but how the tag is given. */
export const GET_CONTACTS: Pick<OperationDefinition, 'resource' | 'operation' | 'name' | 'action' | 'method' | 'path' | 'errors' | 'output'> & {
	returnAllAndLimit: INodeProperties[];
	options: INodeProperties[];
} = {
	resource: 'tag',
	operation: 'getContacts',
	name: 'Get Contacts',
	action: 'Get contacts of a tag by tag name or ID',
	method: 'GET',
	path: '/tag/list-contacts',
	returnAllAndLimit: returnAllAndLimit(),
	options: concurrencyOptions(PAGE_SIZE.tagContacts.max, 'contacts'),
	errors: {
		byStatus: { 404: 'No tag has this ID or this exact name: names are case-sensitive and must match in full.' },
		noReason: 'Check the Tag: its ID, or its exact name (case-sensitive).',
	},
	output: {
		kind: 'list',
		list: {
			itemsPath: LIST_AT.tagContacts,
			paging: {
				kind: 'offset',
				offsetKey: WIRE.tagContacts.offset,
				pageSizeKey: WIRE.tagContacts.limit,
				maxPageSize: PAGE_SIZE.tagContacts.max,
				totalPath: 'data.total',
				concurrency: PAGE_CONCURRENCY,
				// An identical contact twice means the list moved while it was paged. Identical as a
				// whole: one number on two chats, or LID-only contacts without a number, all stay.
				dedupe: true,
			},
		},
	},
};

/**
 * Version 2 (version 1, as released in 0.1.0 with Tag ID and Tag Name, is getContacts.v1.ts): one
 * Tag field, by ID or by name.
 */
export const tagGetContacts = defineOperation({
	...GET_CONTACTS,
	description:
		'List the contacts that have a tag, given by ID or by exact name; one item per contact (phone number, name, chat ID, when it was tagged), most recently tagged first',
	fields: [tagLocator, ...LEGACY_TAG_PARAMETERS, ...GET_CONTACTS.returnAllAndLimit],
	rules: [tagRule],
	labels: { [tagId.key]: tagId.label, [tagName.key]: tagName.label },
	versions: [2],
});
