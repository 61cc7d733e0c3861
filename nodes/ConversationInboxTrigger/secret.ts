/**
 * The secret a registration carries (header `x-inbox-webhook-secret`), derived rather than stored.
 *
 * n8n 2.x routes the production URL before it saves the node's static data, so a secret kept only
 * in static data is unknown to `webhook()` for about a second after activation, and a delivery in
 * that window would be refused. The secret is therefore computed from what every delivery's
 * context already has — the credential's API token and the node's identity:
 *
 *   HMAC-SHA256(key = API token, message = DERIVATION_LABEL + node identity), hex (64 characters)
 *
 * It is not the token, and HMAC's output reveals nothing about its key; it differs per node (its
 * webhook ID) and per API token. Changing the token changes the secret of the registrations made
 * from then on only: each registration keeps the secret it was made with, and the node keeps a
 * hash of that secret (`secretHash`) to accept its deliveries under any later token.
 */
import { createHash, createHmac } from 'crypto';
import type { IHookFunctions, IWebhookFunctions } from 'n8n-workflow';

import { CREDENTIAL_NAME } from '../shared/transport';

/** Domain separation: the token's HMAC for this purpose, and for no other. */
const DERIVATION_LABEL = 'n8n-nodes-conversation-inbox/trigger-webhook-secret/v1\n';

/**
 * The node's identity in the URL n8n gives it: its webhook ID (a UUID the editor assigns), or,
 * for a node saved without one, the workflow ID and node name n8n then puts in the path.
 */
export function nodeIdentity(context: IHookFunctions | IWebhookFunctions): string {
	const node = context.getNode();
	if (typeof node.webhookId === 'string' && node.webhookId !== '') return `webhook:${node.webhookId}`;
	return `workflow:${String(context.getWorkflow().id)}\nnode:${node.name}`;
}

export function deriveSecret(apiToken: string, identity: string): string {
	return createHmac('sha256', apiToken).update(DERIVATION_LABEL + identity).digest('hex');
}

/**
 * The one-way hash of a registration's secret that static data keeps (64 hex characters): a
 * delivery is accepted when the hash of its secret header equals a registration's hash, whatever
 * token the node has now. The secret is 256 bits of HMAC output, so its hash cannot be reversed.
 */
export function secretHash(secret: string): string {
	return createHash('sha256').update(`tag\n${secret}`).digest('hex');
}

/** Length of the `secretTag` stored before `secretHash`: the hash's first 16 characters. */
export const SECRET_TAG_LENGTH = 16;

/** The node's current secret; undefined when the credential cannot be read or has no token. */
export async function currentSecret(
	context: IHookFunctions | IWebhookFunctions,
): Promise<string | undefined> {
	// A credential that cannot be read counts as one without a token.
	const token: unknown = await context.getCredentials(CREDENTIAL_NAME).then(
		(credentials) => credentials.apiToken,
		() => undefined,
	);
	if (typeof token !== 'string' || token === '') return undefined;
	return deriveSecret(token, nodeIdentity(context));
}
