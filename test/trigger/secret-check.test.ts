/* eslint-disable -- development tooling, not shipped: n8n's node rules (eslint.config.mjs, n8n-node lint) are for nodes/ and credentials/ */
/**
 * The delivery's secret check (delivery.ts: secretMatches, registrationMatches, checkDeliverySecret)
 * on the values static data can hold, including the odd ones an older build or a hand edit leaves:
 * nothing but the right secret is accepted, and each refusal says why in the words of the log line.
 * Hashes are computed here as documented (sha256 of "tag\n" + secret, hex), not with secret.ts.
 */
import { createHash } from 'crypto';

import { checkDeliverySecret, registrationMatches, secretMatches } from '../../nodes/ConversationInboxTrigger/delivery';
import type { Registration } from '../../nodes/ConversationInboxTrigger/registrations';

const hashOf = (secret: string): string => createHash('sha256').update(`tag\n${secret}`).digest('hex');
const registration = (extra: Partial<Registration>): Registration => ({
	url: 'https://n8n.example.com/webhook/abc/webhook',
	event: 'MESSAGE_RECEIVED',
	fingerprint: 'fp',
	...extra,
});

const SECRET = 'a7c1e0d9b8f6-the-node-secret';
const OTHER = 'a-forged-or-other-secret';
const MISMATCH = 'the x-inbox-webhook-secret header does not match this node\'s secret nor that of any registration it made (a registration of another node, or a forged request)';

describe('secretMatches (the node\'s own secret)', () => {
	test('the secret matches; another value, an empty one, a repeated header or none does not', () => {
		expect(secretMatches(SECRET, SECRET)).toBe(true);
		expect(secretMatches(OTHER, SECRET)).toBe(false);
		expect(secretMatches('', SECRET)).toBe(false);
		expect(secretMatches([SECRET, SECRET], SECRET)).toBe(false);
		expect(secretMatches(undefined, SECRET)).toBe(false);
	});

	test('a node without a secret (empty or none) accepts nothing, not even an empty or missing header', () => {
		expect(secretMatches('', '')).toBe(false);
		expect(secretMatches(undefined, '')).toBe(false);
		expect(secretMatches([], '')).toBe(false);
		expect(secretMatches('', undefined)).toBe(false);
	});
});

describe('registrationMatches (a registration made under an earlier token)', () => {
	test('by its hash: the secret it was made with matches, another does not', () => {
		const registrations = [registration({ secretHash: hashOf(SECRET) })];
		expect(registrationMatches(SECRET, registrations)).toBe(true);
		expect(registrationMatches(OTHER, registrations)).toBe(false);
	});

	test('by the 16-character tag of earlier builds: its secret matches, another does not', () => {
		const registrations = [registration({ secretTag: hashOf(SECRET).slice(0, 16) })];
		expect(registrationMatches(SECRET, registrations)).toBe(true);
		expect(registrationMatches(OTHER, registrations)).toBe(false);
	});

	test('a registration with neither hash nor tag (version 1 keeps its secret elsewhere) matches nothing', () => {
		expect(registrationMatches(OTHER, [registration({})])).toBe(false);
		expect(registrationMatches('', [registration({})])).toBe(false);
	});

	test('a tag shorter than 16 characters (edited, or cut) matches nothing, not even a secret it prefixes', () => {
		expect(registrationMatches(OTHER, [registration({ secretTag: '' })])).toBe(false);
		expect(registrationMatches(SECRET, [registration({ secretTag: hashOf(SECRET).slice(0, 8) })])).toBe(false);
	});

	test('an empty or repeated header matches no registration, even one made with an empty secret', () => {
		const registrations = [registration({ secretHash: hashOf('') }), registration({ secretTag: hashOf('').slice(0, 16) })];
		expect(registrationMatches('', registrations)).toBe(false);
		expect(registrationMatches(undefined, registrations)).toBe(false);
		expect(registrationMatches(['', ''], registrations)).toBe(false);
		// A header sent once per value is refused whole, even when its one value is the secret.
		expect(registrationMatches([SECRET], [registration({ secretHash: hashOf(SECRET) })])).toBe(false);
	});

	test('one match among several registrations is enough, wherever it is', () => {
		const registrations = [registration({ secretHash: hashOf(OTHER) }), registration({ secretHash: hashOf(SECRET) }), registration({})];
		expect(registrationMatches(SECRET, registrations)).toBe(true);
	});
});

describe('checkDeliverySecret (the delivery\'s verdict and the reason the log gives)', () => {
	test('the current secret or a registration\'s is accepted', () => {
		expect(checkDeliverySecret(SECRET, [SECRET])).toEqual({ ok: true });
		expect(checkDeliverySecret(SECRET, [undefined], [registration({ secretHash: hashOf(SECRET) })])).toEqual({ ok: true });
	});

	test('no header, a repeated header, a wrong one: refused, each saying which', () => {
		expect(checkDeliverySecret(undefined, [SECRET])).toEqual({ ok: false, reason: 'the x-inbox-webhook-secret header is missing' });
		expect(checkDeliverySecret([SECRET, SECRET], [SECRET], [registration({ secretHash: hashOf(SECRET) })])).toEqual({
			ok: false,
			reason: 'the x-inbox-webhook-secret header was sent more than once',
		});
		expect(checkDeliverySecret(OTHER, [SECRET], [registration({ secretHash: hashOf(SECRET) })])).toEqual({ ok: false, reason: MISMATCH });
	});

	test('an empty header is refused as a mismatch, also when the node has an empty secret among its accepted ones', () => {
		expect(checkDeliverySecret('', ['', SECRET])).toEqual({ ok: false, reason: MISMATCH });
	});

	test('no secret to check against (no token, no registration): refused, saying the credential could not be read', () => {
		const noToken = { ok: false, reason: "the node's credential could not be read (no API token), so no secret could be checked" };
		expect(checkDeliverySecret(OTHER, [undefined, ''], [])).toEqual(noToken);
		expect(checkDeliverySecret(OTHER, [])).toEqual(noToken);
	});

	test('a token but no registration, or registrations but no token: a mismatch, not "no token"', () => {
		expect(checkDeliverySecret(OTHER, [SECRET], [])).toEqual({ ok: false, reason: MISMATCH });
		expect(checkDeliverySecret(OTHER, [undefined], [registration({ secretHash: hashOf(SECRET) })])).toEqual({ ok: false, reason: MISMATCH });
	});
});
