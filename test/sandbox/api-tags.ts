import { startRemovalAutomations } from './automations';
import { badRequest, conflict, notFound } from './errors';
import { requireContact, requireTag } from './lookups';
import type { ApiContext, Route } from './routes';
import type { Tag } from './types';
import { contactRefView, contactTagView, tagContactView, tagView } from './views';

const COLOR = /^#[0-9a-fA-F]{6}$/;
/** list-contacts page size when `limit` is omitted (the spec gives none). */
const DEFAULT_CONTACTS_LIMIT = 20;

function createTag({ state, body }: ApiContext) {
	const name = body.string('name', { required: true, min: 1, max: 255 });
	const color = body.string('color', { pattern: COLOR }) ?? '#000000';
	// Case-sensitive: 'VIP' and 'vip' are different tags.
	if (state.tagByName(name)) throw conflict(`name: a tag named "${name}" already exists`);
	const at = state.nowIso();
	const tag: Tag = { id: state.ids.next('tag'), name, color, createdAt: at, updatedAt: at };
	state.addTag(tag);
	return { success: true, data: { tag: tagView(tag) } };
}

function removeFromContact({ state, body }: ApiContext) {
	const phoneNumber = body.phone('phoneNumber', { required: true });
	const tagIds = body.idArray('tagIds', { max: 50 }) ?? [];
	const tagNames = body.stringArray('tagNames', { max: 50, itemMin: 1, itemMax: 255 }) ?? [];
	const triggerAutomations = body.boolean('triggerAutomations', { default: false });
	if (tagIds.length === 0 && tagNames.length === 0) throw badRequest('tagIds and/or tagNames is required (at least one tag)');

	const contact = requireContact(state, phoneNumber);
	// Every tag named must exist; a tag named twice (by id and by name) counts once.
	const wanted = new Map<string, Tag>();
	tagIds.forEach((id, i) => {
		const tag = requireTag(state, id, `tagIds[${i}]`);
		wanted.set(tag.id, tag);
	});
	tagNames.forEach((name, i) => {
		const tag = state.tagByName(name);
		if (!tag) throw notFound(`tagNames[${i}]: no tag named "${name}"`);
		wanted.set(tag.id, tag);
	});

	const removedTags: Tag[] = [];
	const notInContact: Tag[] = [];
	for (const tag of wanted.values()) (state.untagContact(contact, tag.id) ? removedTags : notInContact).push(tag);

	const remaining = [...contact.tags.entries()]
		.sort((a, b) => b[1] - a[1])
		.flatMap(([id, addedAtMs]) => {
			const tag = state.tags.get(id);
			return tag ? [contactTagView(tag, addedAtMs)] : [];
		});
	return {
		success: true,
		data: {
			contact: contactRefView(state, contact),
			removedTags: removedTags.map(tagView),
			notInContact: notInContact.map(tagView),
			tags: remaining,
			automations: startRemovalAutomations(state, contact, removedTags, triggerAutomations),
		},
	};
}

/** Variant sharedPhones: one entry per chat of a number, and two LID-only contacts without one. */
function sharedPhoneViews(state: ApiContext['state'], tag: Tag) {
	const members = state.tagMembers(tag.id);
	const views: Array<ReturnType<typeof tagContactView>> = [];
	members.forEach((member, i) => {
		const view = tagContactView(state, member);
		const chats = state.chatsOfPhone(member.phoneNumber);
		if (chats.length > 1) chats.forEach((chat) => views.push({ ...view, chatId: chat.chatId + (chat.integrationId ? `#${chat.integrationId}` : '') }));
		else views.push(view);
		if (i === 0) {
			for (const n of [1, 2]) views.push({ ...view, chatId: `9000000000000${n}@lid`, phoneNumber: '', name: `LID-only contact ${n}`, params: {} });
		}
	});
	return views;
}

function listContacts({ state, query, variants }: ApiContext) {
	const tagId = query.id('tagId');
	const tagName = query.string('tagName', { min: 1, max: 255 });
	const offset = query.integer('offset', { min: 0, default: 0 });
	const limit = query.integer('limit', { min: 1, max: 100, default: DEFAULT_CONTACTS_LIMIT });
	let tag: Tag;
	if (tagId) {
		tag = requireTag(state, tagId);
		if (tagName !== undefined && tag.name !== tagName) throw badRequest(`tagName: "${tagName}" is not the name of tag ${tagId}`);
	} else if (tagName !== undefined) {
		const byName = state.tagByName(tagName);
		if (!byName) throw notFound(`tagName: no tag named "${tagName}"`);
		tag = byName;
	} else {
		throw badRequest('tagId or tagName is required');
	}
	if (variants.sharedPhones) {
		const views = sharedPhoneViews(state, tag);
		return { success: true, data: { tag: tagView(tag), total: views.length, contacts: views.slice(offset, offset + limit) } };
	}
	const members = state.tagMembers(tag.id);
	return {
		success: true,
		data: {
			tag: tagView(tag),
			total: members.length,
			contacts: members.slice(offset, offset + limit).map((m) => tagContactView(state, m)),
		},
	};
}

export const tagRoutes: Route[] = [
	{ method: 'POST', path: '/v2/tag/create', handler: createTag },
	{ method: 'POST', path: '/v2/tag/remove-from-contact', handler: removeFromContact },
	{ method: 'GET', path: '/v2/tag/list-contacts', handler: listContacts },
];
