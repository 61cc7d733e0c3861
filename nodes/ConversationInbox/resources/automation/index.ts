import { resourceProperties } from '../../helpers/operation';
import { automationDelete } from './delete';
import { automationStopInChat } from './stopInChat';
import { automationUpdate } from './update';

/** The operations of this resource: one line per operation file. */
export const automationProperties = resourceProperties('automation', [
	automationUpdate,
	automationDelete,
	automationStopInChat,
], 'update');
