import { badRequest, notFound } from './errors';
import { contactJid, digitsOf, isLid } from './ids';
import { requireChat, requireIntegration } from './lookups';
import type { SandboxState } from './state';
import type { Chat, Contact, Direction, EventType, Integration, MessageTransferType } from './types';
import { MESSAGE_TRANSFER_TYPES } from './types';
import { Fields, type Source } from './validation';
import { chatRefView, integrationView, messageView } from './views';
import type { Delivery, WebhookDispatcher } from './webhooks';

/** An inbound or outbound message on an integration, as if it happened on the channel. */
export interface SimulatedMessage {
	integrationId: string;
	/** digits in any format, or a known LID */
	phoneNumber: string;
	direction: Direction;
	text: string;
	/** who caused it; default USER (inbound messages count as USER) */
	transferType?: MessageTransferType;
	/** true when the contact never wrote before (adds FIRST_MESSAGE_RECEIVED). Default: computed —
	 *  an inbound message is first when the number has no inbound message on this integration yet. */
	firstMessage?: boolean;
	/** contact name when the number is new (default '+<digits>') */
	name?: string;
}

export interface InServiceMessage {
	chatInternalId: string;
	text: string;
	direction?: Direction;
	transferType?: MessageTransferType;
}

/**
 * Things that happen on the channel rather than through the API. Each records the change in the state
 * and fires the webhooks it concerns; it resolves with the deliveries that fire at once (delayed ones
 * are sent later by timers and appear in `sandbox.deliveries`). Bad input throws an ApiError (400/404).
 */
export interface Simulator {
	/** Inbound → MESSAGE_RECEIVED, MESSAGE_SENT_AND_RECEIVED (+ FIRST_MESSAGE_RECEIVED when first);
	 *  outbound → MESSAGE_SENT, MESSAGE_SENT_AND_RECEIVED; either → MESSAGE_IN_SERVICE when the chat is
	 *  in attendance. A new number gets a contact and a chat (inbound: queue, outbound: attendance). */
	message(input: SimulatedMessage): Promise<Delivery[]>;
	/** Sets the integration's connectionStatus → CONNECTION_STATUS_UPDATE. */
	connectionStatus(integrationId: string, status: string): Promise<Delivery[]>;
	/** → SERVICE_CONTINUITY_VERIFICATION, for one chat of the integration or none. */
	serviceContinuity(input: { integrationId: string; chatInternalId?: string }): Promise<Delivery[]>;
	/** Moves an existing contact chat into attendance, then a message in it (so MESSAGE_IN_SERVICE fires
	 *  along with the direction's events). Default direction: inbound. */
	messageInService(input: InServiceMessage): Promise<Delivery[]>;
}

const DIRECTIONS = ['inbound', 'outbound'] as const;

