import type {
	IDataObject,
	ILoadOptionsFunctions,
	INodeListSearchItems,
	INodeListSearchResult,
	INodeProperties,
} from 'n8n-workflow';

import { WIRE } from './wireNames';
import { CHAT_CATEGORY_OPTIONS, ID_PATTERN } from './constants';
import { firstText, locatorProperty, phoneMatcher, textMatcher } from './locatorModes';
import { LIST_AT, objectsAt } from './answers';
import { fetchIntegrations } from './integrationLocator';
import { inboxApiRequest } from './transport';

/** Name of the list-search method the chat locator's "From List" mode calls. */
const SEARCH_CHATS_METHOD = 'searchChats';

/**
 * The picker lists chats of every category, one category after the other: open chats first
 * (attendance is the API's default category), closed ones last.
 */
const CHAT_PICKER_CATEGORIES = ['attendance', 'queue', 'pinned', 'groups', 'finalized'] as const;
/** Chats asked for per request (the API allows 1-1000). */
export const CHAT_PICKER_PAGE_SIZE = 100;

/** Where a contact's name or number goes instead of a chat ID (checks.ts `id`'s `byName`). */
export const CHAT_BY_NAME = "choose the chat From List and type the contact's name or number to find it";
/** One call of the list search stops once it holds this many matching chats... */
export const CHAT_PICKER_MIN_RESULTS = 50;
/** ...or after this many requests, so that typing in the search box stays responsive. */
export const CHAT_PICKER_MAX_REQUESTS = 10;

/**
 * A resource-locator property for a chat's internal id (`chatInternalId`): "From List" pages through
 * GET /inbox/find-all-chats across the categories and filters by the typed text; "By ID" takes the
 * `<id>`. The value the node reads is the id either way, also from a plain-string value.
 */
export function chatLocatorProperty(overrides: Partial<INodeProperties> = {}): INodeProperties {
	return {
		...locatorProperty({
			displayName: 'Chat',
			name: 'chatInternalId',
			description: 'The chat in the inbox',
			searchListMethod: SEARCH_CHATS_METHOD,
			listPlaceholder: 'Select a chat...',
			listTypeOptions: {
				slowLoadNotice: {
					message:
						'Searching all chats takes a while on a busy inbox. Type a name or number to narrow the list, or choose the chat "By ID".',
					timeout: 10000,
				},
			},
			what: 'chat',
			idHint: "The chat's internal ID, as listed by Chat → Get Many",
		}),
		...overrides,
	};
}

interface Position {
	/** index in CHAT_PICKER_CATEGORIES; its length once every category is done */
	category: number;
	offset: number;
}

/** The token is "<category>:<offset>", e.g. "queue:200"; anything else starts from the beginning. */
function parseToken(token: string | undefined): Position {
	const match = /^([a-z]+):(\d+)$/.exec(token ?? '');
	const category = match ? CHAT_PICKER_CATEGORIES.indexOf(match[1] as (typeof CHAT_PICKER_CATEGORIES)[number]) : -1;
	if (!match || category < 0) return { category: 0, offset: 0 };
	return { category, offset: Number(match[2]) };
}

function tokenOf(position: Position): string | undefined {
	const category = CHAT_PICKER_CATEGORIES[position.category];
	return category === undefined ? undefined : `${category}:${position.offset}`;
}

const CATEGORY_LABELS = new Map(
	CHAT_CATEGORY_OPTIONS.map((option) => [String(option.value), option.name]),
);

/**
 * The spec does not show the fields of a chat object. We read the internal id from
 * `chatInternalId` or `id` (preferring one that has the `<id>` form), the label from `name`, the
 * number from `phoneNumber` and the channel id from `chatId`, and skip chats without an id.
 */
function chatFields(chat: IDataObject) {
	const ids = [chat.chatInternalId, chat.id].filter(
		(value): value is string => typeof value === 'string' && value.trim() !== '',
	);
	const id = ids.find((value) => ID_PATTERN.test(value.trim())) ?? ids[0];
	return {
		id: id?.trim(),
		name: firstText(chat.name, chat.contactName),
		phoneNumber: firstText(chat.phoneNumber),
		chatId: firstText(chat.chatId),
		integrationId: firstText(chat.integrationId),
	};
}

