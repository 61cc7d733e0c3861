import { badRequest, notFound } from './errors';
import { seededId } from './ids';
import { requireChat, requireContact } from './lookups';
import type { ApiContext, Route } from './routes';
import type { Chat } from './types';
import { CHAT_CATEGORIES } from './types';
import { chatView, customFieldViews, messageView } from './views';

/** Page sizes when `limit` is omitted (the spec gives none). */
const DEFAULT_CHATS_LIMIT = 50;
const DEFAULT_MESSAGES_LIMIT = 50;

function getCustomFields({ state, query }: ApiContext) {
	const contact = requireContact(state, query.phone('phoneNumber', { required: true }));
	return {
		success: true,
		response: { customFields: { fields: customFieldViews(state, contact), assignedTemplateIds: [...contact.assignedTemplateIds] } },
	};
}

type ParsedInput =
	| { kind: 'template'; templateFieldId: string; value: unknown; label: string }
	| { kind: 'extra'; sourceType: string; key: string; label: string; value: unknown };

/**
 * Inputs: `{sourceType: 'TEMPLATE_FIELD', templateFieldId, valueJson}` sets a field of a custom-field
 * template (and assigns the template to the contact); any other sourceType (e.g. 'EXTRA_FIELD') is an
 * extra field `{sourceType, key (1-255), label? (1-255, default key), valueJson}`, matched by key.
 * valueJson may be any JSON, null included, but must be present. All inputs are checked before any is
 * applied. The answer lists the fields written, in the read shape.
 */
function upsertCustomFields({ state, body, variants }: ApiContext) {
	const phoneNumber = body.phone('phoneNumber', { required: true });
	const items = body.array('inputs', { required: true, min: 1, max: 200 });
	const inputs = items.map((raw, i): ParsedInput => {
		const item = body.nested(raw, `inputs[${i}]`);
		if (variants.extraFieldShape === 'fieldKey' && !item.present('sourceType')) {
			// Variant: extra fields are {fieldKey, value}.
			const key = item.string('fieldKey', { required: true, min: 1, max: 255 });
			if (!item.hasKey('value')) throw badRequest(`${item.fieldName('value')} is required`);
			return { kind: 'extra', sourceType: 'EXTRA_FIELD', key, label: key, value: item.src.value };
		}
		const sourceType = item.string('sourceType', { required: true, min: 1, max: 64 });
		if (!item.hasKey('valueJson')) throw badRequest(`${item.fieldName('valueJson')} is required (any JSON value, null included)`);
		const value = item.src.valueJson;
		if (sourceType === 'TEMPLATE_FIELD') {
			const templateFieldId = item.string('templateFieldId', { required: true, min: 1, max: 64 });
			const field = state.templateFields.get(templateFieldId);
			if (!field) throw notFound(`${item.fieldName('templateFieldId')}: template field ${templateFieldId} not found`);
			return { kind: 'template', templateFieldId, value, label: field.label };
		}
		if (variants.extraFieldShape === 'fieldKey') throw badRequest(`${item.fieldName('sourceType')}: extra fields are {fieldKey, value} here`);
		const key = item.string('key', { required: true, min: 1, max: 255 });
		const label = item.string('label', { min: 1, max: 255 }) ?? key;
		return { kind: 'extra', sourceType, key, label, value };
	});
	const contact = requireContact(state, phoneNumber);

	const at = state.nowIso();
	const written = new Set<string>();
	for (const input of inputs) {
		if (input.kind === 'template') {
			const field = state.templateFields.get(input.templateFieldId);
			if (!field) continue;
			contact.customFields.set(field.id, { id: field.id, sourceType: 'TEMPLATE_FIELD', templateFieldId: field.id, key: field.key, label: field.label, value: input.value, updatedAt: at });
			if (!contact.assignedTemplateIds.includes(field.templateId)) contact.assignedTemplateIds.push(field.templateId);
			written.add(field.id);
		} else {
			const id = seededId('extra-field', contact.phoneNumber, input.key);
			contact.customFields.set(id, { id, sourceType: input.sourceType, templateFieldId: null, key: input.key, label: input.label, value: input.value, updatedAt: at });
			written.add(id);
		}
	}
	return { success: true, response: { customFields: customFieldViews(state, contact).filter((f) => written.has(f.id)) } };
}

