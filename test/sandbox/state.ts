import { IdFactory, contactJid, digitsOf, isLid } from './ids';
import {
	CHAT_CATEGORIES,
	type AutomationTrigger,
	type BotIntegration,
	type Chat,
	type ChatCategory,
	type CompanyUser,
	type Contact,
	type CustomFieldTemplate,
	type Integration,
	type Message,
	type Tag,
	type TagMembership,
	type Template,
	type TemplateField,
	type Webhook,
} from './types';

/** Templates of one official-channel integration, in listing order, with what search needs. */
export interface TemplateCatalog {
	list: Template[];
	/** template id → index in list (cursor decoding) */
	position: Map<string, number>;
	/** lower-cased name + component and button texts, per index */
	haystack: string[];
}

/**
 * The live, in-memory company behind the sandbox. Handlers read and change it; tests may inspect it
 * (`sandbox.state`). Sorted views (tag members most recent first, chats by most recent message) are
 * cached and rebuilt only after a change, so list endpoints cost O(page) on a big seed.
 */
export class SandboxState {
	readonly ids = new IdFactory();
	readonly tags = new Map<string, Tag>();
	readonly contacts = new Map<string, Contact>();
	readonly chats = new Map<string, Chat>();
	readonly integrations = new Map<string, Integration>();
	readonly bots = new Map<string, BotIntegration>();
	readonly triggers = new Map<string, AutomationTrigger>();
	readonly webhooks = new Map<string, Webhook>();
	readonly templates = new Map<string, TemplateCatalog>();
	readonly customFieldTemplates: CustomFieldTemplate[] = [];
	readonly templateFields = new Map<string, TemplateField>();
	readonly users: CompanyUser[] = [];

	private readonly tagsByName = new Map<string, Tag>();
	private readonly contactsByLid = new Map<string, Contact>();
	private readonly members = new Map<string, TagMembership[]>();
	private readonly unsortedTags = new Set<string>();
	private readonly chatsByPhone = new Map<string, Chat[]>();
	private chatsByCategory: Map<ChatCategory, Chat[]> | null = null;
	private lastNow = 0;

	/** Wall-clock ms, strictly increasing, so events created in the same ms still order. */
	now(): number {
		this.lastNow = Math.max(Date.now(), this.lastNow + 1);
		return this.lastNow;
	}

	nowIso(): string {
		return new Date(this.now()).toISOString();
	}

	// ---- tags ---------------------------------------------------------------------------------

	addTag(tag: Tag): void {
		this.tags.set(tag.id, tag);
		this.tagsByName.set(tag.name, tag);
		this.members.set(tag.id, []);
	}

	/** Exact, case-sensitive name lookup. */
	tagByName(name: string): Tag | undefined {
		return this.tagsByName.get(name);
	}

	tagContact(contact: Contact, tagId: string, addedAtMs: number): void {
		if (contact.tags.has(tagId)) return;
		contact.tags.set(tagId, addedAtMs);
		this.members.get(tagId)?.push({ phoneNumber: contact.phoneNumber, addedAtMs });
		this.unsortedTags.add(tagId);
	}

	/** Returns false when the contact did not have the tag. */
	untagContact(contact: Contact, tagId: string): boolean {
		if (!contact.tags.delete(tagId)) return false;
		const list = this.members.get(tagId);
		const at = list?.findIndex((m) => m.phoneNumber === contact.phoneNumber) ?? -1;
		if (list && at >= 0) list.splice(at, 1);
		return true;
	}

	/** Contacts of a tag, most recently added first. */
	tagMembers(tagId: string): TagMembership[] {
		const list = this.members.get(tagId) ?? [];
		if (this.unsortedTags.delete(tagId)) {
			list.sort((a, b) => b.addedAtMs - a.addedAtMs || (a.phoneNumber < b.phoneNumber ? 1 : -1));
		}
		return list;
	}

	// ---- contacts -----------------------------------------------------------------------------

	addContact(contact: Contact): void {
		this.contacts.set(contact.phoneNumber, contact);
		if (contact.lid) this.contactsByLid.set(contact.lid.toLowerCase(), contact);
	}

	/** A phone number in any format, or a LID (`...@lid`) linked to a number. */
	findContact(phoneOrLid: string): Contact | undefined {
		if (isLid(phoneOrLid)) return this.contactsByLid.get(phoneOrLid.trim().toLowerCase());
		return this.contacts.get(digitsOf(phoneOrLid));
	}

	// ---- chats --------------------------------------------------------------------------------

