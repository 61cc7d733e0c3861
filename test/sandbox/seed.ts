import { DEMO, SEED_DEFAULTS, type SeedOptions } from './demo';
import { badRequest } from './errors';
import { contactJid, seededId } from './ids';
import { buildTemplates } from './seed-templates';
import { SandboxState } from './state';
import type { AutomationTrigger, Chat, ChatCategory, Contact, CustomFieldTemplate, Integration, Message, TriggerType } from './types';
import { Fields, isPlainObject } from './validation';

// Builds the seeded company: the fixed records of DEMO (demo.ts) plus generated bulk whose sizes
// SeedOptions sets. Everything is derived from indexes and hashes, never from Math.random.
export { DEMO, SEED_DEFAULTS, type SeedOptions } from './demo';
export { buildTemplates } from './seed-templates';

const DAY = 86_400_000;
/** Seeded times lie in the past (from 2025-01-01), so anything created at run time is more recent. */
export const SEED_BASE_MS = Date.parse('2025-01-01T00:00:00.000Z');
const iso = (ms: number): string => new Date(ms).toISOString();
const pad = (n: number, width: number): string => String(n).padStart(width, '0');
const demoId = (kind: string, key: string): string => seededId('demo', kind, key);
const WHATSAPP = DEMO.integrations.whatsapp.id;
const OFFICIAL = DEMO.integrations.official.id;
const SUPPORT = DEMO.sectors.support;
const SALES = DEMO.sectors.sales;

type DemoContactKey = keyof typeof DEMO.contacts;
type DemoChatKey = keyof typeof DEMO.chats;
type DemoTriggerKey = keyof typeof DEMO.triggers;

const MESSAGE_TEXTS = [
	'Hi! I need help with my order.',
	'Sure, what is the order number?',
	'It is 48213, placed yesterday.',
	'Thanks, it ships today. Anything else?',
	'That is all, thank you!',
	'Can I change the delivery address?',
];

export function seedState(options: SeedOptions = {}): SandboxState {
	const opts = { ...SEED_DEFAULTS, ...parseSeedOptions(options) };
	const state = new SandboxState();
	seedUsers(state);
	seedIntegrations(state);
	seedTags(state);
	seedTriggers(state);
	seedCustomFieldTemplates(state);
	seedDemoContactsAndChats(state, opts.messagesPerChat);
	seedBigTag(state, opts.contactsOnBigTag);
	seedGeneratedChats(state, opts.chats, opts.messagesPerChat);
	state.setTemplates(OFFICIAL, buildTemplates(opts.templates));
	return state;
}

function seedUsers(state: SandboxState): void {
	const at = iso(SEED_BASE_MS - 365 * DAY);
	for (const u of Object.values(DEMO.users)) {
		state.users.push({
			id: u.id,
			signature: u.name.split(' ')[0],
			online: u.online,
			createdAt: at,
			updatedAt: at,
			user: { id: u.userId, name: u.name, email: u.email },
		});
	}
}

function seedIntegrations(state: SandboxState): void {
	const at = iso(SEED_BASE_MS - 300 * DAY);
	const extra: Record<keyof typeof DEMO.integrations, Pick<Integration, 'color' | 'onlyApi'>> = {
		whatsapp: { color: '#25D366', onlyApi: false },
		official: { color: '#128C7E', onlyApi: true },
		disconnected: { color: '#FF8C00', onlyApi: false },
	};
	for (const [key, i] of Object.entries(DEMO.integrations) as Array<[keyof typeof DEMO.integrations, (typeof DEMO.integrations)[keyof typeof DEMO.integrations]]>) {
		state.integrations.set(i.id, {
			id: i.id,
			name: i.name,
			chatId: i.chatId,
			connectionStatus: i.connectionStatus,
			provider: i.provider,
			sectorId: i.sectorId,
			createdAt: at,
			updatedAt: at,
			sessionId: i.connectionStatus === 'CONNECTED' ? demoId('session', key) : null,
			...extra[key],
		});
	}
	for (const b of Object.values(DEMO.bots)) state.bots.set(b.id, { ...b, createdAt: at, updatedAt: at });
}

function seedTags(state: SandboxState): void {
	const at = iso(SEED_BASE_MS - 200 * DAY);
	for (const t of Object.values(DEMO.tags)) state.addTag({ ...t, createdAt: at, updatedAt: at });
}