/**
 * Chats of one category, most recent message first. Filters are comma-separated id lists; a chat
 * passes a list when its value is one of them (tagIds: when its contact has any of the tags).
 */
function findAllChats({ state, query, variants }: ApiContext) {
	const category = query.enumOf('category', CHAT_CATEGORIES, { default: 'attendance' });
	const offset = query.integer('offset', { min: 0, default: 0 });
	const limit = query.integer('limit', { min: 1, max: 1000, default: DEFAULT_CHATS_LIMIT });
	const integrationIds = query.idList('integrationIds');
	const sectorIds = query.idList('sectorIds');
	const attendantIds = query.idList('attendantIds');
	const tagIds = query.idList('tagIds');
	if (attendantIds && category !== 'attendance' && category !== 'pinned') {
		throw badRequest(`attendantIds is only valid for categories attendance and pinned, not ${category}`);
	}

	const tests: Array<(chat: Chat) => boolean> = [];
	const inList = (ids: string[] | undefined, pick: (chat: Chat) => string | null): void => {
		if (!ids) return;
		const set = new Set(ids);
		tests.push((chat) => set.has(pick(chat) ?? ''));
	};
	inList(integrationIds, (c) => c.integrationId);
	inList(sectorIds, (c) => c.sectorId);
	inList(attendantIds, (c) => c.attendantId);
	if (tagIds) {
		const set = new Set(tagIds);
		tests.push((chat) => {
			const contact = chat.phoneNumber ? state.contacts.get(chat.phoneNumber) : undefined;
			return !!contact && [...contact.tags.keys()].some((id) => set.has(id));
		});
	}

	if (variants.endlessChats) {
		// Variant: a list that never ends (a chat invented for every position asked).
		const invented = Array.from({ length: limit }, (_, i) => ({ id: `endless-${offset + i}`, category }));
		return { success: true, response: { chats: invented } };
	}
	const all = state.chatsIn(category);
	let page: Chat[];
	if (tests.length === 0) {
		page = all.slice(offset, offset + limit);
	} else {
		page = [];
		let skipped = 0;
		for (const chat of all) {
			if (!tests.every((test) => test(chat))) continue;
			if (skipped < offset) skipped++;
			else if (page.push(chat) === limit) break;
		}
	}
	return { success: true, response: { chats: page.map((chat) => chatView(state, chat)) } };
}

/** Query: chatInternalId (required), offset, limit (1-1000). Newest message first. */
function findMessages({ state, query }: ApiContext) {
	const chat = requireChat(state, query.id('chatInternalId', { required: true }));
	const offset = query.integer('offset', { min: 0, default: 0 });
	const limit = query.integer('limit', { min: 1, max: 1000, default: DEFAULT_MESSAGES_LIMIT });
	const newestFirst = [];
	for (let i = chat.messages.length - 1 - offset; i >= 0 && newestFirst.length < limit; i--) {
		newestFirst.push(messageView(chat, chat.messages[i]));
	}
	return { success: true, response: { messages: newestFirst } };
}

export const inboxRoutes: Route[] = [
	{ method: 'POST', path: '/v2/inbox/upsert-custom-fields-by-phone-number', handler: upsertCustomFields },
	{ method: 'GET', path: '/v2/inbox/get-custom-fields-from-chat', handler: getCustomFields },
	{ method: 'GET', path: '/v2/inbox/find-all-chats', handler: findAllChats },
	{ method: 'GET', path: '/v2/inbox/find-messages-from-inbox', handler: findMessages },
];
