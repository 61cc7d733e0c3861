import { INTEGRATION_BY_NAME } from '../../../shared/integrationLocator';
import { id } from '../../../shared/checks';
import { body, INTEGRATION } from '../../helpers/fields';
import { defineOperation } from '../../helpers/operation';
import { pick } from '../../helpers/output';

export const integrationDisconnect = defineOperation({
	resource: 'integration',
	operation: 'disconnect',
	name: 'Disconnect',
	action: 'Disconnect an integration (messaging line)',
	description:
		'End the active session of a channel integration (log the line out); it is recreated ready for a new connection. Returns the integration.',
	method: 'POST',
	path: '/integration/disconnect',
	fields: [
		body(
			INTEGRATION,
			id({ required: true, byName: INTEGRATION_BY_NAME }),
		),
	],
	output: { kind: 'single', unwrap: pick('response.integration') },
});