function seedTriggers(state: SandboxState): void {
	const at = iso(SEED_BASE_MS - 100 * DAY);
	const base = {
		description: '',
		automationBotId: null,
		integrations: [WHATSAPP, OFFICIAL],
		chatType: 'CONTACT' as const,
		tagId: null,
		specificMessage: null,
		inAttendance: false,
		delayMinutes: 0,
		transferType: 'ALL' as const,
		moveToQueue: false,
		createdAt: at,
		updatedAt: at,
	};
	const details: Record<DemoTriggerKey, Partial<AutomationTrigger>> = {
		anyMessage: { automationBotId: DEMO.bots.welcome.id, integrations: [WHATSAPP] },
		firstMessage: {},
		specificMessage: { automationBotId: DEMO.bots.faq.id, specificMessage: 'pricing' },
		addTag: { tagId: DEMO.tags.lead.id, delayMinutes: 30 },
		removeVip: { tagId: DEMO.tags.vip.id },
		removeLeadBot: { tagId: DEMO.tags.lead.id, automationBotId: DEMO.bots.faq.id },
		webhook: { chatType: 'ALL' },
		serviceContinuity: { inAttendance: true, moveToQueue: true },
	};
	for (const [key, t] of Object.entries(DEMO.triggers) as Array<[DemoTriggerKey, (typeof DEMO.triggers)[DemoTriggerKey]]>) {
		state.triggers.set(t.id, {
			...base,
			id: t.id,
			name: t.name,
			description: `Demo trigger: ${t.name}`,
			triggerType: t.triggerType as TriggerType,
			...details[key],
		});
	}
}

function seedCustomFieldTemplates(state: SandboxState): void {
	const profile = DEMO.customFields.profile.fields;
	const delivery = DEMO.customFields.delivery.fields;
	const defs: CustomFieldTemplate[] = [
		{
			id: DEMO.customFields.profile.id,
			name: DEMO.customFields.profile.name,
			fields: [
				{ id: profile.cpf, key: 'cpf', label: 'CPF', fieldType: 'TEXT', optionsJson: {}, isRequired: true },
				{ id: profile.birthday, key: 'birthday', label: 'Birthday', fieldType: 'DATE', optionsJson: {}, isRequired: false },
				{ id: profile.plan, key: 'plan', label: 'Plan', fieldType: 'SELECT', optionsJson: { options: ['basic', 'pro', 'enterprise'] }, isRequired: false },
				{ id: profile.score, key: 'score', label: 'Score', fieldType: 'NUMBER', optionsJson: { min: 0, max: 10 }, isRequired: false },
			].map((f, i) => ({ ...f, templateId: DEMO.customFields.profile.id, sortOrder: String(i + 1) })),
		},
		{
			id: DEMO.customFields.delivery.id,
			name: DEMO.customFields.delivery.name,
			fields: [
				{ id: delivery.address, key: 'address', label: 'Delivery address', fieldType: 'TEXT', optionsJson: {}, isRequired: true },
				{ id: delivery.notes, key: 'notes', label: 'Notes', fieldType: 'TEXT', optionsJson: {}, isRequired: false },
			].map((f, i) => ({ ...f, templateId: DEMO.customFields.delivery.id, sortOrder: String(i + 1) })),
		},
	];
	for (const t of defs) {
		state.customFieldTemplates.push(t);
		for (const f of t.fields) state.templateFields.set(f.id, f);
	}
}

function newContact(phoneNumber: string, name: string, params: Record<string, unknown>, lid: string | null = null): Contact {
	return {
		phoneNumber,
		lid,
		name,
		params,
		tags: new Map(),
		customFields: new Map(),
		assignedTemplateIds: [],
		createdAt: iso(SEED_BASE_MS - 150 * DAY),
	};
}

/** Messages alternate inbound/outbound; every third outbound one was sent by an automation. */
function fillMessages(state: SandboxState, chat: Chat, key: string, count: number, firstMs: number, stepMs: number): void {
	for (let m = 0; m < count; m++) {
		const direction = m % 2 === 0 ? 'inbound' : 'outbound';
		const message: Message = {
			id: seededId('message', key, m),
			chatInternalId: chat.id,
			direction,
			text: MESSAGE_TEXTS[m % MESSAGE_TEXTS.length],
			transferType: direction === 'outbound' && m % 3 === 0 ? 'AUTOMATION' : 'USER',
			createdAtMs: firstMs + m * stepMs,
		};
		state.addMessage(chat, message);
	}
	chat.unreadCount = count > 0 && chat.messages[count - 1].direction === 'inbound' ? 1 : 0;
}

