import { INTEGRATION_BY_NAME } from '../../../shared/integrationLocator';
import { id, text } from '../../../shared/checks';
import { body, INTEGRATION, PHONE_NUMBER } from '../../helpers/fields';
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
			INTEGRATION,
			id({ required: true, byName: INTEGRATION_BY_NAME }),
		),
		body(
			PHONE_NUMBER,
			text({ required: true, trim: true }),
		),
	],
	// { exists, jid }
	output: { kind: 'single', unwrap: pick('response') },
});
