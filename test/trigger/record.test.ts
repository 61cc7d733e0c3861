/**
 * The process record's bound (nodes/ConversationInboxTrigger/record.ts): the README and
 * docs/development.md say it keeps at most 10 000 registrations and forgets the nodes written least
 * recently first. Pure module state, so the module itself is exercised (the lifecycle tests go
 * through n8n-core's contexts).
 */
import type { Registration } from '../../nodes/ConversationInboxTrigger/registrations';
import { recordedRegistrations, recordKey, recordRegistration } from '../../nodes/ConversationInboxTrigger/record';

/** The documented bound (README, "An activation that fails part-way"). */
const DOCUMENTED_BOUND = 10_000;

const registration = (n: number): Registration => ({
	url: `http://n8n.example/webhook/${n}/webhook`,
	event: 'MESSAGE_RECEIVED',
	fingerprint: String(n).padStart(32, '0'),
	secretHash: 'ab'.repeat(32),
});

test('at most 10 000 registrations: one more forgets the node written least recently, keeps the rest and the newest', () => {
	const nodes = Array.from({ length: DOCUMENTED_BOUND }, (_, n) => recordKey('wf', `webhook:${n}`));
	nodes.forEach((node, n) => recordRegistration(node, registration(n)));
	// The first node is written again: it becomes the most recent, the second is now the oldest.
	recordRegistration(nodes[0], registration(0));
	expect(nodes.every((node) => recordedRegistrations(node).length === 1)).toBe(true);

	const newest = recordKey('wf', 'webhook:new');
	recordRegistration(newest, registration(DOCUMENTED_BOUND));

	expect(recordedRegistrations(nodes[1])).toEqual([]);
	expect(recordedRegistrations(nodes[0])).toEqual([registration(0)]);
	expect(recordedRegistrations(nodes[2])).toEqual([registration(2)]);
	expect(recordedRegistrations(newest)).toEqual([registration(DOCUMENTED_BOUND)]);
	const kept = [...nodes, newest].filter((node) => recordedRegistrations(node).length > 0).length;
	expect(kept).toBe(DOCUMENTED_BOUND);
});

test('a node\'s registrations are kept apart per workflow and node; the same registration twice is one', () => {
	const a = recordKey('wf-a', 'webhook:1');
	const b = recordKey('wf-b', 'webhook:1');
	recordRegistration(a, registration(1));
	recordRegistration(a, registration(1));
	expect(recordedRegistrations(a)).toEqual([registration(1)]);
	expect(recordedRegistrations(b)).toEqual([]);
	// What it hands out is a copy: changing it changes nothing recorded.
	recordedRegistrations(a)[0].url = 'changed';
	expect(recordedRegistrations(a)[0].url).toBe(registration(1).url);
});

test('a node holding more than the bound on its own keeps every registration: the one just written is never forgotten (forgetting it would register it twice)', () => {
	const crowded = recordKey('wf-crowded', 'webhook:crowded');
	const written = Array.from({ length: DOCUMENTED_BOUND + 1 }, (_, n) => registration(n));
	for (const one of written) recordRegistration(crowded, one);
	expect(recordedRegistrations(crowded)).toHaveLength(DOCUMENTED_BOUND + 1);
	expect(recordedRegistrations(crowded).at(-1)).toEqual(registration(DOCUMENTED_BOUND));
});

test('the same URL and settings under two secrets (the token changed between the two) are two registrations on the platform: both kept', () => {
	const node = recordKey('wf-rotated', 'webhook:rotated');
	const underOldToken = { ...registration(7), secretHash: 'cd'.repeat(32) };
	const underNewToken = { ...registration(7), secretHash: 'ef'.repeat(32) };
	recordRegistration(node, underOldToken);
	recordRegistration(node, underNewToken);
	expect(recordedRegistrations(node)).toEqual([underOldToken, underNewToken]);
});
