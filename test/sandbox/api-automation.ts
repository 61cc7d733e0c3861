import { badRequest, notFound } from './errors';
import { digitsOf, isLid } from './ids';
import { requireIntegration, requireTag } from './lookups';
import type { ApiContext, Route } from './routes';
import type { AutomationTrigger, BotIntegration, Chat } from './types';
import { CHAT_TYPES, TRANSFER_TYPES, TRIGGER_TYPES } from './types';
import { botView, chatRefView, triggerView } from './views';

const TAG_TRIGGERS = new Set(['ADD_TAG_TO_CONTACT', 'REMOVE_TAG_FROM_CONTACT']);
const BOT_PATH = /^\/api\/v1\/bots\/[^/]+\/?$/;

/** Variant editFullReplace: the fields an edit must carry (tagId / specificMessage as the type needs). */
const FULL_TRIGGER_FIELDS = ['name', 'description', 'triggerType', 'automationBotId', 'integrations', 'chatType', 'inAttendance', 'delayMinutes', 'transferType', 'moveToQueue'];

function requireTrigger({ state }: ApiContext, id: string): AutomationTrigger {
	const trigger = state.triggers.get(id);
	if (!trigger) throw notFound(`automationTriggerId: automation trigger ${id} not found`);
	return trigger;
}

/**
 * Only automationTriggerId is required; every other field of the trigger table is checked when given
 * and replaces the stored value (`automationBotId: null` and `integrations: []` clear). Changing triggerType clears specificMessage / tagId when the new type
 * does not use them. The trigger runs a bot flow when automationBotId is set, otherwise it is a system
 * automation.
 */
function editTrigger(ctx: ApiContext) {
	const { state, body } = ctx;
	const id = body.id('automationTriggerId', { required: true });
	if (ctx.variants.editFullReplace) {
		// Variant: the edit replaces the whole trigger, so every field must be given.
		const missing = FULL_TRIGGER_FIELDS.filter((name) => !body.hasKey(name));
		if (missing.length > 0) throw badRequest(`${missing.join(', ')}: required (the edit replaces the whole trigger)`);
	}
	const patch: Partial<AutomationTrigger> = {
		name: body.string('name', { min: 1, max: 255 }),
		description: body.string('description', { min: 1, max: 255 }),
		triggerType: body.enumOf('triggerType', TRIGGER_TYPES),
		automationBotId: body.id('automationBotId'),
		integrations: body.idArray('integrations'),
		chatType: body.enumOf('chatType', CHAT_TYPES),
		tagId: body.id('tagId'),
		specificMessage: body.string('specificMessage', { min: 1 }),
		inAttendance: body.boolean('inAttendance'),
		// The spec gives the trigger's delay no bound (only the webhook's, >= 0).
		delayMinutes: body.integer('delayMinutes'),
		transferType: body.enumOf('transferType', TRANSFER_TYPES),
		moveToQueue: body.boolean('moveToQueue'),
	};
	if (patch.triggerType === 'RECEIVE_SPECIFIC_MESSAGE' && patch.specificMessage === undefined) {
		throw badRequest('specificMessage is required when triggerType is RECEIVE_SPECIFIC_MESSAGE');
	}
	if (patch.triggerType && TAG_TRIGGERS.has(patch.triggerType) && patch.tagId === undefined) {
		throw badRequest(`tagId is required when triggerType is ${patch.triggerType}`);
	}

	const trigger = requireTrigger(ctx, id);
	if (patch.automationBotId && !state.bots.has(patch.automationBotId)) {
		throw notFound(`automationBotId: bot integration ${patch.automationBotId} not found`);
	}
	patch.integrations?.forEach((integrationId, i) => requireIntegration(state, integrationId, `integrations[${i}]`));
	if (patch.tagId) requireTag(state, patch.tagId);

	Object.assign(trigger, Object.fromEntries(Object.entries(patch).filter(([, value]) => value !== undefined)));
	// `automationBotId: null` clears the bot flow (the trigger then runs a system automation).
	if (body.hasKey('automationBotId') && body.src.automationBotId === null) trigger.automationBotId = null;
	if (trigger.triggerType !== 'RECEIVE_SPECIFIC_MESSAGE') trigger.specificMessage = null;
	if (!TAG_TRIGGERS.has(trigger.triggerType)) trigger.tagId = null;
	trigger.updatedAt = state.nowIso();
	return { success: true, data: { trigger: triggerView(trigger) } };
}

