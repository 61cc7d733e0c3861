import { contactJid } from './ids';
import type { SandboxState } from './state';
import type {
	AutomationTrigger,
	BotIntegration,
	Chat,
	Contact,
	Integration,
	Message,
	Tag,
	TagMembership,
	Webhook,
} from './types';

// Wire shapes: what the API returns for each record. Fields the spec does not show (chat and
// message objects, the trigger object, custom-field items) are the sandbox's own choice and are
// listed here, in one place.

const iso = (ms: number): string => new Date(ms).toISOString();

export const tagView = (tag: Tag): Tag => ({ ...tag });

/** Tag in the tag-of-contact view (remove-from-contact `tags`). */
export const contactTagView = (tag: Tag, addedAtMs: number): Tag & { addedAt: string } => ({
	...tag,
	addedAt: iso(addedAtMs),
});

/** The contact as remove-from-contact names it; chatInternalId is null when the number has no chat. */
export function contactRefView(state: SandboxState, contact: Contact) {
	const chat = state.mostRecentChat(contact.phoneNumber);
	return {
		chatId: chat?.chatId ?? contactJid(contact.phoneNumber),
		phoneNumber: contact.phoneNumber,
		chatInternalId: chat?.id ?? null,
		name: contact.name,
	};
}

export function tagContactView(state: SandboxState, member: TagMembership) {
	const contact = state.contacts.get(member.phoneNumber);
	return {
		chatId: contactJid(member.phoneNumber),
		phoneNumber: member.phoneNumber,
		name: contact?.name ?? '',
		params: { ...(contact?.params ?? {}) },
		addedAt: iso(member.addedAtMs),
	};
}

export const integrationView = (i: Integration) => ({
	id: i.id,
	name: i.name,
	sectorId: i.sectorId,
	connectionStatus: i.connectionStatus,
	createdAt: i.createdAt,
	updatedAt: i.updatedAt,
	chatId: i.chatId,
	color: i.color,
	onlyApi: i.onlyApi,
	provider: i.provider,
});

export const botView = (b: BotIntegration) => ({ id: b.id, name: b.name, createdAt: b.createdAt, updatedAt: b.updatedAt });

export const triggerView = (t: AutomationTrigger) => ({ ...t, integrations: [...t.integrations] });

export const webhookView = (w: Webhook) => ({ ...w, headers: w.headers.map((h) => ({ ...h })) });

export const messageView = (chat: Chat, m: Message) => ({
	id: m.id,
	chatInternalId: chat.id,
	chatId: chat.chatId,
	integrationId: chat.integrationId,
	direction: m.direction,
	fromMe: m.direction === 'outbound',
	type: 'text',
	text: m.text,
	transferType: m.transferType,
	createdAt: iso(m.createdAtMs),
});

/** Element of find-all-chats. `id` is the chatInternalId. */
export function chatView(state: SandboxState, chat: Chat) {
	const last = chat.messages[chat.messages.length - 1];
	const contact = chat.phoneNumber ? state.contacts.get(chat.phoneNumber) : undefined;
	return {
		id: chat.id,
		chatId: chat.chatId,
		name: chat.name,
		phoneNumber: chat.phoneNumber,
		isGroup: chat.isGroup,
		category: chat.category,
		integrationId: chat.integrationId,
		sectorId: chat.sectorId,
		attendantId: chat.attendantId,
		tagIds: contact ? [...contact.tags.keys()] : [],
		unreadCount: chat.unreadCount,
		lastMessage: last ? messageView(chat, last) : null,
		lastMessageAt: iso(chat.lastMessageAtMs),
		createdAt: iso(chat.createdAtMs),
		activeAutomations: chat.automations.map((a) => ({ ...a })),
	};
}

/** The chat as named in stop-automation responses and webhook payloads. */
export const chatRefView = (chat: Chat) => ({
	chatInternalId: chat.id,
	chatId: chat.chatId,
	name: chat.name,
	integrationId: chat.integrationId,
});

/** Custom fields of a contact: assigned template fields (in sortOrder) then extra fields (by key). */
export function customFieldViews(state: SandboxState, contact: Contact) {
	const templateFields = contact.assignedTemplateIds.flatMap((templateId) => {
		const template = state.customFieldTemplates.find((t) => t.id === templateId);
		return (template?.fields ?? []).map((f) => ({
			id: f.id,
			key: f.key,
			label: f.label,
			fieldType: f.fieldType,
			optionsJson: { ...f.optionsJson },
			isRequired: f.isRequired,
			sortOrder: f.sortOrder,
			sourceType: 'TEMPLATE_FIELD',
			templateId: f.templateId,
			value: contact.customFields.get(f.id)?.value ?? null,
		}));
	});
	const extras = [...contact.customFields.values()]
		.filter((v) => v.sourceType !== 'TEMPLATE_FIELD')
		.sort((a, b) => (a.key < b.key ? -1 : 1))
		.map((v, i) => ({
			id: v.id,
			key: v.key,
			label: v.label,
			fieldType: 'TEXT',
			optionsJson: {},
			isRequired: false,
			sortOrder: String(1000 + i),
			sourceType: v.sourceType,
			templateId: null,
			value: v.value,
		}));
	return [...templateFields, ...extras];
}
