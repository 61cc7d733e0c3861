import { idParameter, PHONE_PLACEHOLDER, toBody } from '../../helpers/fields';
import { defineOperation } from '../../helpers/operation';
import { pick } from '../../helpers/output';
import { bodyField, id, text } from '../../helpers/validation';

export const validatePhoneNumber = defineOperation({
	resource: 'integration',
	operation: 'validatePhoneNumber',
	name: 'Validate Phone Number',
	action: 'Validate a phone number',
	description: 'Check whether a phone number exists on the messaging channel of an integration',
	method: 'POST',
	path: '/integration/validate-chat-phone-number',
	fields: [
		idParameter({
			displayName: 'Integration ID',
			name: 'integrationId',
			required: true,
			description: 'ID of the channel integration to check the number on',
			routing: toBody('integrationId'),
		}),
		{
			displayName: 'Phone Number',
			name: 'phoneNumber',
			type: 'string',
			required: true,
			default: '',
			placeholder: PHONE_PLACEHOLDER,
			description: 'Phone number to check, with country and area code',
			routing: toBody('phoneNumber'),
		},
	],
	rules: [
		id(bodyField('integrationId', 'Integration ID'), { required: true }),
		text(bodyField('phoneNumber', 'Phone Number'), { required: true, trim: true }),
	],
	// { exists, jid }
	output: { kind: 'single', unwrap: pick('response') },
});
