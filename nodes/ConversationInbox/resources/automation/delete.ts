import { idParameter, toBody } from '../../helpers/fields';
import { defineOperation } from '../../helpers/operation';
import { confirm } from '../../helpers/output';
import { bodyField, id } from '../../helpers/validation';

export const deleteTrigger = defineOperation({
	resource: 'automation',
	operation: 'delete',
	name: 'Delete',
	action: 'Delete an automation trigger',
	description: 'Delete an automation trigger',
	method: 'POST',
	path: '/automation/delete',
	fields: [
		idParameter({
			displayName: 'Automation Trigger ID',
			name: 'automationTriggerId',
			required: true,
			description: 'ID of the automation trigger to delete',
			routing: toBody('automationTriggerId'),
		}),
	],
	rules: [id(bodyField('automationTriggerId', 'Automation Trigger ID'), { required: true })],
	output: { kind: 'single', unwrap: confirm('automationTriggerId') },
});
