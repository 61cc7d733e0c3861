import { resourceProperties } from '../../helpers/operation';
import { deleteIntegration } from './delete';
import { disconnect } from './disconnect';
import { getAll } from './getAll';
import { validatePhoneNumber } from './validatePhoneNumber';

export const integrationOperations = [getAll, disconnect, deleteIntegration, validatePhoneNumber];

export const integrationProperties = resourceProperties(
	'integration',
	integrationOperations,
	'getAll',
);
