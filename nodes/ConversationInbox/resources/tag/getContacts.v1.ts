import { id, text } from '../../../shared/checks';
import { NAME_MAX_LENGTH } from '../../../shared/constants';
import { idParameter, query, targetOf, WHERE_TO_FIND } from '../../helpers/fields';
import { defineOperation } from '../../helpers/operation';
import { atLeastOne } from '../../helpers/prepare';
import { GET_CONTACTS } from './getContacts';

const tagId = query(idParameter({
	displayName: 'Tag ID',
	name: 'tagId',
	description: 'ID of the tag. Give Tag ID or Tag Name.',
	whereToFind: WHERE_TO_FIND.tag,
}), id());

const tagName = query({
	displayName: 'Tag Name',
	name: 'tagName',
	type: 'string',
	default: '',
	placeholder: 'e.g. VIP Customer',
	description: 'Exact name of the tag (case-sensitive). Give Tag ID or Tag Name.',
}, text({ min: 1, max: NAME_MAX_LENGTH }));

/**
 * Tag → Get Contacts as released in 0.1.0 (node version 1): Tag ID and Tag Name, neither required
 * by the panel, at least one given. Frozen: a saved 0.1.0 workflow stores `tagId` / `tagName`, and
 * n8n refuses to activate a workflow whose required parameter (version 2's Tag) is missing. The
 * fixtures under test/fixtures/0.1.0 guard it. Version 2 (getContacts.ts) has one Tag field.
 */
export const tagGetContactsV1 = defineOperation({
	...GET_CONTACTS,
	description:
		"List the contacts that have a tag, given the tag's ID or exact name; one item per contact (phone number, name, chat ID, when it was tagged), most recently tagged first",
	fields: [tagId, tagName, ...GET_CONTACTS.returnAllAndLimit],
	rules: [atLeastOne([targetOf(tagId), targetOf(tagName)])],
	versions: [1],
});
