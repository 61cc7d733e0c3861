import { resourceProperties } from '../../helpers/operation';
import { integrationDelete } from './delete';
import { integrationDisconnect } from './disconnect';
import { integrationGetAll } from './getAll';
import { integrationValidatePhoneNumber } from './validatePhoneNumber';

/** The operations of this resource: one line per operation file. */
export const integrationProperties = resourceProperties('integration', [
	integrationGetAll,
	integrationDisconnect,
	integrationDelete,
	integrationValidatePhoneNumber,
], 'getAll');
