import { idParameter, toBody } from '../../helpers/fields';
import { defineOperation } from '../../helpers/operation';
import { pick } from '../../helpers/output';
import { bodyField, id } from '../../helpers/validation';

export const disconnect = defineOperation({
	resource: 'integration',
	operation: 'disconnect',
	name: 'Disconnect',
	action: 'Disconnect an integration',
	description:
		'End the active session of a channel integration; it is recreated ready for a new connection',
	method: 'POST',
	path: '/integration/disconnect',
	fields: [
		idParameter({
			displayName: 'Integration ID',
			name: 'integrationId',
			required: true,
			description: 'ID of the channel integration to disconnect',
			routing: toBody('integrationId'),
		}),
	],
	rules: [id(bodyField('integrationId', 'Integration ID'), { required: true })],
	output: { kind: 'single', unwrap: pick('response.integration') },
});
