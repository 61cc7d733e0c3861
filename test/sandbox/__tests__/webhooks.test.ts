import { DEMO } from '../index';
import { type Json, expectError, startReceiver, useSandbox } from './helpers';

const MINUTE_MS = 20;
const { api, sandbox } = useSandbox({ minuteMs: MINUTE_MS });
const WA = DEMO.integrations.whatsapp.id;
const OFFICIAL = DEMO.integrations.official.id;

let receiver: Awaited<ReturnType<typeof startReceiver>>;
beforeAll(async () => {
	receiver = await startReceiver();
});
afterAll(() => receiver.close());
beforeEach(() => {
	receiver.hits.length = 0;
});

async function register(body: Record<string, unknown>): Promise<string> {
	const r = await api().post('/integration/webhook/create', { integrationId: WA, url: `${receiver.url}/hook`, ...body });
	expect(r.status).toBe(200);
	return r.body.response.webhook.id;
}

const inbound = (phoneNumber: string = DEMO.contacts.systemAutomation.phoneNumber, extra: object = {}) =>
	sandbox().simulate.message({ integrationId: WA, phoneNumber, direction: 'inbound', text: 'hello', ...extra });
const outbound = (phoneNumber: string = DEMO.contacts.systemAutomation.phoneNumber, extra: object = {}) =>
	sandbox().simulate.message({ integrationId: WA, phoneNumber, direction: 'outbound', text: 'hi there', ...extra });

