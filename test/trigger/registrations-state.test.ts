/**
 * The trigger's record of its registrations (nodes/ConversationInboxTrigger/registrations.ts) on
 * its own: where it lives in static data (issue 42: under the node's identity in the workflow's
 * global part, and the node's own part as before), how the layouts merge, which registration is
 * the current one of a kind, and what is written back. Plain objects stand for n8n's static data
 * (the harness suites run the same code through n8n-core's contexts); the layout is the one
 * registrations.ts documents, written here as literals.
 */
import type { IDataObject } from 'n8n-workflow';

import type { Registration, TriggerState } from '../../nodes/ConversationInboxTrigger/registrations';
import {
	currentRegistration,
	fingerprintOf,
	loadState,
	mergeRegistrations,
	missingEvents,
	newRegistrationId,
	registrationHeaders,
	registrationKey,
	RESERVED_HEADERS,
	saveState,
} from '../../nodes/ConversationInboxTrigger/registrations';
import type { TriggerConfig } from '../../nodes/ConversationInboxTrigger/settings';

const IDENTITY = 'webhook:5f0c6a38-2b1e-4c1a-9d55-0d2f3c4b5a61';
const URL_NOW = 'http://n8n.example/webhook/5f0c6a38/webhook';
const URL_BEFORE = 'http://old.example/webhook/5f0c6a38/webhook';
const HASH = 'ab'.repeat(32);
const OTHER_HASH = 'cd'.repeat(32);
const config: TriggerConfig = {
	integrationId: 'c06bcd5a83f4cf3dda1721ed8',
	events: ['MESSAGE_RECEIVED', 'CONNECTION_STATUS_UPDATE'],
	transferType: 'ALL',
	delayMinutes: 0,
	headers: [],
	headersHash: '4f53cda18c2baa0c0354bb5f9a3ecbe5ed12ab4d8e11ba873c2f11161202b945',
};
const FINGERPRINT = fingerprintOf(config, 'MESSAGE_RECEIVED');
const made = (id: string | undefined, extra: Partial<Registration> = {}): Registration => ({
	url: URL_NOW,
	event: 'MESSAGE_RECEIVED',
	fingerprint: FINGERPRINT,
	secretHash: HASH,
	...(id === undefined ? {} : { id }),
	...extra,
});
const id = (n: number): string => n.toString(16).padStart(32, '0');
const globalOf = (registrations: unknown[], secret?: string): IDataObject => ({
	conversationInboxTrigger: { [IDENTITY]: { registrations, ...(secret === undefined ? {} : { secret }) } },
});

