// Entity types of the sandbox's in-memory company. Wire shapes (what the API returns) live in
// views.ts; these records hold what the sandbox needs to behave, including things the API never shows.

export const ID_PATTERN = /^c[a-z0-9]{24}$/;

// The API's enumerations as the spec lists them, one line each. Written out here, not imported
// from the node: the sandbox stands in for the API, so it must not agree with the node by
// construction. test/sandbox/__tests__/enums.test.ts fails when the node's lists
// (nodes/shared/constants.ts) differ from these.
export const CHAT_CATEGORIES = ['attendance', 'queue', 'groups', 'finalized', 'pinned'] as const;
export const TRIGGER_TYPES = ['RECEIVE_ANY_MESSAGE', 'RECEIVE_FIRST_MESSAGE', 'RECEIVE_SPECIFIC_MESSAGE', 'ADD_TAG_TO_CONTACT', 'REMOVE_TAG_FROM_CONTACT', 'RECEIVE_WEBHOOK', 'SERVICE_CONTINUITY'] as const;
export const CHAT_TYPES = ['CONTACT', 'GROUP', 'ALL'] as const;
export const TRANSFER_TYPES = ['ALL', 'USER', 'AUTOMATION', 'API', 'AUTOMATION_AND_API'] as const;
/** Who caused a message: the value a webhook's transferType filters on. */
export const MESSAGE_TRANSFER_TYPES = ['USER', 'AUTOMATION', 'API'] as const;
export const WEBHOOK_METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH'] as const;
export const EVENT_TYPES = ['MESSAGE_SENT_AND_RECEIVED', 'MESSAGE_SENT', 'MESSAGE_RECEIVED', 'FIRST_MESSAGE_RECEIVED', 'MESSAGE_IN_SERVICE', 'CONNECTION_STATUS_UPDATE', 'SERVICE_CONTINUITY_VERIFICATION'] as const;
export const TEMPLATE_STATUSES = ['APPROVED', 'PENDING', 'REJECTED', 'DISABLED', 'PAUSED', 'IN_APPEAL', 'PENDING_DELETION'] as const;

export type ChatCategory = (typeof CHAT_CATEGORIES)[number];
export type TriggerType = (typeof TRIGGER_TYPES)[number];
export type ChatType = (typeof CHAT_TYPES)[number];
export type TransferType = (typeof TRANSFER_TYPES)[number];
export type MessageTransferType = (typeof MESSAGE_TRANSFER_TYPES)[number];
export type WebhookMethod = (typeof WEBHOOK_METHODS)[number];
export type EventType = (typeof EVENT_TYPES)[number];
export type TemplateStatus = (typeof TEMPLATE_STATUSES)[number];

export type Direction = 'inbound' | 'outbound';

export interface Tag {
	id: string;
	name: string;
	color: string;
	createdAt: string;
	updatedAt: string;
}

/** One contact on one tag; per-tag lists are kept most recent first. */
export interface TagMembership {
	phoneNumber: string;
	addedAtMs: number;
}

/** A contact is keyed by its phone number (digits only); a LID, when known, points at the same contact. */
export interface Contact {
	phoneNumber: string;
	lid: string | null;
	name: string;
	params: Record<string, unknown>;
	/** tagId → addedAt (epoch ms) */
	tags: Map<string, number>;
	/** custom-field id (template field id, or the extra field's id) → value */
	customFields: Map<string, CustomFieldValue>;
	assignedTemplateIds: string[];
	createdAt: string;
}

export interface CustomFieldValue {
	id: string;
	sourceType: string;
	/** set for TEMPLATE_FIELD values */
	templateFieldId: string | null;
	/** set for extra fields */
	key: string;
	label: string;
	value: unknown;
	updatedAt: string;
}

export interface ActiveAutomation {
	type: 'BOT' | 'SYSTEM';
	/** the automation trigger's id */
	id: string;
	name: string;
	sessionId: string;
	startedAt: string;
}

export interface Message {
	id: string;
	chatInternalId: string;
	direction: Direction;
	text: string;
	transferType: MessageTransferType;
	createdAtMs: number;
}

export interface Chat {
	/** chatInternalId */
	id: string;
	/** channel chat id: `<digits>@s.whatsapp.net` or a group JID `...@g.us` */
	chatId: string;
	integrationId: string;
	name: string;
	/** digits; null for groups */
	phoneNumber: string | null;
	isGroup: boolean;
	category: ChatCategory;
	sectorId: string;
	attendantId: string | null;
	createdAtMs: number;
	/** oldest first */
	messages: Message[];
	lastMessageAtMs: number;
	unreadCount: number;
	automations: ActiveAutomation[];
}

export type Provider = 'WHATSAPP' | 'WHATSAPP_OFFICIAL';

export interface Integration {
	id: string;
	name: string;
	sectorId: string;
	/** CONNECTED, DISCONNECTED, DELETING, or whatever a simulation set */
	connectionStatus: string;
	createdAt: string;
	updatedAt: string;
	chatId: string;
	color: string;
	onlyApi: boolean;
	/** official-channel integrations have provider templates */
	provider: Provider;
	/** the active channel session; disconnect ends it */
	sessionId: string | null;
}

export interface BotIntegration {
	id: string;
	name: string;
	url: string;
	createdAt: string;
	updatedAt: string;
}

/** A trigger runs a bot flow when automationBotId is set, otherwise a system automation. */
export interface AutomationTrigger {
	id: string;
	name: string;
	description: string;
	triggerType: TriggerType;
	automationBotId: string | null;
	integrations: string[];
	chatType: ChatType;
	tagId: string | null;
	specificMessage: string | null;
	inAttendance: boolean;
	delayMinutes: number;
	transferType: TransferType;
	moveToQueue: boolean;
	createdAt: string;
	updatedAt: string;
}

export interface WebhookHeader {
	key: string;
	value: string;
}

export interface Webhook {
	id: string;
	integrationId: string;
	url: string;
	method: WebhookMethod;
	type: EventType;
	headers: WebhookHeader[];
	delayMinutes: number;
	transferType: TransferType;
	createdAt: string;
	updatedAt: string;
}

export interface TemplateButton {
	type: string;
	text: string;
	url?: string;
	phone_number?: string;
	example?: string[];
	otp_type?: string;
}

export interface TemplateComponent {
	type: string;
	format?: string;
	text?: string;
	example?: Record<string, unknown>;
	buttons?: TemplateButton[];
}

export interface Template {
	id: string;
	name: string;
	language: string;
	status: TemplateStatus;
	category: string;
	sub_category: string;
	parameter_format: string;
	components: TemplateComponent[];
	quality_score: { score: string };
}

export interface TemplateField {
	id: string;
	templateId: string;
	key: string;
	label: string;
	fieldType: string;
	optionsJson: Record<string, unknown>;
	isRequired: boolean;
	sortOrder: string;
}

export interface CustomFieldTemplate {
	id: string;
	name: string;
	fields: TemplateField[];
}

export interface CompanyUser {
	id: string;
	signature: string;
	online: string;
	createdAt: string;
	updatedAt: string;
	user: { id: string; name: string; email: string };
}
