/**
 * The rules of One Execution per Message (nodes/ConversationInboxTrigger/oncePerMessage.ts) on
 * their own: which deliveries are one message, what the item says it stands for, and the bounds of
 * the memory (the documented figures as literals: README, "One execution per message"). Pure
 * module state, so the module itself is exercised; once-per-message.test.ts runs it through
 * n8n-core's WebhookContext with the sandbox's deliveries.
 */
import {
	DEFAULT_WINDOW_MINUTES,
	deliveryKey,
	eventsOfMessage,
	EXACT_WINDOW_MS,
	forgetDeliveries,
	MAX_ENTRIES,
	rememberedCount,
	seenBefore,
	uniqueKey,
	valueAtPath,
} from '../../nodes/ConversationInboxTrigger/oncePerMessage';

const INTEGRATION = 'c06bcd5a83f4cf3dda1721ed8';
const options = { integrationId: INTEGRATION, windowMinutes: 10 };
const message = (id: unknown, extra: object = {}) => ({ event: 'MESSAGE_RECEIVED', timestamp: '2026-11-28T10:00:00.000Z', data: { message: { id, text: 'Oi', ...extra } } });

beforeEach(() => forgetDeliveries());

describe('the documented figures', () => {
	test('window 10 minutes by default, exact redeliveries within 30 s, at most 50 000 deliveries remembered', () => {
		expect(DEFAULT_WINDOW_MINUTES).toBe(10);
		expect(EXACT_WINDOW_MS).toBe(30_000);
		expect(MAX_ENTRIES).toBe(50_000);
	});
});

describe('deliveryKey: the message ID first', () => {
	test.each([
		['data.message.id', { data: { message: { id: 'm1' } } }],
		['data.message.messageId', { data: { message: { messageId: 'm1' } } }],
		['data.messageId', { data: { messageId: 'm1' } }],
		['message.id', { message: { id: 'm1' } }],
		['messageId', { messageId: 'm1' }],
	])('found at %s', (_path, payload) => {
		expect(deliveryKey('MESSAGE_SENT', payload, {}, options)).toEqual({ by: 'message', key: `message:${INTEGRATION}:m1`, windowMs: 600_000 });
	});

	test('the first path that holds an ID wins; a number is an ID; an empty text, a blank one, an object or a boolean are not', () => {
		expect(deliveryKey('MESSAGE_RECEIVED', { data: { message: { id: 'first', messageId: 'second' } } }, {}, options)?.key).toBe(`message:${INTEGRATION}:first`);
		expect(deliveryKey('MESSAGE_RECEIVED', message(42), {}, options)?.key).toBe(`message:${INTEGRATION}:42`);
		for (const notAnId of ['', '   ', { nested: 1 }, true, Number.NaN]) {
			expect(deliveryKey('MESSAGE_RECEIVED', message(notAnId), {}, options)?.by).toBe('body');
		}
	});

	test('every message kind is keyed by its message; the same ID on another integration is another message; the window is the one given', () => {
		for (const event of ['MESSAGE_SENT_AND_RECEIVED', 'MESSAGE_SENT', 'MESSAGE_RECEIVED', 'FIRST_MESSAGE_RECEIVED', 'MESSAGE_IN_SERVICE']) {
			expect(deliveryKey(event, message('m7'), {}, options)?.key).toBe(`message:${INTEGRATION}:m7`);
		}
		expect(deliveryKey('MESSAGE_RECEIVED', message('m7'), {}, { ...options, integrationId: 'cother' })?.key).toBe('message:cother:m7');
		expect(deliveryKey('MESSAGE_RECEIVED', message('m7'), {}, { ...options, windowMinutes: 3 })?.windowMs).toBe(180_000);
	});

	test('a Message ID Field replaces the paths the node tries (trimmed); where it holds nothing, the body decides', () => {
		const payload = { timestamp: 't', data: { message: { id: 'm1', uid: 'u1' } } };
		expect(deliveryKey('MESSAGE_RECEIVED', payload, {}, { ...options, messageIdField: ' data.message.uid ' })?.key).toBe(`message:${INTEGRATION}:u1`);
		expect(deliveryKey('MESSAGE_RECEIVED', payload, {}, { ...options, messageIdField: 'data.nothing' })?.by).toBe('body');
		expect(deliveryKey('MESSAGE_RECEIVED', payload, {}, { ...options, messageIdField: '   ' })?.key).toBe(`message:${INTEGRATION}:m1`);
	});

	test('events without a message are not keyed by a message ID, even when the payload has one at a message path', () => {
		const payload = { timestamp: 't', messageId: 'm1', data: { connectionStatus: 'CONNECTED' } };
		expect(deliveryKey('CONNECTION_STATUS_UPDATE', payload, {}, options)?.by).toBe('body');
		expect(deliveryKey('SERVICE_CONTINUITY_VERIFICATION', payload, {}, options)?.by).toBe('body');
	});
});

