/* eslint-disable -- development tooling, not shipped: n8n's node rules (eslint.config.mjs, n8n-node lint) are for nodes/ and credentials/ */
/**
 * Simplify (typeVersion 3, on by default): the flat item, from the sandbox's real deliveries
 * through the stand-in for n8n's webhook endpoint, and from payload shapes the spec does not rule
 * out (it shows no payload): nothing throws and nothing delivered is lost.
 */
import type { INodeParameters } from 'n8n-workflow';

import { simplifyDelivery } from '../../nodes/ConversationInboxTrigger/simplify';
import type { TriggerInstance } from '../helpers/trigger-harness';
import { activatedTrigger, DEMO, derivedSecretFor, newPhoneNumber, sandboxAndEndpoint, triggerParameters, WHATSAPP } from './setup';

const fixture = sandboxAndEndpoint();

/** The parameters as the editor stores a new node's: Simplify left at its default. */
function withoutSimplify(parameters: INodeParameters): INodeParameters {
	const { simplify: _omitted, ...rest } = parameters;
	return rest;
}

const activated = (parameters: INodeParameters, typeVersion?: number): Promise<TriggerInstance> =>
	activatedTrigger(fixture, parameters, typeVersion);

describe('Simplify with the sandbox deliveries', () => {
	test('a node at version 3 (Simplify by default): a first message gives flat items with the text, phone and chat IDs', async () => {
		const instance = await activated(
			withoutSimplify(triggerParameters({ events: ['MESSAGE_RECEIVED', 'FIRST_MESSAGE_RECEIVED'] })),
			3,
		);
		expect(instance.node.typeVersion).toBe(3);
		expect(instance.node.parameters.simplify).toBe(true);
		const before = fixture.endpoint.executions.length;
		const phoneNumber = newPhoneNumber();

		await fixture.sandbox.simulate.message({ integrationId: WHATSAPP, phoneNumber, name: 'Rita Lopes', direction: 'inbound', text: 'Quero falar com alguém' });

		const items = fixture.endpoint.executions.slice(before).map((execution) => execution.items![0].json);
		expect(items.map((item) => item.event).sort()).toEqual(['FIRST_MESSAGE_RECEIVED', 'MESSAGE_RECEIVED']);
		const chat = [...fixture.sandbox.state.chats.values()].find((c) => c.phoneNumber === phoneNumber)!;
		for (const item of items) {
			expect(item).toEqual({
				event: item.event,
				integrationId: WHATSAPP,
				timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
				messageId: expect.any(String),
				text: 'Quero falar com alguém',
				direction: 'inbound',
				fromMe: false,
				messageType: 'text',
				transferType: 'USER',
				sentAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
				chatInternalId: chat.id,
				chatId: chat.chatId,
				chatName: 'Rita Lopes',
				chatCategory: 'queue',
				phoneNumber,
				contactName: 'Rita Lopes',
				firstMessage: true,
			});
		}
		expect(JSON.stringify(items)).not.toContain(derivedSecretFor(instance.node.webhookId!));
	});

	test('a connection change (version 3): the new and previous status and the line\'s name', async () => {
		await activated(withoutSimplify(triggerParameters({ events: ['CONNECTION_STATUS_UPDATE'] })), 3);
		const before = fixture.endpoint.executions.length;
		await fixture.sandbox.simulate.connectionStatus(WHATSAPP, 'DISCONNECTED');
		await fixture.sandbox.simulate.connectionStatus(WHATSAPP, 'CONNECTED');
		const items = fixture.endpoint.executions.slice(before).map((execution) => execution.items![0].json);
		expect(items).toEqual([
			{ event: 'CONNECTION_STATUS_UPDATE', integrationId: WHATSAPP, timestamp: expect.any(String), connectionStatus: 'DISCONNECTED', previousStatus: 'CONNECTED', integrationName: DEMO.integrations.whatsapp.name },
			{ event: 'CONNECTION_STATUS_UPDATE', integrationId: WHATSAPP, timestamp: expect.any(String), connectionStatus: 'CONNECTED', previousStatus: 'DISCONNECTED', integrationName: DEMO.integrations.whatsapp.name },
		]);
	});

	test('Simplify off at version 3, and saved nodes at versions 1 and 2: today\'s full item (body, headers, query)', async () => {
		const cases: Array<[string, INodeParameters, number]> = [
			['v3 off', triggerParameters({ events: ['MESSAGE_SENT'], simplify: false }), 3],
			['v2', withoutSimplify(triggerParameters({ events: ['MESSAGE_SENT'] })), 2],
			['v1', withoutSimplify(triggerParameters({ events: ['MESSAGE_SENT'] })), 1],
		];
		for (const [label, parameters, typeVersion] of cases) {
			const instance = await activated(parameters, typeVersion);
			expect({ label, simplify: instance.node.parameters.simplify }).toEqual({ label, simplify: typeVersion === 3 ? false : undefined });
			const before = fixture.endpoint.executions.length;
			await fixture.sandbox.simulate.message({ integrationId: WHATSAPP, phoneNumber: DEMO.contacts.alice.phoneNumber, direction: 'outbound', text: `full ${label}`, transferType: 'API' });
			const [item] = fixture.endpoint.executions.slice(before).map((execution) => execution.items![0].json);
			expect(Object.keys(item).sort()).toEqual(['body', 'event', 'headers', 'integrationId', 'query']);
			expect(item.body).toMatchObject({ event: 'MESSAGE_SENT', data: { message: { text: `full ${label}` } } });
		}
	});
});