/** A chat belongs to the sector of its integration (whatsapp: support, official: sales). */
function newChat(fields: Pick<Chat, 'id' | 'chatId' | 'integrationId' | 'name' | 'phoneNumber' | 'category' | 'attendantId'> & { createdAtMs: number }): Chat {
	return {
		...fields,
		isGroup: fields.chatId.endsWith('@g.us'),
		sectorId: fields.integrationId === WHATSAPP ? SUPPORT : SALES,
		messages: [],
		lastMessageAtMs: fields.createdAtMs,
		unreadCount: 0,
		automations: [],
	};
}

function seedDemoContactsAndChats(state: SandboxState, messagesPerChat: number): void {
	const t = DEMO.tags;
	const tagsOf: Record<DemoContactKey, string[]> = {
		alice: [t.vip.id, t.lead.id, t.customer.id],
		lid: [t.vip.id, t.lead.id],
		noChat: [t.vip.id, t.lead.id],
		botFlow: [t.customer.id],
		systemAutomation: [t.vip.id],
		twoLines: [t.lead.id, t.customer.id],
		finalized: [t.customer.id],
		pinned: [t.vip.id],
	};
	let k = 0;
	for (const [key, c] of Object.entries(DEMO.contacts) as Array<[DemoContactKey, (typeof DEMO.contacts)[DemoContactKey]]>) {
		const contact = newContact(c.phoneNumber, c.name, { source: 'demo', city: 'São Paulo' }, 'lid' in c ? c.lid : null);
		state.addContact(contact);
		tagsOf[key].forEach((tagId, j) => state.tagContact(contact, tagId, SEED_BASE_MS - 50 * DAY + k * 3_600_000 + j * 60_000));
		k++;
	}

	const alice = state.contacts.get(DEMO.contacts.alice.phoneNumber);
	if (alice) {
		const f = DEMO.customFields.profile.fields;
		const at = iso(SEED_BASE_MS - 10 * DAY);
		alice.assignedTemplateIds.push(DEMO.customFields.profile.id);
		alice.customFields.set(f.cpf, { id: f.cpf, sourceType: 'TEMPLATE_FIELD', templateFieldId: f.cpf, key: 'cpf', label: 'CPF', value: '123.456.789-00', updatedAt: at });
		alice.customFields.set(f.plan, { id: f.plan, sourceType: 'TEMPLATE_FIELD', templateFieldId: f.plan, key: 'plan', label: 'Plan', value: 'pro', updatedAt: at });
		const extraId = seededId('extra-field', alice.phoneNumber, 'favoriteColor');
		alice.customFields.set(extraId, { id: extraId, sourceType: 'EXTRA_FIELD', templateFieldId: null, key: 'favoriteColor', label: 'Favorite colour', value: 'blue', updatedAt: at });
	}

	const u = DEMO.users;
	const owner: Record<DemoChatKey, { contact: DemoContactKey | null; attendantId: string | null }> = {
		alice: { contact: 'alice', attendantId: u.ana.id },
		lid: { contact: 'lid', attendantId: u.ana.id },
		botFlow: { contact: 'botFlow', attendantId: null },
		systemAutomation: { contact: 'systemAutomation', attendantId: null },
		twoLinesWhatsapp: { contact: 'twoLines', attendantId: u.bruno.id },
		twoLinesOfficial: { contact: 'twoLines', attendantId: null },
		group: { contact: null, attendantId: null },
		finalized: { contact: 'finalized', attendantId: u.carla.id },
		pinned: { contact: 'pinned', attendantId: u.bruno.id },
	};
	const running: Partial<Record<DemoChatKey, DemoTriggerKey>> = {
		botFlow: 'anyMessage',
		systemAutomation: 'firstMessage',
		twoLinesWhatsapp: 'specificMessage',
		twoLinesOfficial: 'webhook',
	};
	// Fixed chats are newer than every generated one, one hour apart, in DEMO.chats order.
	const start = SEED_BASE_MS + 200 * DAY;
	let n = 0;
	for (const [key, c] of Object.entries(DEMO.chats) as Array<[DemoChatKey, (typeof DEMO.chats)[DemoChatKey]]>) {
		const who = owner[key].contact;
		const contact = who ? DEMO.contacts[who] : null;
		const chat = newChat({
			id: c.id,
			chatId: c.chatId,
			integrationId: c.integrationId,
			name: contact?.name ?? DEMO.group.name,
			phoneNumber: contact?.phoneNumber ?? null,
			category: c.category as ChatCategory,
			attendantId: owner[key].attendantId,
			createdAtMs: start - 30 * DAY + n * 3_600_000,
		});
		fillMessages(state, chat, `demo-${key}`, messagesPerChat, start + n * 3_600_000, 60_000);
		const triggerKey = running[key];
		if (triggerKey) {
			const trigger = DEMO.triggers[triggerKey];
			chat.automations.push({
				type: trigger.kind,
				id: trigger.id,
				name: trigger.name,
				sessionId: demoId('automation-session', key),
				startedAt: iso(start + n * 3_600_000),
			});
		}
		state.addChat(chat);
		n++;
	}
}

