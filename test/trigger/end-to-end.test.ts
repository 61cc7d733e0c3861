/* eslint-disable -- development tooling, not shipped: n8n's node rules (eslint.config.mjs, n8n-node lint) are for nodes/ and credentials/ */
/**
 * End to end: the trigger registers through `create` (n8n-core's HookContext) with the URL of the
 * stand-in for n8n's webhook endpoint; the sandbox then simulates channel events and delivers
 * them over HTTP; the stand-in runs `webhook()` in n8n-core's WebhookContext and records the
 * items a workflow execution would start with.
 */
import { SECRET_HEADER } from '../../nodes/ConversationInboxTrigger/registrations';
import { TriggerInstance } from '../helpers/trigger-harness';
import {
	activatedTrigger,
	DEMO,
	derivedSecretFor,
	headerOf,
	newPhoneNumber,
	sandboxAndEndpoint,
	triggerParameters,
	webhooksFor,
	WHATSAPP,
} from './setup';

const fixture = sandboxAndEndpoint();

/** The secret the node's registrations carry: derived from the token and its webhook ID. */
function secretOf(instance: TriggerInstance): string {
	return derivedSecretFor(instance.node.webhookId!);
}

/** Deliveries to this trigger's URL (earlier tests' registrations point at other URLs). */
function to<T extends { url: string }>(instance: TriggerInstance, deliveries: T[]): T[] {
	return deliveries.filter((delivery) => delivery.url.split('?')[0] === instance.webhookUrl());
}

/**
 * Registers one more MESSAGE_SENT webhook to this trigger's URL directly on the platform, as a
 * third party (or another method) would; asserts the API accepted it.
 */
async function registerDirectly(
	instance: TriggerInstance,
	method: string,
	headers: Array<{ key: string; value: string }>,
): Promise<void> {
	const response = await fetch(`${fixture.credentials.baseUrl}/integration/webhook/create`, {
		method: 'POST',
		headers: { Authorization: `Bearer ${DEMO.token}`, 'Content-Type': 'application/json' },
		body: JSON.stringify({
			integrationId: WHATSAPP,
			url: instance.webhookUrl(),
			method,
			type: 'MESSAGE_SENT',
			headers,
		}),
	});
	expect(response.status).toBe(200);
}

/** An outbound message to a seeded contact, sent by `transferType`; the deliveries it caused. */
function messageToAlice(text: string, transferType: 'API' | 'USER') {
	return fixture.sandbox.simulate.message({
		integrationId: WHATSAPP,
		phoneNumber: DEMO.contacts.alice.phoneNumber,
		direction: 'outbound',
		text,
		transferType,
	});
}

