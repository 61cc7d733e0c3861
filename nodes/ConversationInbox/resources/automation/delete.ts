import { id } from '../../../shared/checks';
import { body, idParameter, WHERE_TO_FIND } from '../../helpers/fields';
import { defineOperation } from '../../helpers/operation';
import { confirm } from '../../helpers/output';

export const automationDelete = defineOperation({
	resource: 'automation',
	operation: 'delete',
	name: 'Delete',
	action: 'Delete an automation trigger by its ID',
	description:
		'Delete an automation trigger by its ID, so that its automation no longer starts. Returns { success, automationTriggerId }.',
	method: 'POST',
	path: '/automation/delete',
	fields: [
		body(idParameter({
			displayName: 'Automation Trigger ID',
			name: 'automationTriggerId',
			required: true,
			description: 'ID of the automation trigger',
			whereToFind: WHERE_TO_FIND.automationTrigger,
		}), id({ required: true })),
	],
	errors: { byStatus: { 404: 'No automation trigger has this ID (it may have been deleted already).' } },
	output: { kind: 'single', unwrap: confirm('automationTriggerId') },
});
