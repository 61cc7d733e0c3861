import type { IDataObject } from 'n8n-workflow';

/** Where each list lives in the API's answers (api-spec.md), for the operations and the pickers. */
export const LIST_AT = {
	tagContacts: 'data.contacts',
	chats: 'response.chats',
	messages: 'response.messages',
	templates: 'response.templates',
	integrations: 'response.integrations',
	users: 'data.users',
} as const;

/** The value at a dotted path (`data.tag`, `response.paging.after`). */
export function valueAt(source: unknown, path: string): unknown {
	let current: unknown = source;
	for (const part of path.split('.')) {
		if (current === null || typeof current !== 'object') return undefined;
		current = (current as IDataObject)[part];
	}
	return current;
}

/** The objects of the list at `path` (a missing list is an empty one; other entries are skipped). */
export function objectsAt(body: unknown, path: string): IDataObject[] {
	const list = valueAt(body, path);
	return Array.isArray(list)
		? list.filter((entry): entry is IDataObject => !!entry && typeof entry === 'object' && !Array.isArray(entry))
		: [];
}
