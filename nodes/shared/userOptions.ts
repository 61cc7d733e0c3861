import type { IDataObject, ILoadOptionsFunctions, INodePropertyOptions } from 'n8n-workflow';

import { firstText } from './locatorModes';
import { LIST_AT, objectsAt } from './answers';
import { inboxApiRequest } from './transport';

/** Name of the load-options method of multi-select user (attendant) fields. */
export const GET_USERS_METHOD = 'getUsers';

/**
 * loadOptions method: the company users (attendants) from GET /user/list (the whole list), one
 * option per user, sorted by name. The value is the company user's `id` (what chat filters call an
 * attendant id); the description shows the e-mail address and the online status.
 */
export async function getUsers(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const body = await inboxApiRequest.call(this, { method: 'GET', path: '/user/list', interactive: true });
	return objectsAt(body, LIST_AT.users)
		.filter((entry) => typeof entry.id === 'string' && entry.id !== '')
		.map((entry) => {
			const person = (entry.user ?? {}) as IDataObject;
			return {
				name: firstText(person.name, entry.signature, person.email) ?? String(entry.id),
				value: String(entry.id),
				description: [firstText(person.email), firstText(entry.online)].filter(Boolean).join(' · '),
			};
		})
		.sort((a, b) => a.name.localeCompare(b.name));
}
