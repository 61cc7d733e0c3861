import type { INodeProperties } from 'n8n-workflow';

import { INTEGRATION_BY_NAME } from '../../../shared/integrationLocator';
import { id, phone } from '../../../shared/checks';
import { body, INTEGRATION, PHONE_NUMBER, PHONE_NUMBER_V1 } from '../../helpers/fields';
import type { OperationDefinition } from '../../helpers/operation';
import { defineOperation } from '../../helpers/operation';
import { pick } from '../../helpers/output';

/** Both versions: only the Phone Number property differs (version 1's is shared with Stop in Chat). */
const validatePhoneNumber = (phoneProperty: INodeProperties, versions: number[]): OperationDefinition => ({
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
			phoneProperty,
			phone({ required: true, form: 'number' }),
		),
	],
	// { exists, jid }
	output: { kind: 'single', unwrap: pick('response') },
	versions,
});

export const integrationValidatePhoneNumber = defineOperation(validatePhoneNumber(PHONE_NUMBER, [2]));
/** As released in 0.1.0 (node version 1). */
export const integrationValidatePhoneNumberV1 = defineOperation(validatePhoneNumber(PHONE_NUMBER_V1, [1]));
