/**
 * The process record: every registration the API accepted in this n8n process, kept apart from the
 * node's static data.
 *
 * Why: n8n saves a workflow's static data only after an activation succeeds (1.x, and 2.x without
 * its publication service: ActiveWorkflowManager.addWebhooks saves it after the last webhook's
 * checkExists/create; on a failure it clears the webhooks and saves the static data it loads
 * again from the database). A registration the API accepted before a later one was refused would
 * be forgotten, and the next activation would register it a second time: every delivery twice,
 * for ever (the API cannot delete webhooks). So each registration is written here the moment the
 * API accepts it, and every activation merges what is here for its node into static data (which
 * n8n saves when that activation succeeds).
 *
 * Keyed by workflow ID and node identity (its webhook ID); each entry holds the URL, fingerprint,
 * event, identity and the hash of the secret, never the secret, and whether the API answered it
 * (a registration answered 5xx or not at all is kept as possibly made). Bounded: at most
 * MAX_RECORDED registrations; above that the nodes written least recently are forgotten first.
 *
 * It is also what makes "Execute step" register n8n's test URL once per node rather than once per
 * click: n8n runs a test's checkExists/create on a Workflow with empty static data, so only this
 * record knows the test URL's registrations from one click to the next (within one process).
 *
 * What it cannot cover: it lives in one process. A restart or an update of the package (n8n loads
 * the module again) between a failed activation and the next one forgets it, and so does an
 * activation that runs in another main process (multi-main). A registration accepted during the
 * failed activation is then made a second time; the first one's deliveries run nothing all the
 * same, as they come from a registration that is not the node's current one (registrations.ts).
 */
import type { Registration } from './registrations';
import { registrationKey } from './registrations';

/** Registrations kept at most (about 250 bytes each: a few MB at the bound). */
export const MAX_RECORDED = 10_000;

const recorded = new Map<string, Map<string, Registration>>();
let size = 0;

/** The record's key of one node: its workflow and its identity (secret.ts nodeIdentity). */
export function recordKey(workflowId: string | undefined, identity: string): string {
	return `${String(workflowId)}\n${identity}`;
}

/** Writes a registration the API accepted; the node becomes the most recently written one. */
export function recordRegistration(node: string, registration: Registration): void {
	const entries = recorded.get(node) ?? new Map<string, Registration>();
	recorded.delete(node);
	recorded.set(node, entries);
	const key = registrationKey(registration);
	if (!entries.has(key)) size += 1;
	entries.set(key, { ...registration });
	for (const [oldest, dropped] of recorded) {
		if (size <= MAX_RECORDED || oldest === node) break;
		recorded.delete(oldest);
		size -= dropped.size;
	}
}

/** The registrations recorded for a node in this process (copies). */
export function recordedRegistrations(node: string): Registration[] {
	return [...(recorded.get(node)?.values() ?? [])].map((registration) => ({ ...registration }));
}
