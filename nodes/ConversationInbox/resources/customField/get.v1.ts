import { defineOperation } from '../../helpers/operation';
import { PHONE_NUMBER_V1 } from '../../helpers/fields';
import { GET, phoneNumberField } from './get';

/**
 * Custom Field → Get as released in 0.1.0 (node version 1): one item { fields, assignedTemplateIds }
 * per contact, as saved workflows read it.
 */
export const customFieldGetV1 = defineOperation({
	...GET,
	description:
		'Read the custom fields of a contact, found by phone number. Returns one item { fields, assignedTemplateIds }: each field with its ID, key, label, type and value.',
	fields: [phoneNumberField(PHONE_NUMBER_V1)],
	versions: [1],
});
