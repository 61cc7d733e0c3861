/* eslint-disable -- development tooling, not shipped: n8n's node rules (eslint.config.mjs, n8n-node lint) are for nodes/ and credentials/ */
/**
 * The bulk case of the pace tests (pace.test.ts, never-stuck.test.ts): Tag → Remove From Contact of
 * the sandbox's big tag, one item per member's phone, and what the sandbox received of it.
 */
import type { INodeParameters } from 'n8n-workflow';

import { paceOf } from '../../nodes/shared/pace';
import type { RecordedRequest, Sandbox } from '../sandbox';
import { DEMO } from '../sandbox';

/** Members of the big tag in the sandbox's seed (`useSandbox({ seed: { contactsOnBigTag } })`). */
export const BIG_TAG_CONTACTS = 1050;
export const BIG = DEMO.tags.big.id;
export const REMOVAL_PATH = '/v2/tag/remove-from-contact';

export const removeBigTag: INodeParameters = {
	resource: 'tag',
	operation: 'removeFromContact',
	phoneNumber: '={{ $json.phone }}',
	tagIds: [BIG],
};

export const itemsFor = (phones: string[]): Array<{ phone: string }> => phones.map((phone) => ({ phone }));
export const membersOf = (sandbox: Sandbox): string[] => sandbox.state.tagMembers(BIG).map((member) => member.phoneNumber);
export const removalsOf = (sandbox: Sandbox): RecordedRequest[] => sandbox.requests.filter((r) => r.path === REMOVAL_PATH);
export const phoneOf = (r: RecordedRequest): string => String((r.body as { phoneNumber?: unknown }).phoneNumber);
/** The limiter the node uses for the sandbox's API. */
export const paceOfSandbox = (sandbox: Sandbox) => paceOf(sandbox.baseUrl, sandbox.token);

/** Resolves once `until()` holds (checked every few ms; fails after `ms`). */
export async function reached(until: () => boolean, ms = 60_000): Promise<void> {
	for (const deadline = Date.now() + ms; !until(); ) {
		if (Date.now() > deadline) throw new Error(`not reached in ${ms} ms`);
		await new Promise((resolve) => setTimeout(resolve, 2));
	}
}
