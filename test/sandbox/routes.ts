import type { SandboxState } from './state';
import type { Integration } from './types';
import type { Fields } from './validation';
import type { Variants } from './variants';

/** Side effects of API calls that reach beyond the state: timers and webhook events. */
export interface Effects {
	/** DELETING → removed after the configured asyncDeleteMs. */
	scheduleRemoval(integrationId: string): void;
	/** Fires CONNECTION_STATUS_UPDATE webhooks without making the API call wait for them. */
	connectionChanged(integration: Integration, previousStatus: string): void;
}

export interface ApiContext {
	state: SandboxState;
	/** the JSON body (empty for GET) */
	body: Fields;
	query: Fields;
	effects: Effects;
	/** how this sandbox differs from the node's assumptions (variants.ts); {} = not at all */
	variants: Variants;
}

/** Returns the whole JSON answer (HTTP 200); throws ApiError for anything else. */
export type Handler = (ctx: ApiContext) => unknown;

export interface Route {
	method: 'GET' | 'POST';
	/** full path, e.g. '/v2/tag/create' */
	path: string;
	handler: Handler;
}
