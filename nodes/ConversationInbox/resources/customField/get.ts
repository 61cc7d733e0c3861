import { phone } from '../../../shared/checks';
import { PHONE_NUMBER, query } from '../../helpers/fields';
import { defineOperation } from '../../helpers/operation';
import { pick } from '../../helpers/output';
import { WIRE } from '../../../shared/wireNames';

export const customFieldGet = defineOperation({
	resource: 'customField',
	operation: 'get',
	name: 'Get',
	action: "Get a contact's custom fields by phone",
	description:
		'Read the custom fields of a contact, found by phone number. Returns one item { fields, assignedTemplateIds }: each field with its ID, key, label, type and value.',
	method: 'GET',
	path: '/inbox/get-custom-fields-from-chat',
	wireNames: WIRE.customFieldsRead,
	fields: [
		query(
			PHONE_NUMBER,
			phone({ required: true, format: 'number' }),
			{ key: WIRE.customFieldsRead.phoneNumber },
		),
	],
	// One item: { fields: [...], assignedTemplateIds: [...] }
	output: { kind: 'single', unwrap: pick('response.customFields') },
});