	addChat(chat: Chat): void {
		this.chats.set(chat.id, chat);
		if (chat.phoneNumber) {
			const list = this.chatsByPhone.get(chat.phoneNumber);
			if (list) list.push(chat);
			else this.chatsByPhone.set(chat.phoneNumber, [chat]);
		}
		this.chatsByCategory = null;
	}

	chatsOfPhone(digits: string): Chat[] {
		return this.chatsByPhone.get(digits) ?? [];
	}

	/** The chat of a number with the most recent message, optionally on one integration. */
	mostRecentChat(digits: string, integrationId?: string): Chat | undefined {
		let best: Chat | undefined;
		for (const chat of this.chatsOfPhone(digits)) {
			if (integrationId && chat.integrationId !== integrationId) continue;
			if (!best || chat.lastMessageAtMs > best.lastMessageAtMs) best = chat;
		}
		return best;
	}

	/** Chats of a category, most recent message first. */
	chatsIn(category: ChatCategory): Chat[] {
		if (!this.chatsByCategory) {
			const byCategory = new Map<ChatCategory, Chat[]>(CHAT_CATEGORIES.map((c) => [c, []]));
			for (const chat of this.chats.values()) byCategory.get(chat.category)?.push(chat);
			for (const list of byCategory.values()) {
				list.sort((a, b) => b.lastMessageAtMs - a.lastMessageAtMs || (a.id < b.id ? -1 : 1));
			}
			this.chatsByCategory = byCategory;
		}
		return this.chatsByCategory.get(category) ?? [];
	}

	addMessage(chat: Chat, message: Message): void {
		chat.messages.push(message);
		chat.lastMessageAtMs = Math.max(chat.lastMessageAtMs, message.createdAtMs);
		if (message.direction === 'inbound') chat.unreadCount++;
		this.chatsByCategory = null;
	}

	setCategory(chat: Chat, category: ChatCategory): void {
		chat.category = category;
		this.chatsByCategory = null;
	}

	// ---- integrations -------------------------------------------------------------------------

	/** Final step of the asynchronous delete: the integration, its chats, webhooks and templates go. */
	removeIntegration(id: string): void {
		this.integrations.delete(id);
		this.templates.delete(id);
		for (const [hookId, hook] of this.webhooks) if (hook.integrationId === id) this.webhooks.delete(hookId);
		for (const [chatId, chat] of this.chats) {
			if (chat.integrationId !== id) continue;
			this.chats.delete(chatId);
			if (chat.phoneNumber) {
				const rest = this.chatsOfPhone(chat.phoneNumber).filter((c) => c.id !== chatId);
				this.chatsByPhone.set(chat.phoneNumber, rest);
			}
		}
		this.chatsByCategory = null;
	}

	setTemplates(integrationId: string, list: Template[]): void {
		const position = new Map<string, number>();
		const haystack = list.map((t, i) => {
			position.set(t.id, i);
			const texts = t.components.flatMap((c) => [c.text ?? '', ...(c.buttons ?? []).map((b) => b.text)]);
			return [t.name, ...texts].join('\n').toLowerCase();
		});
		this.templates.set(integrationId, { list, position, haystack });
	}

	// ---- inspection ---------------------------------------------------------------------------

	/** A JSON-able picture of the state for GET /_sandbox/state (messages counted, not listed). */
	snapshot(): Record<string, unknown> {
		return {
			counts: {
				tags: this.tags.size,
				contacts: this.contacts.size,
				chats: this.chats.size,
				integrations: this.integrations.size,
				botIntegrations: this.bots.size,
				triggers: this.triggers.size,
				webhooks: this.webhooks.size,
				templates: [...this.templates.values()].reduce((n, c) => n + c.list.length, 0),
				users: this.users.length,
			},
			tags: [...this.tags.values()].map((t) => ({ ...t, contacts: this.tagMembers(t.id).length })),
			integrations: [...this.integrations.values()],
			botIntegrations: [...this.bots.values()],
			triggers: [...this.triggers.values()],
			webhooks: [...this.webhooks.values()],
			users: this.users,
			customFieldTemplates: this.customFieldTemplates,
			chats: [...this.chats.values()].map(({ messages, ...chat }) => ({
				...chat,
				messages: messages.length,
				lastMessageAt: new Date(chat.lastMessageAtMs).toISOString(),
			})),
			contacts: [...this.contacts.values()].map((c) => ({
				phoneNumber: c.phoneNumber,
				lid: c.lid,
				name: c.name,
				chatId: contactJid(c.phoneNumber),
				tagIds: [...c.tags.keys()],
				customFields: [...c.customFields.values()],
				assignedTemplateIds: c.assignedTemplateIds,
			})),
		};
	}
}