describe('deliveryKey: a delivery ID, then the body with its time', () => {
	test.each([
		['deliveryId', { deliveryId: 'd1' }],
		['eventId', { eventId: 'd1' }],
		['data.deliveryId', { data: { deliveryId: 'd1' } }],
		['data.eventId', { data: { eventId: 'd1' } }],
	])('a delivery ID at %s', (_path, payload) => {
		expect(deliveryKey('CONNECTION_STATUS_UPDATE', payload, {}, options)).toEqual({ by: 'delivery', key: `delivery:${INTEGRATION}:d1`, windowMs: 600_000 });
	});

	test.each(['x-delivery-id', 'x-event-id', 'idempotency-key'])('a delivery ID in the %s header; a blank or repeated header is none', (header) => {
		expect(deliveryKey('CONNECTION_STATUS_UPDATE', {}, { [header]: 'h1' }, options)).toEqual({ by: 'delivery', key: `delivery:${INTEGRATION}:h1`, windowMs: 600_000 });
		expect(deliveryKey('CONNECTION_STATUS_UPDATE', {}, { [header]: ' ' }, options)).toBeUndefined();
		expect(deliveryKey('CONNECTION_STATUS_UPDATE', {}, { [header]: ['h1', 'h2'] }, options)).toBeUndefined();
	});

	test.each(['timestamp', 'createdAt', 'data.timestamp', 'data.createdAt', 'data.message.createdAt'])('a body with a time at %s is keyed by its content, for 30 s', (path) => {
		const [first, ...rest] = path.split('.').reverse();
		const payload = rest.reduce<object>((inner, name) => ({ [name]: inner }), { [first]: '2026-11-28T10:00:00.000Z' });
		expect(deliveryKey('CONNECTION_STATUS_UPDATE', payload, {}, options)).toEqual({ by: 'body', key: expect.stringMatching(new RegExp(`^body:${INTEGRATION}:[0-9a-f]{64}$`)), windowMs: 30_000 });
	});

	test('a body without a time, ID or delivery ID, or not an object, has no key (never taken for a redelivery)', () => {
		expect(deliveryKey('CONNECTION_STATUS_UPDATE', { data: { connectionStatus: 'CONNECTED' } }, {}, options)).toBeUndefined();
		expect(deliveryKey('MESSAGE_RECEIVED', { data: { message: { text: 'Oi' } } }, {}, options)).toBeUndefined();
		expect(deliveryKey('MESSAGE_RECEIVED', ['a', 'list'], {}, options)).toBeUndefined();
		expect(deliveryKey('MESSAGE_RECEIVED', 'text', {}, options)).toBeUndefined();
	});

	test('the body key: the same whatever the order of its fields and the event kind it names; another time or content is another key', () => {
		const key = (payload: object) => deliveryKey('MESSAGE_RECEIVED', payload, {}, options)?.key;
		const body = { event: 'MESSAGE_RECEIVED', timestamp: 't1', data: { a: 1, b: [1, { c: 2 }] } };
		expect(key({ data: { b: [1, { c: 2 }], a: 1 }, timestamp: 't1', event: 'FIRST_MESSAGE_RECEIVED' })).toBe(key(body));
		expect(key({ ...body, type: 'MESSAGE_SENT' })).toBe(key(body));
		expect(key({ ...body, timestamp: 't2' })).not.toBe(key(body));
		expect(key({ ...body, data: { a: 1, b: [{ c: 2 }, 1] } })).not.toBe(key(body));
		expect(key({ ...body, data: { a: 1, b: [1, { c: 3 }] } })).not.toBe(key(body));
		expect(key({ ...body, extra: null })).not.toBe(key(body));
		// Objects inside lists too are read whatever the order of their fields; list entries stay apart.
		expect(key({ ...body, data: { list: [{ x: 1, y: 2 }] } })).toBe(key({ ...body, data: { list: [{ y: 2, x: 1 }] } }));
		expect(key({ ...body, data: { list: [1, 2] } })).not.toBe(key({ ...body, data: { list: [12] } }));
	});
});

