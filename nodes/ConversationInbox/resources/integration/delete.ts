import { idParameter, toBody } from '../../helpers/fields';
import { defineOperation } from '../../helpers/operation';
import { confirm } from '../../helpers/output';
import { bodyField, id } from '../../helpers/validation';

export const deleteIntegration = defineOperation({
	resource: 'integration',
	operation: 'delete',
	name: 'Delete',
	action: 'Delete an integration',
	description:
		'Queue a channel integration for deletion. Deletion runs in the background; meanwhile its status is DELETING.',
	method: 'POST',
	path: '/integration/delete',
	fields: [
		idParameter({
			displayName: 'Integration ID',
			name: 'integrationId',
			required: true,
			description: 'ID of the channel integration to delete',
			routing: toBody('integrationId'),
		}),
	],
	rules: [id(bodyField('integrationId', 'Integration ID'), { required: true })],
	output: { kind: 'single', unwrap: confirm('integrationId') },
});
