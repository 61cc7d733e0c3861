import { createHash } from 'node:crypto';
import { badRequest, notFound } from './errors';
import { contactJid, digitsOf } from './ids';
import { requireIntegration } from './lookups';
import type { ApiContext, Route } from './routes';
import type { Webhook } from './types';
import { EVENT_TYPES, TRANSFER_TYPES, WEBHOOK_METHODS } from './types';
import { integrationView, webhookView } from './views';

function listIntegrations({ state }: ApiContext) {
	return { success: true, response: { integrations: [...state.integrations.values()].map(integrationView) } };
}

/** Ends the session and leaves the instance DISCONNECTED, ready for a new connection. */
function disconnect({ state, body, effects }: ApiContext) {
	const integration = requireIntegration(state, body.id('integrationId', { required: true }));
	if (integration.connectionStatus === 'DELETING') throw badRequest(`integrationId: integration ${integration.id} is being deleted`);
	const previous = integration.connectionStatus;
	integration.connectionStatus = 'DISCONNECTED';
	integration.sessionId = null;
	integration.updatedAt = state.nowIso();
	if (previous !== 'DISCONNECTED') effects.connectionChanged(integration, previous);
	return { success: true, response: { integration: integrationView(integration) } };
}

/** DELETING at once; the integration (with its chats and webhooks) disappears after asyncDeleteMs.
 *  Deleting an integration that is already DELETING is accepted and changes nothing. */
function remove({ state, body, effects }: ApiContext) {
	const integration = requireIntegration(state, body.id('integrationId', { required: true }));
	if (integration.connectionStatus !== 'DELETING') {
		const previous = integration.connectionStatus;
		integration.connectionStatus = 'DELETING';
		integration.sessionId = null;
		integration.updatedAt = state.nowIso();
		effects.scheduleRemoval(integration.id);
		effects.connectionChanged(integration, previous);
	}
	return { success: true };
}

/**
 * `exists` is true when a contact with that number is known; otherwise by a fixed rule: a number
 * whose last digit is 0 is not on the channel (DEMO.notOnChannelPhoneNumber), any other is.
 */
function validatePhoneNumber({ state, body }: ApiContext) {
	const integrationId = body.id('integrationId', { required: true });
	const phoneNumber = body.string('phoneNumber', { required: true, min: 1, max: 30 });
	const digits = digitsOf(phoneNumber);
	if (digits.length < 8 || digits.length > 15) throw badRequest('phoneNumber must contain 8-15 digits');
	requireIntegration(state, integrationId);
	const exists = state.contacts.has(digits) || !digits.endsWith('0');
	return { success: true, response: { exists, jid: contactJid(digits) } };
}

/** Required: integrationId, url, type. Defaults: method POST, headers [], delayMinutes 0, transferType ALL. */
function createWebhook({ state, body }: ApiContext) {
	const integrationId = body.id('integrationId', { required: true });
	const url = body.url('url', { required: true });
	const method = body.enumOf('method', WEBHOOK_METHODS, { default: 'POST' });
	const type = body.enumOf('type', EVENT_TYPES, { required: true });
	const headers = body.headerList('headers') ?? [];
	const delayMinutes = body.integer('delayMinutes', { min: 0, default: 0 });
	const transferType = body.enumOf('transferType', TRANSFER_TYPES, { default: 'ALL' });
	requireIntegration(state, integrationId);
	const at = state.nowIso();
	const webhook: Webhook = {
		id: state.ids.next('webhook'),
		integrationId,
		url: url.href,
		method,
		type,
		headers,
		delayMinutes,
		transferType,
		createdAt: at,
		updatedAt: at,
	};
	state.webhooks.set(webhook.id, webhook);
	return { success: true, response: { webhook: webhookView(webhook) } };
}

/** The group must be a known group chat of the integration; the invite code is derived from its JID. */
function groupInviteUrl({ state, query }: ApiContext) {
	const integrationId = query.id('integrationId', { required: true });
	const groupJid = query.string('groupJid', { required: true, max: 255, pattern: /^[^@\s]+@g\.us$/, patternText: 'end with @g.us' });
	requireIntegration(state, integrationId);
	const known = [...state.chats.values()].some((c) => c.chatId === groupJid && c.integrationId === integrationId);
	if (!known) throw notFound(`groupJid: group ${groupJid} not found on integration ${integrationId}`);
	const code = createHash('sha256').update(groupJid).digest('base64').replace(/[^A-Za-z0-9]/g, '').slice(0, 22);
	return { success: true, response: { inviteUrl: `https://chat.whatsapp.com/${code}` } };
}

export const integrationRoutes: Route[] = [
	{ method: 'GET', path: '/v2/integration/list', handler: listIntegrations },
	{ method: 'POST', path: '/v2/integration/disconnect', handler: disconnect },
	{ method: 'POST', path: '/v2/integration/delete', handler: remove },
	{ method: 'POST', path: '/v2/integration/validate-chat-phone-number', handler: validatePhoneNumber },
	{ method: 'POST', path: '/v2/integration/webhook/create', handler: createWebhook },
	{ method: 'GET', path: '/v2/group/get-invite-url', handler: groupInviteUrl },
];
