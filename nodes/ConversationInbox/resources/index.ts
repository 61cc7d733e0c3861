import { automationProperties } from './automation';
import { botIntegrationProperties } from './botIntegration';
import { chatProperties } from './chat';
import { customFieldProperties } from './customField';
import { groupProperties } from './group';
import { integrationProperties } from './integration';
import { messageProperties } from './message';
import { tagProperties } from './tag';
import { templateProperties } from './template';
import { userProperties } from './user';
import { webhookProperties } from './webhook';

/**
 * Every resource's operation selectors and fields as its operations declare them: one property per
 * operation and name. The node shares them by name (helpers/sharing.ts); the panel tests compare
 * each operation's panel with this declared form.
 */
export const declaredOperationProperties = [
	...automationProperties,
	...botIntegrationProperties,
	...chatProperties,
	...customFieldProperties,
	...groupProperties,
	...integrationProperties,
	...messageProperties,
	...tagProperties,
	...templateProperties,
	...userProperties,
	...webhookProperties,
];
