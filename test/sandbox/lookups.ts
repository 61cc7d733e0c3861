import { notFound } from './errors';
import type { SandboxState } from './state';
import type { Chat, Contact, Integration, Tag } from './types';

// Existence checks shared by handlers and simulations: unknown ids are 404s naming the field.

export function requireIntegration(state: SandboxState, id: string, field = 'integrationId'): Integration {
	const integration = state.integrations.get(id);
	if (!integration) throw notFound(`${field}: integration ${id} not found`);
	return integration;
}

export function requireChat(state: SandboxState, id: string, field = 'chatInternalId'): Chat {
	const chat = state.chats.get(id);
	if (!chat) throw notFound(`${field}: chat ${id} not found`);
	return chat;
}

export function requireContact(state: SandboxState, phoneOrLid: string, field = 'phoneNumber'): Contact {
	const contact = state.findContact(phoneOrLid);
	if (!contact) throw notFound(`${field}: no contact with phone number or LID ${phoneOrLid}`);
	return contact;
}

export function requireTag(state: SandboxState, id: string, field = 'tagId'): Tag {
	const tag = state.tags.get(id);
	if (!tag) throw notFound(`${field}: tag ${id} not found`);
	return tag;
}