describe('sandbox deliveries to the trigger', () => {
	test('an inbound first message: one execution per selected event, labelled, with integrationId and the message; secret nowhere in the output', async () => {
		const instance = await activatedTrigger(fixture, 
			triggerParameters({ events: ['MESSAGE_RECEIVED', 'FIRST_MESSAGE_RECEIVED', 'CONNECTION_STATUS_UPDATE'] }),
		);
		const executionsBefore = fixture.endpoint.executions.length;
		const phoneNumber = newPhoneNumber();

		const deliveries = to(
			instance,
			await fixture.sandbox.simulate.message({
				integrationId: WHATSAPP,
				phoneNumber,
				direction: 'inbound',
				text: 'Oi! Quero saber o preço.',
			}),
		);

		// MESSAGE_SENT_AND_RECEIVED also happened, but no webhook was registered for it.
		expect(deliveries.map((delivery) => delivery.event).sort()).toEqual(['FIRST_MESSAGE_RECEIVED', 'MESSAGE_RECEIVED']);
		expect(deliveries.every((delivery) => delivery.status === 200)).toBe(true);

		const executions = fixture.endpoint.executions.slice(executionsBefore);
		expect(executions).toHaveLength(2);
		const items = executions.flatMap((execution) => execution.items ?? []);
		expect(items.map((item) => item.json.event).sort()).toEqual(['FIRST_MESSAGE_RECEIVED', 'MESSAGE_RECEIVED']);
		for (const item of items) {
			expect(item.json.integrationId).toBe(WHATSAPP);
			const body = item.json.body as { event: string; integrationId: string; data: Record<string, any> };
			expect(body.event).toBe(item.json.event);
			expect(body.integrationId).toBe(WHATSAPP);
			expect(body.data.message.text).toBe('Oi! Quero saber o preço.');
			expect(body.data.contact.phoneNumber).toBe(phoneNumber);
			expect((item.json.headers as Record<string, string>)[SECRET_HEADER]).toBeUndefined();
		}
		expect(JSON.stringify(items)).not.toContain(secretOf(instance));
	});

	test('a connection status change: one execution labelled CONNECTION_STATUS_UPDATE with the new status', async () => {
		const instance = await activatedTrigger(fixture, triggerParameters({ events: ['CONNECTION_STATUS_UPDATE'] }));
		const executionsBefore = fixture.endpoint.executions.length;

		const deliveries = to(instance, await fixture.sandbox.simulate.connectionStatus(WHATSAPP, 'DISCONNECTED'));

		expect(deliveries).toHaveLength(1);
		expect(deliveries[0].status).toBe(200);
		const executions = fixture.endpoint.executions.slice(executionsBefore);
		expect(executions).toHaveLength(1);
		const item = executions[0].items![0].json;
		expect(item.event).toBe('CONNECTION_STATUS_UPDATE');
		expect(item.integrationId).toBe(WHATSAPP);
		expect((item.body as { data: { connectionStatus: string } }).data.connectionStatus).toBe('DISCONNECTED');
		expect(JSON.stringify(executions)).not.toContain(secretOf(instance));
		await fixture.sandbox.simulate.connectionStatus(WHATSAPP, 'CONNECTED');
	});

	test('after an event is deselected, its registration still delivers: acknowledged with 200, no execution', async () => {
		const parameters = triggerParameters({ events: ['MESSAGE_RECEIVED', 'FIRST_MESSAGE_RECEIVED'] });
		const first = await activatedTrigger(fixture, parameters);
		await first.deactivate();
		const narrowed = new TriggerInstance({
			parameters: triggerParameters({ events: ['MESSAGE_RECEIVED'] }),
			credentials: fixture.credentials,
			webhookBaseUrl: fixture.endpoint.webhookBaseUrl,
			webhookId: first.node.webhookId,
			staticData: first.persistedStaticData(),
		});
		await narrowed.activate();
		fixture.endpoint.attach(narrowed);
		const executionsBefore = fixture.endpoint.executions.length;

		const deliveries = to(
			narrowed,
			await fixture.sandbox.simulate.message({
				integrationId: WHATSAPP,
				phoneNumber: newPhoneNumber(),
				direction: 'inbound',
				text: 'primeira mensagem',
			}),
		);

		expect(deliveries).toHaveLength(2);
		expect(deliveries.every((delivery) => delivery.status === 200)).toBe(true);
		const executions = fixture.endpoint.executions.slice(executionsBefore);
		expect(executions.map((execution) => execution.items![0].json.event)).toEqual(['MESSAGE_RECEIVED']);
		const ignored = deliveries.find((delivery) => delivery.event === 'FIRST_MESSAGE_RECEIVED')!;
		expect(JSON.parse(ignored.responseBody ?? '{}')).toMatchObject({ executed: false });
	});

	test('a delivery with a stranger\'s secret (a webhook registered by someone else to our URL) is rejected with 401', async () => {
		const instance = await activatedTrigger(fixture, triggerParameters({ events: ['MESSAGE_SENT'] }));
		const [ours] = webhooksFor(fixture.sandbox, instance.webhookUrl());
		await registerDirectly(
			instance,
			'POST',
			ours.headers.map((header) =>
				header.key === SECRET_HEADER ? { key: SECRET_HEADER, value: 'guessed-secret' } : header,
			),
		);
		const executionsBefore = fixture.endpoint.executions.length;

		const deliveries = to(instance, await messageToAlice('Seu pedido saiu para entrega', 'API'));

		const statuses = deliveries.map((delivery) => delivery.status).sort();
		expect(statuses).toEqual([200, 401]);
		expect(fixture.endpoint.executions.length - executionsBefore).toBe(1);
	});

	test('the platform delivering by GET, PUT, PATCH and DELETE (webhooks registered with those methods): each one executes', async () => {
		const instance = await activatedTrigger(fixture, triggerParameters({ events: ['MESSAGE_SENT'] }));
		const [ours] = webhooksFor(fixture.sandbox, instance.webhookUrl());
		for (const method of ['GET', 'PUT', 'PATCH', 'DELETE']) {
			await registerDirectly(instance, method, ours.headers);
		}
		const executionsBefore = fixture.endpoint.executions.length;

		const deliveries = to(instance, await messageToAlice('Pedido confirmado', 'API'));

		expect(deliveries.map((delivery) => delivery.method).sort()).toEqual(['DELETE', 'GET', 'PATCH', 'POST', 'PUT']);
		expect(deliveries.every((delivery) => delivery.status === 200)).toBe(true);
		const executions = fixture.endpoint.executions.slice(executionsBefore);
		expect(executions.map((execution) => execution.method).sort()).toEqual(['DELETE', 'GET', 'PATCH', 'POST', 'PUT']);
		for (const execution of executions) {
			const item = execution.items![0].json;
			expect(item.event).toBe('MESSAGE_SENT');
			expect(item.integrationId).toBe(WHATSAPP);
			const body = item.body as { event: string; data: unknown };
			expect(body.event).toBe('MESSAGE_SENT');
			// GET carries the payload in the query string, so `data` arrives JSON-encoded there.
			const data = (typeof body.data === 'string' ? JSON.parse(body.data) : body.data) as {
				message: { text: string };
			};
			expect(data.message.text).toBe('Pedido confirmado');
		}
		expect(JSON.stringify(executions)).not.toContain(secretOf(instance));
	});

	test('delay and transfer type registered on the platform apply: a USER-only trigger with a 2-minute delay', async () => {
		const instance = await activatedTrigger(fixture, 
			triggerParameters({ events: ['MESSAGE_SENT'], transferType: 'USER', delayMinutes: 2 }),
		);
		const [registration] = webhooksFor(fixture.sandbox, instance.webhookUrl());
		expect(headerOf(registration, SECRET_HEADER)).toBe(secretOf(instance));
		const executionsBefore = fixture.endpoint.executions.length;

		// An API-sent message does not pass the USER filter; a USER one arrives after the delay.
		await messageToAlice('by the API', 'API');
		const immediate = await messageToAlice('by an attendant', 'USER');
		expect(to(instance, immediate)).toHaveLength(0);
		await fixture.endpoint.waitUntil(() => fixture.endpoint.executions.length >= executionsBefore + 1, 5000);
		const executions = fixture.endpoint.executions.slice(executionsBefore);
		expect(executions).toHaveLength(1);
		const body = executions[0].items![0].json.body as { data: { message: { text: string } } };
		expect(body.data.message.text).toBe('by an attendant');
	});
});