describe('the layouts', () => {
	test('the fingerprint of 0.1.0 (frozen fixture v2: MESSAGE_SENT_AND_RECEIVED) is unchanged', () => {
		expect(fingerprintOf({ ...config, events: ['MESSAGE_SENT_AND_RECEIVED'] }, 'MESSAGE_SENT_AND_RECEIVED')).toBe('0e859463ada8f917b6032e0a06d7f509');
	});

	test('the global part under the node\'s identity comes first, then what only the node\'s own part holds; the version-1 secret from either', () => {
		const state = loadState(
			{ global: globalOf([made(id(1))], 'g'.repeat(64)), node: { registrations: [made(undefined), made(id(1))], secret: 'n'.repeat(64) } },
			IDENTITY,
		);
		expect(state).toEqual({ legacySecret: 'g'.repeat(64), registrations: [made(id(1)), made(undefined)] });
		expect(loadState({ global: {}, node: { secret: 'n'.repeat(64) } }, IDENTITY).legacySecret).toBe('n'.repeat(64));
		expect(loadState({ global: globalOf([], ''), node: {} }, IDENTITY).legacySecret).toBeUndefined();
	});

	test('another node\'s entry, a global part that is not an object, an entry that is not an object: nothing from them', () => {
		expect(loadState({ global: { conversationInboxTrigger: { 'webhook:other': { registrations: [made(id(1))] } } }, node: {} }, IDENTITY).registrations).toEqual([]);
		for (const broken of ['text', ['a'], null, 7]) {
			expect(loadState({ global: { conversationInboxTrigger: broken } as IDataObject, node: {} }, IDENTITY).registrations).toEqual([]);
			expect(loadState({ global: { conversationInboxTrigger: { [IDENTITY]: broken } } as IDataObject, node: {} }, IDENTITY).registrations).toEqual([]);
		}
	});

	test('an entry keeps its identity when it is 32 hex characters, and possiblyMade only when true', () => {
		const loaded = (entry: IDataObject) => loadState({ global: globalOf([entry]), node: {} }, IDENTITY).registrations;
		expect(loaded({ ...made(id(9)), possiblyMade: true })).toEqual([{ ...made(id(9)), possiblyMade: true }]);
		expect(loaded({ ...made(undefined), id: 'x'.repeat(32) })).toEqual([made(undefined)]);
		expect(loaded({ ...made(undefined), id: id(9).slice(1) })).toEqual([made(undefined)]);
		expect(loaded({ ...made(undefined), id: 42 })).toEqual([made(undefined)]);
		expect(loaded({ ...made(id(9)), possiblyMade: 'yes' })).toEqual([made(id(9))]);
	});

	test('saving writes every registration to the global part and those known to exist to the node\'s own, with the version-1 secret; it drops what 0.1.x kept besides', () => {
		const state: TriggerState = { legacySecret: 's'.repeat(64), registrations: [made(id(1)), made(id(2), { possiblyMade: true })] };
		const global: IDataObject = { somethingElse: 1, conversationInboxTrigger: { 'webhook:other': { registrations: [] } } };
		const node: IDataObject = { version: 1, lastDeactivatedAt: '2026-11-25T00:35:43.696Z', registrations: [] };
		saveState({ global, node }, IDENTITY, state);
		expect(global).toEqual({
			somethingElse: 1,
			conversationInboxTrigger: {
				'webhook:other': { registrations: [] },
				[IDENTITY]: { registrations: [made(id(1)), made(id(2), { possiblyMade: true })], secret: 's'.repeat(64) },
			},
		});
		expect(node).toEqual({ registrations: [made(id(1))], secret: 's'.repeat(64) });
		// Copies: changing the state afterwards changes nothing saved.
		state.registrations[0].url = 'changed';
		expect((node.registrations as Registration[])[0].url).toBe(URL_NOW);
	});

	test('saving what is already saved writes nothing (n8n then saves nothing); the global part is replaced at its top key when it changes', () => {
		const state: TriggerState = { registrations: [made(id(1))] };
		const global: IDataObject = globalOf([made(id(1))]);
		const node: IDataObject = { registrations: [made(id(1))] };
		const written: string[] = [];
		const watch = (target: IDataObject, name: string) =>
			new Proxy(target, {
				set: (object, key, value) => {
					written.push(`${name}.${String(key)}`);
					return Reflect.set(object, key, value);
				},
				deleteProperty: (object, key) => {
					written.push(`delete ${name}.${String(key)}`);
					return Reflect.deleteProperty(object, key);
				},
			});
		saveState({ global: watch(global, 'global'), node: watch(node, 'node') }, IDENTITY, state);
		expect(written).toEqual([]);
		saveState({ global: watch(global, 'global'), node: watch(node, 'node') }, IDENTITY, { registrations: [made(id(1)), made(id(2))] });
		expect(written).toEqual(['global.conversationInboxTrigger', 'node.registrations']);
		written.length = 0;
		saveState({ global: watch(global, 'global'), node: watch({ ...node, secret: 'x' }, 'node') }, IDENTITY, { legacySecret: 'x', registrations: [made(id(1)), made(id(2))] });
		expect(written).toEqual(['global.conversationInboxTrigger']);
		// An empty version-1 secret (no secret: loadState ignores it) is left as it is.
		written.length = 0;
		const damaged: IDataObject = { registrations: [made(id(1))], secret: '' };
		saveState({ global: watch(globalOf([made(id(1))]), 'global'), node: watch(damaged, 'node') }, IDENTITY, { registrations: [made(id(1))] });
		expect(written).toEqual([]);
		expect(damaged.secret).toBe('');
	});

	test('a node without a version-1 secret saves none; a trigger part that is not an object is replaced, not spread', () => {
		const global: IDataObject = { conversationInboxTrigger: 'text' };
		saveState({ global, node: {} }, IDENTITY, { registrations: [made(id(1))] });
		expect(global).toEqual({ conversationInboxTrigger: { [IDENTITY]: { registrations: [made(id(1))] } } });
		const entry = (global.conversationInboxTrigger as IDataObject)[IDENTITY] as IDataObject;
		expect(Object.keys(entry)).toEqual(['registrations']);
	});
});

