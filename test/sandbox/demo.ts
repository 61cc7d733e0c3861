import { contactJid, seededId } from './ids';

// The fixed part of the seed, by name, so tests and demos need no lookups. seed.ts builds the state
// from it (and re-exports it); nothing here depends on the seed sizes.

/** Sizes of the generated part of the seed (the fixed demo records in DEMO are always there). */
export interface SeedOptions {
	/** contacts on DEMO.tags.big (default 150, so list-contacts pagination is visible) */
	contactsOnBigTag?: number;
	/** provider templates on DEMO.integrations.official (default 60) */
	templates?: number;
	/** generated chats, besides the fixed DEMO.chats (default 40) */
	chats?: number;
	/** messages in every chat, generated and fixed (default 5) */
	messagesPerChat?: number;
}

export const SEED_DEFAULTS: Readonly<Required<SeedOptions>> = {
	contactsOnBigTag: 150,
	templates: 60,
	chats: 40,
	messagesPerChat: 5,
};

const demoId = (kind: string, key: string): string => seededId('demo', kind, key);

const WHATSAPP = demoId('integration', 'whatsapp');
const OFFICIAL = demoId('integration', 'official');
const SUPPORT = demoId('sector', 'support');
const SALES = demoId('sector', 'sales');

/**
 * Fixed ids and values of the seeded demo data, for tests and demos. Every id matches
 * `^c[a-z0-9]{24}$` and is derived from a hash of its role, so it is the same in every run.
 *
 * - users: three company users; only `ana` is ONLINE.
 * - integrations: `whatsapp` (CONNECTED), `official` (CONNECTED, official channel, has the provider
 *   templates), `disconnected` (DISCONNECTED).
 * - tags: `vip` has a REMOVE_TAG_FROM_CONTACT *system* automation (triggers.removeVip); `lead` has only
 *   a REMOVE_TAG_FROM_CONTACT *bot flow* (triggers.removeLeadBot, never started by tag removal);
 *   `customer` has none; `big` holds `contactsOnBigTag` generated contacts and nobody else; `empty`
 *   has no contacts.
 * - contacts (tags): alice (vip, lead, customer; chat in attendance), lid (vip, lead; known by LID and
 *   number), noChat (vip, lead; no chat at all), botFlow (customer), systemAutomation (vip),
 *   twoLines (lead, customer; a chat on whatsapp and a more recent one on official), finalized
 *   (customer), pinned (vip). alice has the `profile` custom-field template with cpf and plan set and
 *   an extra field `favoriteColor`.
 * - chats: one or more in every category; `botFlow` has an active BOT automation, `systemAutomation`
 *   an active SYSTEM one; `twoLinesWhatsapp` a BOT one and `twoLinesOfficial` (the most recent of the
 *   two) a SYSTEM one. Fixed chats are more recent than generated ones, in the order listed.
 */
