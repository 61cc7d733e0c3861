import { integrationLocatorProperty, INTEGRATION_BY_NAME } from '../../../shared/integrationLocator';
import { id, text } from '../../../shared/checks';
import { body, phoneNumberParameter } from '../../helpers/fields';
import { defineOperation } from '../../helpers/operation';
import { pick } from '../../helpers/output';

export const integrationValidatePhoneNumber = defineOperation({
	resource: 'integration',
	operation: 'validatePhoneNumber',
	name: 'Validate Phone Number',
	action: 'Check a number exists on a messaging line',
	description:
		'Check whether a phone number has an account on the messaging channel of an integration. Returns { exists, jid }, the JID being the number\'s channel chat ID.',
	method: 'POST',
	path: '/integration/validate-chat-phone-number',
	fields: [
		body(
			integrationLocatorProperty({
			description: 'The channel integration (messaging line) to check the number on',
			}),
			id({ required: true, byName: INTEGRATION_BY_NAME }),
		),
		body(
			phoneNumberParameter({
			description:
					'Phone number to check: country code, area code and number (e.g. 5511999998888 or +55 11 99999-8888)',
				hint: 'With country and area code, in any format: 5511987650001 and +55 11 98765-0001 both work',
			}),
			text({ required: true, trim: true }),
		),
	],
	// { exists, jid }
	output: { kind: 'single', unwrap: pick('response') },
});
