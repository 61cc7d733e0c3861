import { INTEGRATION_BY_NAME } from '../../../shared/integrationLocator';
import { id } from '../../../shared/checks';
import { body, INTEGRATION } from '../../helpers/fields';
import { defineOperation } from '../../helpers/operation';
import { confirm } from '../../helpers/output';

export const integrationDelete = defineOperation({
	resource: 'integration',
	operation: 'delete',
	name: 'Delete',
	action: 'Delete an integration (messaging line)',
	description:
		'Delete a channel integration (messaging line) for good. Deletion runs in the background; meanwhile its status is DELETING. Returns { success, integrationId }.',
	method: 'POST',
	path: '/integration/delete',
	fields: [
		body(
			INTEGRATION,
			id({ required: true, byName: INTEGRATION_BY_NAME }),
		),
	],
	output: { kind: 'single', unwrap: confirm('integrationId') },
});
