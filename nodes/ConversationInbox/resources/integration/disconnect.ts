import { integrationLocatorProperty } from '../../../shared/integrationLocator';
import { toBody } from '../../helpers/fields';
import { defineOperation } from '../../helpers/operation';
import { pick } from '../../helpers/output';
import { bodyField, id } from '../../helpers/validation';

export const disconnect = defineOperation({
	resource: 'integration',
	operation: 'disconnect',
	name: 'Disconnect',
	action: 'Disconnect an integration (messaging line)',
	description:
		'End the active session of a channel integration (log the line out); it is recreated ready for a new connection. Returns the integration.',
	method: 'POST',
	path: '/integration/disconnect',
	fields: [
		integrationLocatorProperty({
			description: 'The channel integration to disconnect',
			routing: toBody('integrationId'),
		}),
	],
	rules: [id(bodyField('integrationId', 'Integration'), { required: true })],
	output: { kind: 'single', unwrap: pick('response.integration') },
});