function deleteTrigger(ctx: ApiContext) {
	const id = ctx.body.id('automationTriggerId', { required: true });
	requireTrigger(ctx, id);
	ctx.state.triggers.delete(id);
	return { success: true };
}

/**
 * Every given criterion must match: chatInternalId exactly, chatId exactly, phoneNumber approximately
 * (digits only; one number ends with the other, so '11987650001' finds '5511987650001'; a LID is
 * resolved to its number first), integrationId narrows. Of the matching chats the one with the most
 * recent message is used; all its active automations are stopped.
 */
function stopInChat({ state, body }: ApiContext) {
	const chatInternalId = body.id('chatInternalId');
	const chatId = body.string('chatId', { min: 1, max: 255 });
	const phoneNumber = body.phone('phoneNumber');
	const integrationId = body.id('integrationId');
	if (!chatInternalId && chatId === undefined && phoneNumber === undefined) {
		throw badRequest('one of chatInternalId, chatId or phoneNumber is required');
	}
	let digits: string | undefined;
	if (phoneNumber !== undefined) {
		digits = isLid(phoneNumber) ? (state.findContact(phoneNumber)?.phoneNumber ?? '') : digitsOf(phoneNumber);
	}
	if (integrationId) requireIntegration(state, integrationId);

	const candidates: Iterable<Chat> = chatInternalId ? [state.chats.get(chatInternalId)].filter((c): c is Chat => !!c) : state.chats.values();
	let best: Chat | undefined;
	for (const chat of candidates) {
		if (chatId !== undefined && chat.chatId !== chatId) continue;
		if (integrationId && chat.integrationId !== integrationId) continue;
		if (digits !== undefined && !phoneMatches(chat.phoneNumber, digits)) continue;
		if (!best || chat.lastMessageAtMs > best.lastMessageAtMs) best = chat;
	}
	if (!best) throw notFound('no chat matches the given chatInternalId, chatId, phoneNumber and integrationId');

	const stopped = best.automations.splice(0).map(({ type, id, name, sessionId }) => ({ type, id, name, sessionId }));
	return {
		success: true,
		message: stopped.length > 0 ? `Stopped ${stopped.length} automation(s) in the chat` : 'The chat has no active automation',
		data: { stopped: stopped.length > 0, chat: chatRefView(best), automations: stopped },
	};
}

function phoneMatches(chatPhone: string | null, digits: string): boolean {
	if (!chatPhone || digits === '') return false;
	return chatPhone.endsWith(digits) || digits.endsWith(chatPhone);
}

function createBot({ state, body }: ApiContext) {
	const name = body.string('name', { required: true, min: 1, max: 255 });
	const url = body.url('url', { required: true });
	if (!BOT_PATH.test(url.pathname) || url.search !== '' || url.hash !== '') {
		throw badRequest('url must have the form {origin}/api/v1/bots/{botId}');
	}
	const at = state.nowIso();
	const bot: BotIntegration = { id: state.ids.next('bot'), name, url: url.href, createdAt: at, updatedAt: at };
	state.bots.set(bot.id, bot);
	return { success: true, data: { integrationBot: botView(bot) } };
}

export const automationRoutes: Route[] = [
	{ method: 'POST', path: '/v2/automation/edit', handler: editTrigger },
	{ method: 'POST', path: '/v2/automation/delete', handler: deleteTrigger },
	{ method: 'POST', path: '/v2/automation/stop-automation-in-chat', handler: stopInChat },
	{ method: 'POST', path: '/v2/automation/integration-bot/create', handler: createBot },
];