/** `count` contacts on DEMO.tags.big, added one minute apart; the highest index is the most recent. */
function seedBigTag(state: SandboxState, count: number): void {
	for (let i = 1; i <= count; i++) {
		const phone = `55219${pad(i, 8)}`;
		const contact = newContact(phone, `Subscriber ${pad(i, 5)}`, { source: 'import', index: i });
		state.addContact(contact);
		state.tagContact(contact, DEMO.tags.big.id, SEED_BASE_MS + i * 60_000);
	}
}

const GENERATED_CATEGORIES: readonly ChatCategory[] = ['attendance', 'queue', 'finalized', 'pinned', 'groups'];

/** Chat i: category rotates (every fifth is a group), a third are on the official line, contact chats
 *  get their own contact (every other one tagged Customer). Message times never collide. */
function seedGeneratedChats(state: SandboxState, count: number, messagesPerChat: number): void {
	const users = Object.values(DEMO.users);
	const perChat = Math.max(messagesPerChat, 1);
	for (let i = 0; i < count; i++) {
		const category = GENERATED_CATEGORIES[i % GENERATED_CATEGORIES.length];
		const isGroup = category === 'groups';
		const integrationId = !isGroup && i % 3 === 2 ? OFFICIAL : WHATSAPP;
		let phoneNumber: string | null = null;
		let name = `Group ${pad(i + 1, 4)}`;
		if (!isGroup) {
			phoneNumber = `55319${pad(i, 8)}`;
			name = `Customer ${pad(i + 1, 4)}`;
			const contact = newContact(phoneNumber, name, { source: 'inbox', index: i });
			state.addContact(contact);
			if (i % 2 === 0) state.tagContact(contact, DEMO.tags.customer.id, SEED_BASE_MS - 40 * DAY + i * 1000);
		}
		const firstMs = SEED_BASE_MS + DAY + i * perChat * 1000;
		const chat = newChat({
			id: seededId('chat', i),
			chatId: isGroup ? `120363${pad(i, 12)}@g.us` : contactJid(phoneNumber ?? ''),
			integrationId,
			name,
			phoneNumber,
			category,
			attendantId: category === 'queue' || isGroup ? null : users[i % users.length].id,
			createdAtMs: firstMs - 1000,
		});
		fillMessages(state, chat, `chat-${i}`, messagesPerChat, firstMs, 1000);
		state.addChat(chat);
	}
}

/** Seed sizes given as JSON (POST /_sandbox/reset) or in code: integers from 0 to 200 000. */
export function parseSeedOptions(value: unknown): SeedOptions {
	if (value === undefined || value === null) return {};
	if (!isPlainObject(value)) throw badRequest('seed options must be an object');
	const f = new Fields(value);
	const size = (name: keyof SeedOptions) => f.integer(name, { min: 0, max: 200_000 });
	const parsed: SeedOptions = {
		contactsOnBigTag: size('contactsOnBigTag'),
		templates: size('templates'),
		chats: size('chats'),
		messagesPerChat: f.integer('messagesPerChat', { min: 0, max: 1000 }),
	};
	return Object.fromEntries(Object.entries(parsed).filter(([, v]) => v !== undefined));
}
