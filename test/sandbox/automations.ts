import type { SandboxState } from './state';
import type { ActiveAutomation, Chat, Contact, Tag } from './types';

export interface AutomationResult {
	tagId: string;
	started: boolean;
	/** why nothing started for this tag */
	error?: string;
	/** the trigger started, and its session */
	automationTriggerId?: string;
	sessionId?: string;
}

export interface RemovalAutomations {
	requested: boolean;
	triggered: boolean;
	reason: string;
	/** the chat the automations run on (the number's most recent chat); null when it has none */
	chatInternalId: string | null;
	results: AutomationResult[];
}

export function startAutomation(state: SandboxState, chat: Chat, automation: Omit<ActiveAutomation, 'sessionId' | 'startedAt'>): ActiveAutomation {
	const active: ActiveAutomation = { ...automation, sessionId: state.ids.next('automation-session'), startedAt: state.nowIso() };
	chat.automations.push(active);
	return active;
}

/**
 * remove-from-contact with triggerAutomations: for every tag actually removed, start the first
 * REMOVE_TAG_FROM_CONTACT *system* trigger on that tag (no automationBotId, linked to the chat's
 * integration or to none) on the most recent chat of the number. Bot flows are never started.
 */
export function startRemovalAutomations(state: SandboxState, contact: Contact, removed: Tag[], requested: boolean): RemovalAutomations {
	const chat = state.mostRecentChat(contact.phoneNumber);
	const chatInternalId = chat?.id ?? null;
	if (!requested) return { requested, triggered: false, reason: 'triggerAutomations was not true', chatInternalId, results: [] };
	if (removed.length === 0) return { requested, triggered: false, reason: 'no tag was removed from the contact', chatInternalId, results: [] };
	if (!chat) {
		const error = 'the contact has no chat';
		return {
			requested,
			triggered: false,
			reason: 'the contact has no chat, so no automation was started',
			chatInternalId,
			results: removed.map((t) => ({ tagId: t.id, started: false, error })),
		};
	}

	const triggers = [...state.triggers.values()].filter((t) => t.triggerType === 'REMOVE_TAG_FROM_CONTACT');
	const results = removed.map((tag): AutomationResult => {
		const onTag = triggers.filter((t) => t.tagId === tag.id);
		const system = onTag.filter((t) => !t.automationBotId);
		const linked = system.find((t) => t.integrations.length === 0 || t.integrations.includes(chat.integrationId));
		if (linked) {
			const active = startAutomation(state, chat, { type: 'SYSTEM', id: linked.id, name: linked.name });
			return { tagId: tag.id, started: true, automationTriggerId: linked.id, sessionId: active.sessionId };
		}
		let error = 'no automation reacts to the removal of this tag';
		if (system.length > 0) error = "this tag's system automation is not linked to the chat's integration";
		else if (onTag.length > 0) error = 'only bot-flow automations react to this tag, and bot flows are not started';
		return { tagId: tag.id, started: false, error };
	});
	const started = results.filter((r) => r.started).length;
	return {
		requested,
		triggered: started > 0,
		reason: started > 0 ? `started ${started} system automation(s) on the most recent chat` : 'no system automation reacts to the removed tags',
		chatInternalId,
		results,
	};
}