describe('Simplify on shapes the spec does not show', () => {
	const sandboxLike = {
		event: 'MESSAGE_RECEIVED',
		integrationId: WHATSAPP,
		timestamp: '2026-01-01T00:00:00.000Z',
		data: { message: { text: 'hi', direction: 'inbound' }, chat: { chatInternalId: 'c1', chatId: '5511@s.whatsapp.net' }, contact: { phoneNumber: '5511', name: 'A' }, firstMessage: false },
	};

	test('GET deliveries carry `data` JSON-encoded in the query: it is read the same', () => {
		const item = simplifyDelivery('MESSAGE_RECEIVED', WHATSAPP, { ...sandboxLike, data: JSON.stringify(sandboxLike.data) });
		expect(item).toMatchObject({ text: 'hi', phoneNumber: '5511', chatInternalId: 'c1', firstMessage: false });
		expect(item.body).toBeUndefined();
	});

	test.each([
		['a string', 'just text'],
		['an array', [1, 2, 3]],
		['null', null],
		['a number', 42],
		['an object without data', { hello: 'world' }],
		['data that is not an object', { data: 7 }],
		['data in a shape of its own', { data: { msg: { body: 'hi' }, sender: '5511' } }],
		['data that is broken JSON text', { data: '{"message":' }],
		['fields that are objects where text is expected', { data: { message: { text: { rich: true } }, contact: ['x'] } }],
		['a null chat (service continuity without a chat)', { event: 'SERVICE_CONTINUITY_VERIFICATION', data: { chat: null } }],
	])('%s: no throw, the whole payload kept under body', (_label, payload) => {
		const item = simplifyDelivery('MESSAGE_RECEIVED', WHATSAPP, payload);
		expect(item).toMatchObject({ event: 'MESSAGE_RECEIVED', integrationId: WHATSAPP });
		expect(item.body).toEqual(payload);
	});

	test('only scalar values are taken; an odd field is left out, the rest still read', () => {
		const item = simplifyDelivery('MESSAGE_RECEIVED', WHATSAPP, {
			data: { message: { text: 'ok', direction: { nested: 1 }, id: Number.NaN }, contact: { phoneNumber: 5511999 } },
		});
		expect(item).toEqual({ event: 'MESSAGE_RECEIVED', integrationId: WHATSAPP, text: 'ok', phoneNumber: 5511999 });
	});

	test('the phone number falls back to the chat when there is no contact', () => {
		const item = simplifyDelivery('SERVICE_CONTINUITY_VERIFICATION', WHATSAPP, { data: { chat: { chatInternalId: 'c9', phoneNumber: '5511888', name: 'Bo' } } });
		expect(item).toEqual({ event: 'SERVICE_CONTINUITY_VERIFICATION', integrationId: WHATSAPP, chatInternalId: 'c9', phoneNumber: '5511888', chatName: 'Bo' });
	});
});