describe('the current registration of a kind, and what is missing', () => {
	const state = (registrations: Registration[], legacySecret?: string): TriggerState => ({ legacySecret, registrations });

	test('the first known to exist for the URL and fingerprint: not one possibly made, not one for another URL or settings', () => {
		const registrations = [
			made(id(1), { possiblyMade: true }),
			made(id(2), { url: URL_BEFORE }),
			made(id(3), { fingerprint: fingerprintOf(config, 'CONNECTION_STATUS_UPDATE'), event: 'CONNECTION_STATUS_UPDATE' }),
			made(id(4)),
			made(id(5)),
		];
		expect(currentRegistration(state(registrations), URL_NOW, FINGERPRINT)?.id).toBe(id(4));
		expect(currentRegistration(state(registrations.slice(0, 3)), URL_NOW, FINGERPRINT)).toBeUndefined();
		expect(missingEvents(state(registrations), URL_NOW, config)).toEqual([]);
		expect(missingEvents(state(registrations.slice(0, 2)), URL_NOW, config)).toEqual(['MESSAGE_RECEIVED', 'CONNECTION_STATUS_UPDATE']);
		expect(missingEvents(state([made(id(4))]), URL_NOW, config)).toEqual(['CONNECTION_STATUS_UPDATE']);
	});

	test('one without hash or tag counts only with the version-1 secret; a tag counts', () => {
		const bare = { url: URL_NOW, event: 'MESSAGE_RECEIVED', fingerprint: FINGERPRINT };
		expect(currentRegistration(state([bare]), URL_NOW, FINGERPRINT)).toBeUndefined();
		expect(currentRegistration(state([bare], 'v'.repeat(64)), URL_NOW, FINGERPRINT)).toEqual(bare);
		expect(currentRegistration(state([{ ...bare, secretTag: 'ab'.repeat(8) }]), URL_NOW, FINGERPRINT)).toEqual({ ...bare, secretTag: 'ab'.repeat(8) });
	});
});

describe('merging and keys', () => {
	test('a registration is its URL, settings, secret and identity: the same one twice is one; any of the four differing, two', () => {
		const base = made(id(1));
		const variants = [made(id(2)), made(id(1), { url: URL_BEFORE }), made(id(1), { fingerprint: 'f'.repeat(32) }), made(id(1), { secretHash: OTHER_HASH }), made(undefined)];
		for (const other of variants) expect(registrationKey(other)).not.toBe(registrationKey(base));
		expect(registrationKey({ ...base, event: 'OTHER', possiblyMade: true })).toBe(registrationKey(base));
		expect(registrationKey(made(undefined, { secretHash: undefined, secretTag: 'ab'.repeat(8) }))).not.toBe(registrationKey(made(undefined, { secretHash: undefined })));
	});

	test('merging adds what is not held yet, in order, as copies, and counts it', () => {
		const state: TriggerState = { registrations: [made(id(1))] };
		const incoming = [made(id(1)), made(id(2)), made(id(2)), made(id(3))];
		expect(mergeRegistrations(state, incoming)).toBe(2);
		expect(state.registrations.map((registration) => registration.id)).toEqual([id(1), id(2), id(3)]);
		incoming[1].url = 'changed';
		expect(state.registrations[1].url).toBe(URL_NOW);
		expect(mergeRegistrations(state, [])).toBe(0);
	});
});

describe('what a registration sends', () => {
	test('the user\'s headers first, then the secret, the event, the fingerprint and the identity; the four names reserved', () => {
		const withHeader = { ...config, headers: [{ key: 'x-proxy', value: 'p' }] };
		expect(registrationHeaders(withHeader, 'the-secret', 'MESSAGE_RECEIVED', id(7))).toEqual([
			{ key: 'x-proxy', value: 'p' },
			{ key: 'x-inbox-webhook-secret', value: 'the-secret' },
			{ key: 'x-inbox-event', value: 'MESSAGE_RECEIVED' },
			{ key: 'x-inbox-registration', value: fingerprintOf(withHeader, 'MESSAGE_RECEIVED') },
			{ key: 'x-inbox-registration-id', value: id(7) },
		]);
		expect(RESERVED_HEADERS).toEqual(['x-inbox-webhook-secret', 'x-inbox-event', 'x-inbox-registration', 'x-inbox-registration-id']);
	});

	test('a new identity: 32 hex characters, a different one each time', () => {
		const ids = new Set(Array.from({ length: 100 }, newRegistrationId));
		expect(ids.size).toBe(100);
		expect([...ids].every((value) => /^[0-9a-f]{32}$/.test(value))).toBe(true);
	});
});
