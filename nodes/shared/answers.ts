import type { IDataObject } from 'n8n-workflow';

/**
 * Where each endpoint's payload lives in its success answer (api-spec.md), read by the one reader of
 * answers (reading.ts): the key the spec names must be there, or the answer is an error that names
 * it. Where the payload is an envelope of several keys, the one that says what happened
 * (`data.removedTags`, `data.stopped`, `response.exists`). `null`: the spec's answer carries only
 * `success`, so an empty 2xx (or 204) is a success.
 */
export const PAYLOAD_AT = {
	'/tag/create': 'data.tag',
	'/tag/remove-from-contact': 'data.removedTags',
	'/tag/list-contacts': 'data.contacts',
	'/automation/edit': 'data.trigger',
	'/automation/delete': null,
	'/automation/stop-automation-in-chat': 'data.stopped',
	'/automation/integration-bot/create': 'data.integrationBot',
	'/integration/list': 'response.integrations',
	'/integration/disconnect': 'response.integration',
	'/integration/delete': null,
	'/integration/validate-chat-phone-number': 'response.exists',
	'/integration/webhook/create': 'response.webhook',
	'/provider-template/list': 'response.templates',
	'/group/get-invite-url': 'response.inviteUrl',
	'/inbox/upsert-custom-fields-by-phone-number': 'response.customFields',
	'/inbox/get-custom-fields-from-chat': 'response.customFields',
	'/inbox/find-all-chats': 'response.chats',
	'/inbox/find-messages-from-inbox': 'response.messages',
	'/user/list': 'data.users',
} as const satisfies Readonly<Record<string, string | null>>;

/**
 * Writes whose output IS what they created (DESIGN.md, "A 2xx to a write is done"): an answer
 * without it is done, but the item fails, since its main value (the new ID) is missing; the message
 * says so and where to find it (`find`). Other writes without their payload give what is known.
 */
export const CREATED_AT: Readonly<Record<string, { what: string; find: string }>> = {
	'/tag/create': {
		what: "the new tag's ID",
		find: 'The API has no endpoint that lists tags: find the tag by its Name on the platform. Do not run this item again: the name is taken now, so the API would refuse it (HTTP 409).',
	},
	'/automation/integration-bot/create': {
		what: "the new bot integration's ID",
		find: 'Find it on the platform by the name you gave it. Running this item again would create a second one.',
	},
	'/integration/webhook/create': {
		what: "the new webhook's ID",
		find: 'The API has no endpoint that lists webhooks: see it on the platform. Running this item again would register a second webhook (every event would then be delivered twice).',
	},
};

/** POST endpoints that only answer a question and change nothing: their answers are read as reads. */
export const QUESTIONS: ReadonlySet<string> = new Set(['/integration/validate-chat-phone-number']);

/** Where each list lives in the API's answers, for the operations and the pickers. */
export const LIST_AT = {
	tagContacts: PAYLOAD_AT['/tag/list-contacts'],
	chats: PAYLOAD_AT['/inbox/find-all-chats'],
	messages: PAYLOAD_AT['/inbox/find-messages-from-inbox'],
	templates: PAYLOAD_AT['/provider-template/list'],
	integrations: PAYLOAD_AT['/integration/list'],
	users: PAYLOAD_AT['/user/list'],
} as const;

/** The payload path of an endpoint: a path, null (only `success`), undefined (not an endpoint we know). */
export function payloadOf(path: string): string | null | undefined {
	return Object.prototype.hasOwnProperty.call(PAYLOAD_AT, path) ? PAYLOAD_AT[path as keyof typeof PAYLOAD_AT] : undefined;
}

/** The value at a dotted path (`data.tag`, `response.paging.after`). */
export function valueAt(source: unknown, path: string): unknown {
	let current: unknown = source;
	for (const part of path.split('.')) {
		if (current === null || typeof current !== 'object') return undefined;
		current = (current as IDataObject)[part];
	}
	return current;
}

/**
 * The API's answer shows that one of the node's assumptions about it is wrong (it ignored a paging
 * parameter, a filter; an object where a list belongs): the item's error in the action node (with
 * this description), the picker's in the editor.
 */
export class AssumptionFailed extends Error {
	constructor(
		message: string,
		readonly description: string,
	) {
		super(message);
		this.name = 'AssumptionFailed';
	}
}

/** The list at `path`; anything else there is an error: an empty list is only a list. */
export function listAt(body: unknown, path: string): unknown[] {
	const list = valueAt(body, path);
	if (Array.isArray(list)) return list;
	const came = list === undefined || list === null ? 'nothing' : typeof list === 'object' ? 'an object' : `a ${typeof list}`;
	throw new AssumptionFailed(
		`The API's answer has no list at ${path}`,
		`The API description shows a list under ${path}; the answer has ${came} there. No output was produced for this item.`,
	);
}

/** The objects of the list at `path` (other entries are skipped); not a list is an error (listAt). */
export function objectsAt(body: unknown, path: string): IDataObject[] {
	return listAt(body, path).filter(
		(entry): entry is IDataObject => !!entry && typeof entry === 'object' && !Array.isArray(entry),
	);
}
