import type { INodeProperties } from 'n8n-workflow';

import type { Resource } from '../helpers/operation';
import { resourceProperties } from '../helpers/operation';
import { automationResource } from './automation';
import { botIntegrationResource } from './botIntegration';
import { chatResource } from './chat';
import { customFieldResource } from './customField';
import { groupResource } from './group';
import { integrationResource } from './integration';
import { messageResource } from './message';
import { tagResource } from './tag';
import { templateResource } from './template';
import { userResource } from './user';
import { webhookResource } from './webhook';

/** Every resource of the action node, in the panel's order. */
export const RESOURCES: Resource[] = [
	automationResource,
	botIntegrationResource,
	chatResource,
	customFieldResource,
	groupResource,
	integrationResource,
	messageResource,
	tagResource,
	templateResource,
	userResource,
	webhookResource,
];

/**
 * One node version's Operation selectors and fields as its operations declare them: one property
 * per operation and name. The version's description shares them by name (helpers/sharing.ts); the
 * panel tests compare each operation's panel with this declared form.
 */
export function declaredOperationProperties(version: number): INodeProperties[] {
	return RESOURCES.flatMap((resource) => resourceProperties(resource, version));
}