export function createSimulator(getState: () => SandboxState, dispatcher: WebhookDispatcher): Simulator {
	function findOrCreateContact(state: SandboxState, phoneNumber: string, name: string | undefined): Contact {
		const known = state.findContact(phoneNumber);
		if (known) return known;
		if (isLid(phoneNumber)) throw notFound(`phoneNumber: LID ${phoneNumber} is not linked to a number`);
		const digits = digitsOf(phoneNumber);
		if (digits.length < 8 || digits.length > 15) throw badRequest('phoneNumber must contain 8-15 digits');
		const contact: Contact = {
			phoneNumber: digits,
			lid: null,
			name: name ?? `+${digits}`,
			params: {},
			tags: new Map(),
			customFields: new Map(),
			assignedTemplateIds: [],
			createdAt: state.nowIso(),
		};
		state.addContact(contact);
		return contact;
	}

	function openChat(state: SandboxState, integration: Integration, contact: Contact, direction: Direction): Chat {
		const existing = state.mostRecentChat(contact.phoneNumber, integration.id);
		if (existing) return existing;
		const now = state.now();
		const chat: Chat = {
			id: state.ids.next('chat'),
			chatId: contactJid(contact.phoneNumber),
			integrationId: integration.id,
			name: contact.name,
			phoneNumber: contact.phoneNumber,
			isGroup: false,
			category: direction === 'inbound' ? 'queue' : 'attendance',
			sectorId: integration.sectorId,
			attendantId: null,
			createdAtMs: now,
			messages: [],
			lastMessageAtMs: now,
			unreadCount: 0,
			automations: [],
		};
		state.addChat(chat);
		return chat;
	}

	function recordMessage(
		state: SandboxState,
		chat: Chat,
		direction: Direction,
		text: string,
		transferType: MessageTransferType,
		first: boolean,
	): Promise<Delivery[]> {
		const message = {
			id: state.ids.next('message'),
			chatInternalId: chat.id,
			direction,
			text,
			transferType,
			createdAtMs: state.now(),
		};
		state.addMessage(chat, message);
		const events: EventType[] =
			direction === 'inbound' ? ['MESSAGE_RECEIVED', 'MESSAGE_SENT_AND_RECEIVED'] : ['MESSAGE_SENT', 'MESSAGE_SENT_AND_RECEIVED'];
		if (first) events.push('FIRST_MESSAGE_RECEIVED');
		if (chat.category === 'attendance') events.push('MESSAGE_IN_SERVICE');
		const contact = chat.phoneNumber ? state.contacts.get(chat.phoneNumber) : undefined;
		return dispatcher.emit({
			integrationId: chat.integrationId,
			events,
			transferType,
			data: {
				message: messageView(chat, message),
				chat: { ...chatRefView(chat), category: chat.category },
				contact: contact ? { phoneNumber: contact.phoneNumber, name: contact.name, chatId: contactJid(contact.phoneNumber) } : null,
				firstMessage: first,
			},
		});
	}

	return {
		async message(input) {
			const state = getState();
			const f = new Fields(input as unknown as Source);
			const integration = requireIntegration(state, f.id('integrationId', { required: true }));
			const phoneNumber = f.string('phoneNumber', { required: true, min: 1, max: 64 });
			const direction = f.enumOf('direction', DIRECTIONS, { required: true });
			const text = f.string('text', { required: true, max: 4096 });
			const transferType = f.enumOf('transferType', MESSAGE_TRANSFER_TYPES, { default: 'USER' });
			const firstMessage = f.boolean('firstMessage');
			const name = f.string('name', { min: 1, max: 255 });

			const contact = findOrCreateContact(state, phoneNumber, name);
			const wroteBefore = state
				.chatsOfPhone(contact.phoneNumber)
				.some((c) => c.integrationId === integration.id && c.messages.some((m) => m.direction === 'inbound'));
			const chat = openChat(state, integration, contact, direction);
			const first = direction === 'inbound' && (firstMessage ?? !wroteBefore);
			return recordMessage(state, chat, direction, text, transferType, first);
		},

		async connectionStatus(integrationId, status) {
			const state = getState();
			const f = new Fields({ integrationId, status });
			const integration = requireIntegration(state, f.id('integrationId', { required: true }));
			const next = f.string('status', { required: true, min: 1, max: 64, pattern: /^[A-Z_]+$/, patternText: 'be an upper-case status such as CONNECTED' });
			const previous = integration.connectionStatus;
			integration.connectionStatus = next;
			integration.sessionId = next === 'CONNECTED' ? (integration.sessionId ?? state.ids.next('session')) : null;
			integration.updatedAt = state.nowIso();
			return emitConnectionStatus(dispatcher, integration, previous);
		},

		async serviceContinuity(input) {
			const state = getState();
			const f = new Fields(input as unknown as Source);
			const integration = requireIntegration(state, f.id('integrationId', { required: true }));
			const chatInternalId = f.id('chatInternalId');
			let chat: Chat | null = null;
			if (chatInternalId) {
				chat = requireChat(state, chatInternalId);
				if (chat.integrationId !== integration.id) throw notFound(`chatInternalId: chat ${chat.id} is not on integration ${integration.id}`);
			}
			return dispatcher.emit({
				integrationId: integration.id,
				events: ['SERVICE_CONTINUITY_VERIFICATION'],
				transferType: null,
				data: { chat: chat ? { ...chatRefView(chat), category: chat.category } : null },
			});
		},

		async messageInService(input) {
			const state = getState();
			const f = new Fields(input as unknown as Source);
			const chat = requireChat(state, f.id('chatInternalId', { required: true }));
			const text = f.string('text', { required: true, max: 4096 });
			const direction = f.enumOf('direction', DIRECTIONS, { default: 'inbound' });
			const transferType = f.enumOf('transferType', MESSAGE_TRANSFER_TYPES, { default: 'USER' });
			if (chat.isGroup) throw badRequest('chatInternalId must name a contact chat, not a group');
			state.setCategory(chat, 'attendance');
			return recordMessage(state, chat, direction, text, transferType, false);
		},
	};
}

export function emitConnectionStatus(dispatcher: WebhookDispatcher, integration: Integration, previousStatus: string): Promise<Delivery[]> {
	return dispatcher.emit({
		integrationId: integration.id,
		events: ['CONNECTION_STATUS_UPDATE'],
		transferType: null,
		data: { connectionStatus: integration.connectionStatus, previousStatus, integration: integrationView(integration) },
	});
}
