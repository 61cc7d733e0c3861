import type { Resource } from '../../helpers/operation';
import { integrationDelete } from './delete';
import { integrationDisconnect } from './disconnect';
import { integrationGetAll } from './getAll';
import { integrationValidatePhoneNumber, integrationValidatePhoneNumberV1 } from './validatePhoneNumber';

/** The operations of this resource: one line per operation file. */
export const integrationResource: Resource = {
	resource: 'integration',
	operations: [
		integrationGetAll,
		integrationDisconnect,
		integrationDelete,
		integrationValidatePhoneNumber,
		integrationValidatePhoneNumberV1,
	],
	defaultOperation: 'getAll',
};
