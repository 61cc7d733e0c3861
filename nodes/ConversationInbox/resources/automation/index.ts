import { resourceProperties } from '../../helpers/operation';
import { automationDelete } from './delete';
import { automationStopInChat } from './stopInChat';
import { automationUpdate } from './update';
import { automationUpdateV1 } from './update.v1';

/** The operations of this resource: one line per operation file (a released form kept for node version 1: .v1.ts). */
export const automationProperties = resourceProperties('automation', [
	automationUpdate,
	automationUpdateV1,
	automationDelete,
	automationStopInChat,
], 'update');