/** A chat found by the search: its label's parts (the category last) and its line. */
interface FoundChat {
	parts: string[];
	value: string;
	integrationId: string | undefined;
}

/**
 * Chats that would read alike (the same contact on two lines; the category does not say which
 * line) show their line before the category: the integration's name, from GET /integration/list,
 * asked only then and once per call. Without that list the line's ID still tells them apart.
 */
async function withLines(this: ILoadOptionsFunctions, found: FoundChat[]): Promise<INodeListSearchItems[]> {
	const labelOf = (chat: FoundChat): string => chat.parts.join(' · ');
	const contactOf = (chat: FoundChat): string => chat.parts.slice(0, -1).join(' · ');
	const seen = new Map<string, number>();
	for (const chat of found) seen.set(contactOf(chat), (seen.get(contactOf(chat)) ?? 0) + 1);
	const alike = (chat: FoundChat): boolean => (seen.get(contactOf(chat)) ?? 0) > 1 && !!chat.integrationId;
	const lines = new Map<string, string>();
	if (found.some(alike)) {
		try {
			for (const integration of await fetchIntegrations.call(this)) {
				const name = firstText(integration.name);
				if (name) lines.set(String(integration.id), name);
			}
		} catch {
			// The list is a nicety here: the picker still answers, with the line's ID.
		}
	}
	return found.map((chat) => {
		if (!alike(chat)) return { name: labelOf(chat), value: chat.value };
		const line = lines.get(chat.integrationId as string) ?? (chat.integrationId as string);
		return { name: [...chat.parts.slice(0, -1), line, ...chat.parts.slice(-1)].join(' · '), value: chat.value };
	});
}

/**
 * listSearch method of the chat locator. Walks GET /inbox/find-all-chats category by category
 * (CHAT_PICKER_CATEGORIES) in pages of CHAT_PICKER_PAGE_SIZE; a page shorter than asked ends a
 * category (the API gives no total). Keeps the chats whose name, phone number, channel chat id or
 * internal id contains the typed text (a typed phone number is compared by its digits), in the
 * API's order (most recent first within a category). One call stops at CHAT_PICKER_MIN_RESULTS
 * matches or CHAT_PICKER_MAX_REQUESTS requests and returns a `paginationToken` ("<category>:<offset>")
 * from which the editor's next call (when the user scrolls) goes on; no token once every category
 * has been read.
 */
export async function searchChats(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	const W = WIRE.chatList;
	const matchesText = textMatcher(filter);
	const matchesPhone = phoneMatcher(filter);
	const found: FoundChat[] = [];
	let position = parseToken(paginationToken);
	let requests = 0;

	while (
		position.category < CHAT_PICKER_CATEGORIES.length &&
		requests < CHAT_PICKER_MAX_REQUESTS &&
		found.length < CHAT_PICKER_MIN_RESULTS
	) {
		const category = CHAT_PICKER_CATEGORIES[position.category];
		const body = await inboxApiRequest.call(this, {
			method: 'GET',
			path: '/inbox/find-all-chats',
			qs: { [W.category]: category, [W.offset]: position.offset, [W.limit]: CHAT_PICKER_PAGE_SIZE },
			interactive: true,
		});
		requests++;
		const chats = objectsAt(body, LIST_AT.chats);
		for (const chat of chats) {
			const { id, name, phoneNumber, chatId, integrationId } = chatFields(chat);
			if (!id) continue;
			if (!matchesText(name, phoneNumber, chatId, id) && !matchesPhone(phoneNumber, chatId)) continue;
			const label = [name ?? phoneNumber ?? chatId ?? id];
			if (name && (phoneNumber ?? chatId)) label.push(String(phoneNumber ?? chatId));
			label.push(CATEGORY_LABELS.get(category) ?? category);
			found.push({ parts: label, value: id, integrationId });
		}
		position =
			chats.length < CHAT_PICKER_PAGE_SIZE
				? { category: position.category + 1, offset: 0 }
				: { category: position.category, offset: position.offset + chats.length };
	}

	return { results: await withLines.call(this, found), paginationToken: tokenOf(position) };
}