describe('message events', () => {
	it('MESSAGE_SENT_AND_RECEIVED gets both directions, MESSAGE_RECEIVED inbound, MESSAGE_SENT outbound', async () => {
		const both = await register({ type: 'MESSAGE_SENT_AND_RECEIVED' });
		const received = await register({ type: 'MESSAGE_RECEIVED' });
		const sent = await register({ type: 'MESSAGE_SENT' });
		const inDeliveries = await inbound();
		expect(inDeliveries.map((d) => d.webhookId).sort()).toEqual([both, received].sort());
		const outDeliveries = await outbound();
		expect(outDeliveries.map((d) => d.webhookId).sort()).toEqual([both, sent].sort());
		expect(receiver.hits).toHaveLength(4);
		expect(sandbox().deliveries.every((d) => d.status === 200)).toBe(true);
	});

	it('delivers a JSON body with the registered method, URL and extra headers', async () => {
		const id = await register({ type: 'MESSAGE_RECEIVED', method: 'PUT', headers: [{ key: 'X-Secret', value: 's3cret' }, { key: 'X-Event-Kind', value: 'received' }] });
		const [delivery] = await inbound();
		const hit = receiver.hits[0];
		expect(hit).toMatchObject({ method: 'PUT', path: '/hook' });
		expect(hit.headers).toMatchObject({ 'x-secret': 's3cret', 'x-event-kind': 'received', 'content-type': 'application/json' });
		const payload = JSON.parse(hit.body);
		expect(payload).toEqual({
			event: 'MESSAGE_RECEIVED',
			integrationId: WA,
			timestamp: expect.any(String),
			data: {
				message: expect.objectContaining({ direction: 'inbound', text: 'hello', transferType: 'USER', chatInternalId: DEMO.chats.systemAutomation.id }),
				chat: expect.objectContaining({ chatInternalId: DEMO.chats.systemAutomation.id, category: 'queue' }),
				contact: { phoneNumber: DEMO.contacts.systemAutomation.phoneNumber, name: DEMO.contacts.systemAutomation.name, chatId: DEMO.contacts.systemAutomation.chatId },
				firstMessage: false,
			},
		});
		expect(delivery).toMatchObject({ webhookId: id, method: 'PUT', status: 200, body: payload, responseBody: 'received' });
		// the message is in the chat
		expect(sandbox().state.chats.get(DEMO.chats.systemAutomation.id)?.messages.at(-1)?.text).toBe('hello');
	});

	it.each(['PATCH', 'DELETE', 'POST'])('uses method %s with a JSON body', async (method) => {
		await register({ type: 'MESSAGE_SENT', method });
		await outbound();
		expect(receiver.hits[0].method).toBe(method);
		expect(JSON.parse(receiver.hits[0].body).event).toBe('MESSAGE_SENT');
	});

	it('GET puts the payload in the query string and sends no body', async () => {
		await register({ type: 'MESSAGE_SENT', method: 'GET', url: `${receiver.url}/get-hook?source=inbox`, headers: [{ key: 'X-Secret', value: 'q' }] });
		const [delivery] = await outbound();
		const hit = receiver.hits[0];
		expect(hit.method).toBe('GET');
		expect(hit.body).toBe('');
		expect(hit.headers['content-type']).toBeUndefined();
		expect(hit.headers['x-secret']).toBe('q');
		expect(hit.query).toMatchObject({ source: 'inbox', event: 'MESSAGE_SENT', integrationId: WA, timestamp: expect.any(String) });
		expect(JSON.parse(hit.query.data).message.text).toBe('hi there');
		expect(delivery.body).toBeUndefined();
		expect(delivery.query.event).toBe('MESSAGE_SENT');
	});

	it('FIRST_MESSAGE_RECEIVED fires for the first inbound message of a number only', async () => {
		await register({ type: 'FIRST_MESSAGE_RECEIVED' });
		const fresh = '5531988887777';
		expect(await inbound(fresh)).toHaveLength(1);
		expect(await inbound(fresh)).toHaveLength(0);
		expect(await outbound('5531988886666')).toHaveLength(0);
		expect(await inbound(DEMO.contacts.alice.phoneNumber)).toHaveLength(0);
		expect(await inbound(DEMO.contacts.alice.phoneNumber, { firstMessage: true })).toHaveLength(1);
		const payload = JSON.parse(receiver.hits[0].body);
		expect(payload.data.firstMessage).toBe(true);
		// the new number got a contact and a chat in the queue
		const chat = sandbox().state.mostRecentChat(fresh, WA);
		expect(chat?.category).toBe('queue');
		expect(chat?.messages).toHaveLength(2);
	});

	it('MESSAGE_IN_SERVICE fires for messages in chats in attendance', async () => {
		await register({ type: 'MESSAGE_IN_SERVICE' });
		expect(await inbound(DEMO.contacts.alice.phoneNumber)).toHaveLength(1);
		expect(await outbound(DEMO.contacts.alice.phoneNumber)).toHaveLength(1);
		expect(await inbound(DEMO.contacts.systemAutomation.phoneNumber)).toHaveLength(0);
		const moved = await sandbox().simulate.messageInService({ chatInternalId: DEMO.chats.systemAutomation.id, text: 'still there?' });
		expect(moved.map((d) => d.event)).toEqual(['MESSAGE_IN_SERVICE']);
		expect(sandbox().state.chats.get(DEMO.chats.systemAutomation.id)?.category).toBe('attendance');
	});

	it('fires only webhooks of the event integration', async () => {
		await register({ type: 'MESSAGE_RECEIVED', integrationId: OFFICIAL });
		expect(await inbound()).toHaveLength(0);
		const onOfficial = await sandbox().simulate.message({ integrationId: OFFICIAL, phoneNumber: DEMO.contacts.twoLines.phoneNumber, direction: 'inbound', text: 'x' });
		expect(onOfficial).toHaveLength(1);
	});
});

describe('transfer-type filter', () => {
	const cases: Array<[string, string[]]> = [
		['ALL', ['API', 'AUTOMATION', 'USER']],
		['USER', ['USER']],
		['AUTOMATION', ['AUTOMATION']],
		['API', ['API']],
		['AUTOMATION_AND_API', ['API', 'AUTOMATION']],
	];
	it.each(cases)('a %s webhook receives %j messages', async (transferType, expected) => {
		await register({ type: 'MESSAGE_SENT', transferType });
		for (const kind of ['USER', 'AUTOMATION', 'API']) await outbound(undefined, { transferType: kind });
		const got = receiver.hits.map((h) => JSON.parse(h.body).data.message.transferType).sort();
		expect(got).toEqual(expected);
	});

	it('inbound messages count as USER', async () => {
		await register({ type: 'MESSAGE_RECEIVED', transferType: 'USER' });
		await register({ type: 'MESSAGE_RECEIVED', transferType: 'AUTOMATION_AND_API' });
		expect(await inbound()).toHaveLength(1);
	});
});

