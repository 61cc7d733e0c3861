import { phoneNumberParameter, toQuery } from '../../helpers/fields';
import { defineOperation } from '../../helpers/operation';
import { pick } from '../../helpers/output';
import { phone, queryField } from '../../helpers/validation';
import { WIRE } from '../../wireNames';

export const get = defineOperation({
	resource: 'customField',
	operation: 'get',
	name: 'Get',
	action: "Get a contact's custom fields by phone",
	description:
		'Read the custom fields of a contact, found by phone number. Returns one item { fields, assignedTemplateIds }: each field with its ID, key, label, type and value.',
	method: 'GET',
	path: '/inbox/get-custom-fields-from-chat',
	fields: [
		phoneNumberParameter({
			description:
				'Phone number of the contact: country code, area code and number, 8-30 characters (e.g. 5511999998888 for +55 11 99999-8888)',
			routing: toQuery(WIRE.customFieldsRead.phoneNumber),
		}),
	],
	rules: [phone(queryField(WIRE.customFieldsRead.phoneNumber, 'Phone Number'), { required: true, format: 'number' })],
	assumedNames: [WIRE.customFieldsRead.phoneNumber],
	// One item: { fields: [...], assignedTemplateIds: [...] }
	output: { kind: 'single', unwrap: pick('response.customFields') },
});