describe('eventsOfMessage: the selected kinds one message counts as', () => {
	const all = ['MESSAGE_SENT_AND_RECEIVED', 'MESSAGE_SENT', 'MESSAGE_RECEIVED', 'FIRST_MESSAGE_RECEIVED', 'MESSAGE_IN_SERVICE', 'CONNECTION_STATUS_UPDATE'];

	test('inbound: received, sent and received; first when it says so; in service when its chat is in attendance', () => {
		expect(eventsOfMessage('MESSAGE_RECEIVED', { data: { message: { direction: 'inbound' }, firstMessage: false } }, all)).toEqual(['MESSAGE_SENT_AND_RECEIVED', 'MESSAGE_RECEIVED']);
		expect(eventsOfMessage('FIRST_MESSAGE_RECEIVED', { data: { message: { direction: 'inbound' }, firstMessage: true } }, all)).toEqual([
			'MESSAGE_SENT_AND_RECEIVED',
			'MESSAGE_RECEIVED',
			'FIRST_MESSAGE_RECEIVED',
		]);
		expect(eventsOfMessage('MESSAGE_RECEIVED', { data: { message: { fromMe: false }, chat: { category: 'attendance' } } }, all)).toEqual([
			'MESSAGE_SENT_AND_RECEIVED',
			'MESSAGE_RECEIVED',
			'MESSAGE_IN_SERVICE',
		]);
	});

	test('what the delivery says counts whatever kind it came as', () => {
		expect(eventsOfMessage('MESSAGE_IN_SERVICE', { data: { message: { fromMe: false } } }, all)).toEqual(['MESSAGE_SENT_AND_RECEIVED', 'MESSAGE_RECEIVED', 'MESSAGE_IN_SERVICE']);
		expect(eventsOfMessage('MESSAGE_SENT_AND_RECEIVED', { data: { message: { direction: 'outbound' } } }, all)).toEqual(['MESSAGE_SENT_AND_RECEIVED', 'MESSAGE_SENT']);
		expect(eventsOfMessage('MESSAGE_RECEIVED', { data: { message: { direction: 'inbound' }, firstMessage: true } }, all)).toEqual([
			'MESSAGE_SENT_AND_RECEIVED',
			'MESSAGE_RECEIVED',
			'FIRST_MESSAGE_RECEIVED',
		]);
	});

	test('outbound: sent, sent and received; an unknown direction adds neither', () => {
		expect(eventsOfMessage('MESSAGE_SENT', { data: { message: { direction: 'outbound' } } }, all)).toEqual(['MESSAGE_SENT_AND_RECEIVED', 'MESSAGE_SENT']);
		expect(eventsOfMessage('MESSAGE_IN_SERVICE', { data: { message: { fromMe: true } } }, all)).toEqual(['MESSAGE_SENT_AND_RECEIVED', 'MESSAGE_SENT', 'MESSAGE_IN_SERVICE']);
		expect(eventsOfMessage('MESSAGE_SENT_AND_RECEIVED', { data: { message: { direction: 'sideways' }, chat: { category: 'queue' }, firstMessage: 'yes' } }, all)).toEqual([
			'MESSAGE_SENT_AND_RECEIVED',
		]);
	});

	test('only selected kinds; an event without a message stands for itself alone', () => {
		expect(eventsOfMessage('FIRST_MESSAGE_RECEIVED', { data: { message: { direction: 'inbound' }, firstMessage: true } }, ['FIRST_MESSAGE_RECEIVED', 'MESSAGE_SENT'])).toEqual([
			'FIRST_MESSAGE_RECEIVED',
		]);
		expect(eventsOfMessage('CONNECTION_STATUS_UPDATE', { data: { message: { direction: 'inbound' }, firstMessage: true } }, all)).toEqual(['CONNECTION_STATUS_UPDATE']);
	});
});

