import { idParameter, toBody, WHERE_TO_FIND } from '../../helpers/fields';
import { defineOperation } from '../../helpers/operation';
import { confirm } from '../../helpers/output';
import { bodyField, id } from '../../helpers/validation';

export const deleteTrigger = defineOperation({
	resource: 'automation',
	operation: 'delete',
	name: 'Delete',
	action: 'Delete an automation trigger by its ID',
	description:
		'Delete an automation trigger by its ID, so that its automation no longer starts. Returns { success, automationTriggerId }.',
	method: 'POST',
	path: '/automation/delete',
	fields: [
		idParameter({
			displayName: 'Automation Trigger ID',
			name: 'automationTriggerId',
			required: true,
			description: 'ID of the automation trigger to delete',
			whereToFind: WHERE_TO_FIND.automationTrigger,
			routing: toBody('automationTriggerId'),
		}),
	],
	rules: [id(bodyField('automationTriggerId', 'Automation Trigger ID'), { required: true })],
	errors: { byStatus: { 404: 'No automation trigger has this ID (it may have been deleted already).' } },
	output: { kind: 'single', unwrap: confirm('automationTriggerId') },
});
