import type { Resource } from '../../helpers/operation';
import { automationDelete } from './delete';
import { automationStopInChat } from './stopInChat';
import { automationStopInChatV1 } from './stopInChat.v1';
import { automationUpdate } from './update';
import { automationUpdateV1 } from './update.v1';

/** The operations of this resource: one line per operation file (a released form kept for node version 1: .v1.ts). */
export const automationResource: Resource = {
	resource: 'automation',
	operations: [
		automationUpdate,
		automationUpdateV1,
		automationDelete,
		automationStopInChat,
		automationStopInChatV1,
	],
	defaultOperation: 'update',
};