describe('delay', () => {
	it(`fires after delayMinutes × minuteMs (${MINUTE_MS} ms here), not at once`, async () => {
		await register({ type: 'MESSAGE_RECEIVED', delayMinutes: 4 });
		await register({ type: 'MESSAGE_RECEIVED' });
		const started = Date.now();
		const immediate = await inbound();
		expect(immediate).toHaveLength(1);
		const all = await sandbox().waitForDeliveries(2, 10_000);
		expect(all).toHaveLength(2);
		expect(all[1].at - started).toBeGreaterThanOrEqual(4 * MINUTE_MS - 5);
		expect(all[1].scheduledAt).toBeLessThanOrEqual(all[0].at);
		expect(receiver.hits).toHaveLength(2);
	});

	it('reset cancels deliveries still waiting', async () => {
		await register({ type: 'MESSAGE_RECEIVED', delayMinutes: 3 });
		await inbound();
		sandbox().reset();
		// After the reset, a delivery due later than the cancelled one, to another path (timers fire
		// in order): when the first delivery after the reset is that one, the cancelled one never came.
		await register({ type: 'MESSAGE_RECEIVED', delayMinutes: 6, url: `${receiver.url}/later` });
		await inbound();
		await sandbox().waitForDeliveries(1, 10_000);
		expect(sandbox().deliveries.map((delivery) => new URL(delivery.url).pathname)).toEqual(['/later']);
		expect(receiver.hits.map((hit) => hit.path)).toEqual(['/later']);
	});
});

describe('other events', () => {
	it('CONNECTION_STATUS_UPDATE on simulated changes and on disconnect through the API', async () => {
		await register({ type: 'CONNECTION_STATUS_UPDATE', transferType: 'USER' });
		const [d] = await sandbox().simulate.connectionStatus(WA, 'QRCODE');
		expect(d.body).toMatchObject({ event: 'CONNECTION_STATUS_UPDATE', data: { connectionStatus: 'QRCODE', previousStatus: 'CONNECTED', integration: { id: WA } } });
		expect(sandbox().state.integrations.get(WA)?.connectionStatus).toBe('QRCODE');
		await api().post('/integration/disconnect', { integrationId: WA });
		const all = await sandbox().waitForDeliveries(2, 10_000);
		expect(all[1].body).toMatchObject({ data: { connectionStatus: 'DISCONNECTED', previousStatus: 'QRCODE' } });
	});

	it('SERVICE_CONTINUITY_VERIFICATION with or without a chat', async () => {
		await register({ type: 'SERVICE_CONTINUITY_VERIFICATION' });
		const [withChat] = await sandbox().simulate.serviceContinuity({ integrationId: WA, chatInternalId: DEMO.chats.alice.id });
		expect((withChat.body as Json).data.chat).toMatchObject({ chatInternalId: DEMO.chats.alice.id, category: 'attendance' });
		const [without] = await sandbox().simulate.serviceContinuity({ integrationId: WA });
		expect((without.body as Json).data.chat).toBeNull();
		await expect(sandbox().simulate.serviceContinuity({ integrationId: WA, chatInternalId: DEMO.chats.finalized.id })).rejects.toMatchObject({ status: 404 });
	});

	it('records failed deliveries with the error or the receiver status', async () => {
		const failing = await startReceiver(500);
		await failing.close();
		await register({ type: 'MESSAGE_SENT', url: `${failing.url}/gone` });
		const erroring = await startReceiver(500);
		try {
			await register({ type: 'MESSAGE_SENT', url: `${erroring.url}/boom` });
			const result = await outbound();
			const gone = result.find((d) => d.url.includes('/gone'));
			expect(gone?.error).toMatch(/fetch failed|ECONNREFUSED/);
			expect(gone?.status).toBeUndefined();
			expect(result.find((d) => d.url.includes('/boom'))).toMatchObject({ status: 500 });
		} finally {
			await erroring.close();
		}
	});
});