export const DEMO = {
	token: 'sandbox-token',
	users: {
		ana: { id: demoId('company-user', 'ana'), userId: demoId('user', 'ana'), name: 'Ana Souza', email: 'ana.souza@example.com', online: 'ONLINE' },
		bruno: { id: demoId('company-user', 'bruno'), userId: demoId('user', 'bruno'), name: 'Bruno Lima', email: 'bruno.lima@example.com', online: 'OFFLINE' },
		carla: { id: demoId('company-user', 'carla'), userId: demoId('user', 'carla'), name: 'Carla Dias', email: 'carla.dias@example.com', online: 'OFFLINE' },
	},
	sectors: { support: SUPPORT, sales: SALES },
	integrations: {
		whatsapp: { id: WHATSAPP, name: 'Support WhatsApp', chatId: '5511900000001@s.whatsapp.net', connectionStatus: 'CONNECTED', provider: 'WHATSAPP', sectorId: SUPPORT },
		official: { id: OFFICIAL, name: 'Official Channel', chatId: '5511900000002@s.whatsapp.net', connectionStatus: 'CONNECTED', provider: 'WHATSAPP_OFFICIAL', sectorId: SALES },
		disconnected: { id: demoId('integration', 'disconnected'), name: 'Sales WhatsApp (old)', chatId: '5511900000003@s.whatsapp.net', connectionStatus: 'DISCONNECTED', provider: 'WHATSAPP', sectorId: SALES },
	},
	bots: {
		welcome: { id: demoId('bot', 'welcome'), name: 'Welcome bot', url: 'https://bots.example.com/api/v1/bots/welcome' },
		faq: { id: demoId('bot', 'faq'), name: 'FAQ bot', url: 'https://bots.example.com/api/v1/bots/faq' },
	},
	tags: {
		vip: { id: demoId('tag', 'vip'), name: 'VIP', color: '#FFD700' },
		lead: { id: demoId('tag', 'lead'), name: 'Lead', color: '#1E90FF' },
		customer: { id: demoId('tag', 'customer'), name: 'Customer', color: '#2E8B57' },
		big: { id: demoId('tag', 'big'), name: 'Newsletter', color: '#000000' },
		empty: { id: demoId('tag', 'empty'), name: 'Unused', color: '#808080' },
	},
	contacts: {
		alice: { phoneNumber: '5511987650001', name: 'Alice Martins', chatId: contactJid('5511987650001') },
		lid: { phoneNumber: '5511987650002', lid: '207391204857362@lid', name: 'Bianca Lopes', chatId: contactJid('5511987650002') },
		noChat: { phoneNumber: '5511987650003', name: 'Carol Nunes', chatId: contactJid('5511987650003') },
		botFlow: { phoneNumber: '5511987650004', name: 'Daniel Rocha', chatId: contactJid('5511987650004') },
		systemAutomation: { phoneNumber: '5511987650005', name: 'Elisa Prado', chatId: contactJid('5511987650005') },
		twoLines: { phoneNumber: '5511987650006', name: 'Fabio Reis', chatId: contactJid('5511987650006') },
		finalized: { phoneNumber: '5511987650007', name: 'Gabriel Costa', chatId: contactJid('5511987650007') },
		pinned: { phoneNumber: '5511987650008', name: 'Helena Duarte', chatId: contactJid('5511987650008') },
	},
	/** A well-formed number that no seeded contact or chat has (validate-chat-phone-number: exists). */
	unknownPhoneNumber: '5599911112222',
	/** Unknown and ending in 0: validate-chat-phone-number reports it as not on the channel. */
	notOnChannelPhoneNumber: '5599911110000',
	chats: {
		alice: { id: demoId('chat', 'alice'), chatId: contactJid('5511987650001'), integrationId: WHATSAPP, category: 'attendance' },
		lid: { id: demoId('chat', 'lid'), chatId: contactJid('5511987650002'), integrationId: WHATSAPP, category: 'attendance' },
		botFlow: { id: demoId('chat', 'botFlow'), chatId: contactJid('5511987650004'), integrationId: WHATSAPP, category: 'attendance' },
		systemAutomation: { id: demoId('chat', 'systemAutomation'), chatId: contactJid('5511987650005'), integrationId: WHATSAPP, category: 'queue' },
		twoLinesWhatsapp: { id: demoId('chat', 'twoLinesWhatsapp'), chatId: contactJid('5511987650006'), integrationId: WHATSAPP, category: 'attendance' },
		twoLinesOfficial: { id: demoId('chat', 'twoLinesOfficial'), chatId: contactJid('5511987650006'), integrationId: OFFICIAL, category: 'queue' },
		group: { id: demoId('chat', 'group'), chatId: '120363025874125896@g.us', integrationId: WHATSAPP, category: 'groups' },
		finalized: { id: demoId('chat', 'finalized'), chatId: contactJid('5511987650007'), integrationId: OFFICIAL, category: 'finalized' },
		pinned: { id: demoId('chat', 'pinned'), chatId: contactJid('5511987650008'), integrationId: WHATSAPP, category: 'pinned' },
	},
	group: { jid: '120363025874125896@g.us', integrationId: WHATSAPP, chatInternalId: demoId('chat', 'group'), name: 'Support team' },
	triggers: {
		anyMessage: { id: demoId('trigger', 'anyMessage'), name: 'Greet every message', triggerType: 'RECEIVE_ANY_MESSAGE', kind: 'BOT' },
		firstMessage: { id: demoId('trigger', 'firstMessage'), name: 'Welcome new contacts', triggerType: 'RECEIVE_FIRST_MESSAGE', kind: 'SYSTEM' },
		specificMessage: { id: demoId('trigger', 'specificMessage'), name: 'Pricing answer', triggerType: 'RECEIVE_SPECIFIC_MESSAGE', kind: 'BOT' },
		addTag: { id: demoId('trigger', 'addTag'), name: 'Lead follow-up', triggerType: 'ADD_TAG_TO_CONTACT', kind: 'SYSTEM' },
		removeVip: { id: demoId('trigger', 'removeVip'), name: 'VIP downgrade notice', triggerType: 'REMOVE_TAG_FROM_CONTACT', kind: 'SYSTEM' },
		removeLeadBot: { id: demoId('trigger', 'removeLeadBot'), name: 'Lead lost survey (bot)', triggerType: 'REMOVE_TAG_FROM_CONTACT', kind: 'BOT' },
		webhook: { id: demoId('trigger', 'webhook'), name: 'External order event', triggerType: 'RECEIVE_WEBHOOK', kind: 'SYSTEM' },
		serviceContinuity: { id: demoId('trigger', 'serviceContinuity'), name: 'Still there?', triggerType: 'SERVICE_CONTINUITY', kind: 'SYSTEM' },
	},
	customFields: {
		profile: {
			id: demoId('cf-template', 'profile'),
			name: 'Customer profile',
			fields: { cpf: demoId('cf-field', 'cpf'), birthday: demoId('cf-field', 'birthday'), plan: demoId('cf-field', 'plan'), score: demoId('cf-field', 'score') },
		},
		delivery: {
			id: demoId('cf-template', 'delivery'),
			name: 'Delivery',
			fields: { address: demoId('cf-field', 'address'), notes: demoId('cf-field', 'notes') },
		},
	},
	templates: {
		integrationId: OFFICIAL,
		/** lower-case word found only in the body text of the shipping_notice_* templates */
		searchWord: 'tracking',
	},
	defaults: SEED_DEFAULTS,
} as const;
