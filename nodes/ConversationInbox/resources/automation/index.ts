import { resourceProperties } from '../../helpers/operation';
import { deleteTrigger } from './delete';
import { stopInChat } from './stopInChat';
import { update } from './update';

export const automationOperations = [update, deleteTrigger, stopInChat];

export const automationProperties = resourceProperties('automation', automationOperations, 'update');