describe('control endpoints for simulations', () => {
	it('simulate message, connection and service continuity over HTTP; list deliveries and webhooks', async () => {
		await register({ type: 'MESSAGE_SENT_AND_RECEIVED' });
		await register({ type: 'CONNECTION_STATUS_UPDATE' });
		await register({ type: 'SERVICE_CONTINUITY_VERIFICATION' });
		const msg = await api().control('POST', '/simulate/message', { integrationId: WA, phoneNumber: DEMO.contacts.lid.lid, direction: 'inbound', text: 'via http' });
		expect(msg.status).toBe(200);
		expect(msg.body.deliveries).toHaveLength(1);
		expect(msg.body.deliveries[0].body.data.contact.phoneNumber).toBe(DEMO.contacts.lid.phoneNumber);
		expect((await api().control('POST', '/simulate/connection', { integrationId: WA, status: 'DISCONNECTED' })).body.deliveries).toHaveLength(1);
		expect((await api().control('POST', '/simulate/service-continuity', { integrationId: WA })).body.deliveries).toHaveLength(1);
		expect((await api().control('POST', '/simulate/message-in-service', { chatInternalId: DEMO.chats.lid.id, text: 'x' })).body.deliveries).toHaveLength(1);
		expect((await api().control('GET', '/deliveries')).body.deliveries).toHaveLength(4);
		expect((await api().control('GET', '/webhooks')).body.webhooks).toHaveLength(3);
		await api().control('DELETE', '/deliveries');
		expect(sandbox().deliveries).toHaveLength(0);
	});

	it.each([
		['direction must be one of inbound, outbound', '/simulate/message', { integrationId: WA, phoneNumber: '5511999990000', direction: 'in', text: 'x' }, 400],
		['text is required', '/simulate/message', { integrationId: WA, phoneNumber: '5511999990000', direction: 'inbound' }, 400],
		['transferType must be one of USER, AUTOMATION, API', '/simulate/message', { integrationId: WA, phoneNumber: '5511999990000', direction: 'inbound', text: 'x', transferType: 'ALL' }, 400],
		['phoneNumber must contain 8-15 digits', '/simulate/message', { integrationId: WA, phoneNumber: '12', direction: 'inbound', text: 'x' }, 400],
		['integrationId', '/simulate/message', { integrationId: 'c'.repeat(25), phoneNumber: '5511999990000', direction: 'inbound', text: 'x' }, 404],
		['status must be an upper-case status', '/simulate/connection', { integrationId: WA, status: 'online' }, 400],
		['status is required', '/simulate/connection', { integrationId: WA }, 400],
		['chatInternalId', '/simulate/service-continuity', { integrationId: WA, chatInternalId: 'c'.repeat(25) }, 404],
		['chatInternalId must name a contact chat', '/simulate/message-in-service', { chatInternalId: DEMO.group.chatInternalId, text: 'x' }, 400],
	])('%s', async (message, path, body, status) => {
		expectError(await api().control('POST', path, body), status, message);
	});
});