describe('the memory', () => {
	const key = (id: string, windowMs = 600_000) => ({ by: 'message' as const, key: `message:${INTEGRATION}:${id}`, windowMs });

	test('the first delivery runs; the same key within its window does not; at its end it runs again (and opens a new window)', () => {
		expect(seenBefore('node-a', key('m1'), 1_000)).toBe(false);
		expect(seenBefore('node-a', key('m1'), 1_000)).toBe(true);
		expect(seenBefore('node-a', key('m1'), 600_999)).toBe(true);
		expect(seenBefore('node-a', key('m1'), 601_000)).toBe(false);
		expect(seenBefore('node-a', key('m1'), 1_200_999)).toBe(true);
	});

	test('per node: another node, or another key, is not a duplicate', () => {
		expect(seenBefore('node-a', key('m1'), 0)).toBe(false);
		expect(seenBefore('node-b', key('m1'), 0)).toBe(false);
		expect(seenBefore('node-a', key('m2'), 0)).toBe(false);
		expect(rememberedCount()).toBe(3);
	});

	test('entries whose window ended are dropped by the next delivery, oldest first', () => {
		seenBefore('node', key('short', 30_000), 0);
		seenBefore('node', key('long'), 0);
		seenBefore('node', key('later', 30_000), 10_000);
		expect(rememberedCount()).toBe(3);
		seenBefore('node', key('next'), 30_000);
		// `short` ended; `long` has not, so `later` (ended too) waits behind it.
		expect(rememberedCount()).toBe(3);
		expect(seenBefore('node', key('later', 30_000), 40_000)).toBe(false);
		seenBefore('node', key('after everything'), 600_000);
		expect(rememberedCount()).toBe(3);
	});

	test('at most 50 000 remembered: one more drops the oldest, which then runs again; the rest are still duplicates', () => {
		for (let n = 0; n < 50_000; n++) seenBefore('node', key(`m${n}`), 0);
		expect(rememberedCount()).toBe(50_000);
		expect(seenBefore('node', key('one more'), 0)).toBe(false);
		expect(rememberedCount()).toBe(50_000);
		expect(seenBefore('node', key('m1'), 0)).toBe(true);
		expect(seenBefore('node', key('m0'), 0)).toBe(false);
	});

	test('a key of its own for what nothing can recognise: never the same twice', () => {
		expect(uniqueKey()).toMatch(/^unique:[0-9a-f]{32}$/);
		expect(uniqueKey()).not.toBe(uniqueKey());
	});

	test('valueAtPath reads dot paths through objects only', () => {
		expect(valueAtPath({ a: { b: { c: 1 } } }, 'a.b.c')).toBe(1);
		expect(valueAtPath({ a: [{ b: 1 }] }, 'a.0.b')).toBeUndefined();
		expect(valueAtPath({ a: null }, 'a.b')).toBeUndefined();
		expect(valueAtPath('text', 'length')).toBeUndefined();
	});
});