describe('delivery switches: a platform that redelivers (issue 45)', () => {
	it('duplicate: every delivery is sent again afterMs after the first, the same body (its timestamp included) and headers', async () => {
		await register({ type: 'MESSAGE_RECEIVED', headers: [{ key: 'X-Secret', value: 'd' }] });
		sandbox().setDeliverySwitches({ duplicate: { afterMs: 30 } });
		const [first] = await inbound();
		const [, again] = await sandbox().waitForDeliveries(2);
		expect(again).toMatchObject({ webhookId: first.webhookId, redelivery: 'duplicate', status: 200, body: first.body, headers: first.headers });
		expect(first.redelivery).toBeUndefined();
		expect(receiver.hits.map((hit) => hit.body)).toEqual([receiver.hits[0].body, receiver.hits[0].body]);
	});

	it('retrySlow: a delivery answered slower than slowerThanMs, or not at all, is sent once more (once)', async () => {
		const slow = await startReceiver(200, 300);
		try {
			await register({ type: 'MESSAGE_RECEIVED', url: `${slow.url}/slow` });
			// Nothing listens there: the delivery fails without an answer.
			await register({ type: 'MESSAGE_SENT_AND_RECEIVED', url: 'http://127.0.0.1:1/closed' });
			sandbox().setDeliverySwitches({ retrySlow: { slowerThanMs: 150 } });
			const firsts = await inbound();
			const all = await sandbox().waitForDeliveries(4);
			const retried = all.filter((delivery) => delivery.redelivery === 'retry');
			expect(retried.map((delivery) => delivery.event).sort()).toEqual(['MESSAGE_RECEIVED', 'MESSAGE_SENT_AND_RECEIVED']);
			expect(retried.find((d) => d.event === 'MESSAGE_RECEIVED')!.body).toEqual(firsts.find((d) => d.event === 'MESSAGE_RECEIVED')!.body);
			expect(retried.find((d) => d.event === 'MESSAGE_SENT_AND_RECEIVED')!.error).toBeDefined();
			expect(slow.hits).toHaveLength(2);
		} finally {
			await slow.close();
		}
	});

	it('kindsApartMs: the kinds of one occurrence are delivered one after another', async () => {
		await register({ type: 'MESSAGE_RECEIVED' });
		await register({ type: 'MESSAGE_SENT_AND_RECEIVED' });
		await register({ type: 'FIRST_MESSAGE_RECEIVED' });
		sandbox().setDeliverySwitches({ kindsApartMs: 25 });
		const deliveries = await inbound('5511912345678');
		expect(deliveries).toHaveLength(3);
		// In the order of the registrations, each one's own timer (0, 25, 50 ms): they reach the receiver in that order.
		expect(receiver.hits.map((hit) => JSON.parse(hit.body).event)).toEqual(['MESSAGE_RECEIVED', 'MESSAGE_SENT_AND_RECEIVED', 'FIRST_MESSAGE_RECEIVED']);
		// One occurrence: the same timestamp and message in each.
		expect(new Set(deliveries.map((delivery) => JSON.stringify({ ...(delivery.body as object), event: undefined }))).size).toBe(1);
	});

	it('messageIdField and timestamp: the message ID under another name or none, and no time in the payload', async () => {
		await register({ type: 'MESSAGE_RECEIVED' });
		await register({ type: 'CONNECTION_STATUS_UPDATE' });
		const messageOf = (delivery: { body: unknown }) => (delivery.body as Json).data.message;
		sandbox().setDeliverySwitches({ messageIdField: 'messageId' });
		const [renamed] = await inbound();
		expect(messageOf(renamed).messageId).toMatch(/^c[a-z0-9]{24}$/);
		expect(messageOf(renamed).id).toBeUndefined();
		sandbox().setDeliverySwitches({ messageIdField: null, timestamp: false });
		const [bare] = await inbound();
		expect(Object.keys(messageOf(bare))).not.toContain('id');
		expect(Object.keys(messageOf(bare))).not.toContain('createdAt');
		expect(bare.body).not.toHaveProperty('timestamp');
		expect(messageOf(bare).text).toBe('hello');
		const [status] = await sandbox().simulate.connectionStatus(WA, 'DISCONNECTED');
		expect(status.body).not.toHaveProperty('timestamp');
		expect((status.body as Json).data.connectionStatus).toBe('DISCONNECTED');
		await sandbox().simulate.connectionStatus(WA, 'CONNECTED');
	});

	it('over HTTP: POST and GET /_sandbox/delivery-switches; a wrong switch is a 400 naming it; reset() switches them off', async () => {
		const set = await api().control('POST', '/delivery-switches', { duplicate: { afterMs: 100 }, messageIdField: 'uid' });
		expect(set.status).toBe(200);
		expect((await api().control('GET', '/delivery-switches')).body.switches).toEqual({ duplicate: { afterMs: 100 }, messageIdField: 'uid' });
		expectError(await api().control('POST', '/delivery-switches', { duplicates: {} }), 400, 'unknown switch duplicates');
		expectError(await api().control('POST', '/delivery-switches', { duplicate: { afterMs: -1 } }), 400, 'duplicate.afterMs must be a whole number');
		expectError(await api().control('POST', '/delivery-switches', { messageIdField: 'a.b' }), 400, 'messageIdField must be a field name or null');
		sandbox().reset();
		expect(sandbox().deliverySwitches).toEqual({});
	});
});
