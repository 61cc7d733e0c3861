/**
 * Issue 45: One Execution per Message (trigger version 4, on by default for new nodes). Through
 * n8n-core's real WebhookContext (the trigger harness's stand-in for n8n's webhook endpoint), fed
 * by the sandbox's real deliveries and its redelivery switches (test/sandbox/webhooks.ts).
 *
 * The one stand-in: the node's monotonic clock (shared/clock.ts `monotonicNow`) runs `later` ms
 * ahead of the real one when a test moves it, so that "60 s apart" needs no 60 s of waiting.
 * Everything else (the sandbox's clock, the deliveries) runs in real time.
 */
import { randomUUID } from 'node:crypto';
import type { IDataObject, INodeParameters } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

let later = 0;
jest.mock('../../nodes/shared/clock', () => {
	const actual = jest.requireActual<typeof import('../../nodes/shared/clock')>('../../nodes/shared/clock');
	return { ...actual, monotonicNow: () => actual.monotonicNow() + later };
});

import { ConversationInboxTrigger } from '../../nodes/ConversationInboxTrigger/ConversationInboxTrigger.node';
import { forgetDeliveries, rememberedCount } from '../../nodes/ConversationInboxTrigger/oncePerMessage';
import type { Delivery } from '../sandbox';
import { TriggerInstance } from '../helpers/trigger-harness';
import type { EndpointCall } from '../helpers/trigger-harness';
import { activatedTrigger, DEMO, newPhoneNumber, releasedTrigger, sandboxAndEndpoint, triggerParameters, WHATSAPP } from './setup';

const fixture = sandboxAndEndpoint();
const FIRST_MESSAGE_KINDS = ['MESSAGE_RECEIVED', 'FIRST_MESSAGE_RECEIVED', 'MESSAGE_SENT_AND_RECEIVED'];
/** The answer to a delivery of a message that already started the workflow (a literal, not the node's). */
const DUPLICATE = {
	success: true,
	executed: false,
	reason: 'The same message (or delivery) started the workflow within the window (One Execution per Message)',
};

beforeEach(() => {
	fixture.sandbox.reset();
	fixture.endpoint.answerDelayMs = 0;
	later = 0;
	forgetDeliveries();
});

/** The parameters a new node (version 4) is saved with: One Execution per Message left at its default. */
function newNode(events: string[], options: IDataObject = {}): INodeParameters {
	const parameters = triggerParameters({ events, simplify: true });
	delete parameters.oncePerMessage;
	return { ...parameters, options: options as INodeParameters };
}

/** Runs `act` (which may return the sandbox's deliveries); answers once the endpoint handled `calls` more requests. */
async function observe(calls: number, act: () => Promise<Delivery[] | void>): Promise<{ calls: EndpointCall[]; executions: EndpointCall[]; deliveries: Delivery[] }> {
	const callsBefore = fixture.endpoint.calls.length;
	const deliveries = (await act()) ?? [];
	await fixture.endpoint.waitForCalls(callsBefore + calls);
	const handled = fixture.endpoint.calls.slice(callsBefore);
	return { calls: handled, executions: handled.filter((call) => call.items !== undefined), deliveries };
}

const inbound = (phoneNumber: string, text: string) => async () =>
	await fixture.sandbox.simulate.message({ integrationId: WHATSAPP, phoneNumber, direction: 'inbound', text });
const answers = (deliveries: Delivery[]) => deliveries.map((delivery) => JSON.parse(delivery.responseBody ?? 'null') as unknown);
const itemOf = (call: EndpointCall): IDataObject => call.items![0].json;

describe('the option', () => {
	const { description } = new ConversationInboxTrigger();
	const option = description.properties.find((entry) => entry.name === 'oncePerMessage')!;

	test('a switch, on by default, shown from version 4 only; a new node is saved with it on, saved nodes at 1 to 3 without it', () => {
		expect(option).toMatchObject({ type: 'boolean', default: true, displayName: 'One Execution per Message' });
		const shownAt = (typeVersion: number) => NodeHelpers.displayParameter(triggerParameters(), option, { typeVersion } as never, description);
		expect([1, 2, 3, 4].map(shownAt)).toEqual([false, false, false, true]);
		const filled = (typeVersion: number) =>
			NodeHelpers.getNodeParameters(description.properties, {}, true, false, { typeVersion } as never, description);
		expect(filled(4)?.oncePerMessage).toBe(true);
		expect(filled(3)).not.toHaveProperty('oncePerMessage');
		expect(description.defaultVersion).toBe(4);
	});

	test('its Options: Message ID Field (empty: the node finds it) and Window, 10 minutes by default, 1 to 1440; shown only with the option on', () => {
		const options = description.properties.find((entry) => entry.name === 'options')!.options as Array<{ name: string; default: unknown; typeOptions?: IDataObject; displayOptions?: IDataObject }>;
		const field = options.find((entry) => entry.name === 'messageIdField')!;
		const windowMinutes = options.find((entry) => entry.name === 'windowMinutes')!;
		expect(field.default).toBe('');
		expect(windowMinutes.default).toBe(10);
		expect(windowMinutes.typeOptions).toMatchObject({ minValue: 1, maxValue: 1440 });
		for (const entry of [field, windowMinutes]) {
			expect(entry.displayOptions).toEqual({ show: { '/oncePerMessage': [true], '@version': [{ _cnd: { gte: 4 } }] } });
		}
	});
});

describe('a new node (version 4, the option on by default)', () => {
	test('a first message with Message Received, First Message Received and Message Sent and Received selected: three deliveries, each answered 200, one execution; the item lists the three, and a message key', async () => {
		const instance = await activatedTrigger(fixture, newNode(FIRST_MESSAGE_KINDS));
		expect(instance.node.typeVersion).toBe(4);
		const phoneNumber = newPhoneNumber();

		const seen = await observe(3, inbound(phoneNumber, 'Olá, primeira mensagem'));

		expect(seen.deliveries.map((delivery) => delivery.status)).toEqual([200, 200, 200]);
		expect(seen.executions).toHaveLength(1);
		const item = itemOf(seen.executions[0]);
		// In the order of the event list; whichever arrived first is `event`.
		expect(item.events).toEqual(['MESSAGE_SENT_AND_RECEIVED', 'MESSAGE_RECEIVED', 'FIRST_MESSAGE_RECEIVED']);
		expect(FIRST_MESSAGE_KINDS).toContain(item.event);
		const messageId = (seen.deliveries[0].body as { data: { message: { id: string } } }).data.message.id;
		expect(item).toMatchObject({ text: 'Olá, primeira mensagem', firstMessage: true, messageId, messageKey: `message:${WHATSAPP}:${messageId}` });
		expect(answers(seen.deliveries).filter((answer) => JSON.stringify(answer) === JSON.stringify(DUPLICATE))).toHaveLength(2);
		expect(answers(seen.deliveries)).toContainEqual({ success: true, executed: true });
	});

	test('the dropped deliveries are logged at debug level, without the body', async () => {
		// A node of its own: log lines are limited per node and minute, and other tests log too.
		const instance = new TriggerInstance({
			parameters: newNode(FIRST_MESSAGE_KINDS),
			credentials: fixture.credentials,
			webhookBaseUrl: fixture.endpoint.webhookBaseUrl,
			webhookId: randomUUID(),
			nodeName: 'Logged node',
		});
		await instance.activate();
		fixture.endpoint.attach(instance);
		const logsBefore = fixture.endpoint.logs.length;
		await observe(3, inbound(newPhoneNumber(), 'a text that must not be logged'));
		const lines = fixture.endpoint.logs.slice(logsBefore).filter((log) => log.message.includes('(one execution per message)'));
		expect(lines).toHaveLength(2);
		expect(lines.every((log) => log.level === 'debug')).toBe(true);
		expect(JSON.stringify(lines)).not.toContain('a text that must not be logged');
		expect(lines[0].message).toMatch(
			/^Conversation Inbox Trigger "Logged node" in workflow \S+ ignored a delivery: the same message \(or delivery\) started the workflow within the window \(one execution per message\)\. Event: (MESSAGE_RECEIVED|FIRST_MESSAGE_RECEIVED|MESSAGE_SENT_AND_RECEIVED)\. The workflow did not run for it\.$/,
		);
	});

	test('a redelivery 2 s later (the same body and headers): answered 200, no second execution; 11 minutes later (past the window): runs again', async () => {
		await activatedTrigger(fixture, newNode(['MESSAGE_RECEIVED']));
		const [first] = (await observe(1, inbound(DEMO.contacts.alice.phoneNumber, 'redelivered'))).deliveries;

		later = 2_000;
		const again = await observe(1, async () => await resend(first));
		expect(again.calls.map((call) => call.statusCode)).toEqual([200]);
		expect(again.executions).toHaveLength(0);
		expect(JSON.parse(again.calls[0].responseText)).toEqual(DUPLICATE);

		later = 11 * 60_000;
		expect((await observe(1, async () => await resend(first))).executions).toHaveLength(1);
	});

	test('Options → Window of 1 minute: a redelivery 30 s later runs nothing, 2 minutes later runs again; a Window an expression made 0: the 10 minutes', async () => {
		await activatedTrigger(fixture, newNode(['MESSAGE_RECEIVED'], { windowMinutes: 1 }));
		const [first] = (await observe(1, inbound(DEMO.contacts.alice.phoneNumber, 'one minute'))).deliveries;
		later = 30_000;
		expect((await observe(1, async () => await resend(first))).executions).toHaveLength(0);
		later = 120_000;
		expect((await observe(1, async () => await resend(first))).executions).toHaveLength(1);

		forgetDeliveries();
		later = 0;
		await activatedTrigger(fixture, newNode(['MESSAGE_RECEIVED'], { windowMinutes: 0 }));
		const [other] = (await observe(1, inbound(DEMO.contacts.alice.phoneNumber, 'window 0'))).deliveries;
		later = 120_000;
		expect((await observe(1, async () => await resend(other))).executions).toHaveLength(0);
	});

	test('a retry after a slow answer (n8n answering in 300 ms, the platform retrying after 150 ms): one execution', async () => {
		await activatedTrigger(fixture, newNode(['MESSAGE_RECEIVED']));
		fixture.endpoint.answerDelayMs = 300;
		fixture.sandbox.setDeliverySwitches({ retrySlow: { slowerThanMs: 150 } });
		const seen = await observe(2, inbound(DEMO.contacts.alice.phoneNumber, 'slow answer'));
		const all = await fixture.sandbox.waitForDeliveries(2);
		expect(all.map((delivery) => [delivery.redelivery ?? 'first', delivery.status])).toEqual([
			['first', 200],
			['retry', 200],
		]);
		expect(seen.executions).toHaveLength(1);
	});

	test('two different messages with the same text a second apart: two executions', async () => {
		await activatedTrigger(fixture, newNode(['MESSAGE_RECEIVED']));
		const first = await observe(1, inbound(DEMO.contacts.alice.phoneNumber, 'same text'));
		later = 1_000;
		const second = await observe(1, inbound(DEMO.contacts.alice.phoneNumber, 'same text'));
		expect([first.executions.length, second.executions.length]).toEqual([1, 1]);
		expect(itemOf(first.executions[0]).messageKey).not.toBe(itemOf(second.executions[0]).messageKey);
	});

	test('a connection status delivered again, the same body: 20 s later dropped (an exact redelivery), 60 s after the first run again (two events)', async () => {
		await activatedTrigger(fixture, newNode(['CONNECTION_STATUS_UPDATE']));
		const [first] = (await observe(1, async () => await fixture.sandbox.simulate.connectionStatus(WHATSAPP, 'DISCONNECTED'))).deliveries;
		await fixture.sandbox.simulate.connectionStatus(WHATSAPP, 'CONNECTED');
		const executionsBefore = fixture.endpoint.executions.length;

		later = 20_000;
		expect((await observe(1, async () => await resend(first))).executions).toHaveLength(0);
		later = 60_000;
		expect((await observe(1, async () => await resend(first))).executions).toHaveLength(1);
		expect(fixture.endpoint.executions.length - executionsBefore).toBe(1);
	});

	test('two identical connection-status bodies without a time or ID (the payload has none), at once: both run (never taken for a redelivery)', async () => {
		await activatedTrigger(fixture, newNode(['CONNECTION_STATUS_UPDATE']));
		fixture.sandbox.setDeliverySwitches({ timestamp: false });
		const [first] = (await observe(1, async () => await fixture.sandbox.simulate.connectionStatus(WHATSAPP, 'DISCONNECTED'))).deliveries;
		expect(first.body).not.toHaveProperty('timestamp');
		const again = await observe(1, async () => await resend(first));
		expect(again.executions).toHaveLength(1);
		expect(itemOf(again.executions[0]).messageKey).toMatch(/^unique:[0-9a-f]{32}$/);
		await fixture.sandbox.simulate.connectionStatus(WHATSAPP, 'CONNECTED');
	});

	test('the option off: one execution per delivery, as version 3; each item still has the message key (for Remove Duplicates), no events list', async () => {
		await activatedTrigger(fixture, { ...newNode(FIRST_MESSAGE_KINDS), oncePerMessage: false });
		const seen = await observe(3, inbound(newPhoneNumber(), 'off'));
		expect(seen.executions).toHaveLength(3);
		expect(seen.executions.every((call) => itemOf(call).events === undefined)).toBe(true);
		const keys = seen.executions.map((call) => itemOf(call).messageKey);
		expect(new Set(keys).size).toBe(1);
		expect(String(keys[0])).toMatch(new RegExp(`^message:${WHATSAPP}:c[a-z0-9]{24}$`));
	});
});

describe('payloads that keep the message ID elsewhere, or none (the sandbox\'s payload switches)', () => {
	test.each([
		['under another name the node knows (data.message.messageId)', 'messageId', {}, 'message'],
		['under a name the node does not know (data.message.uid): matched by its body and time', 'uid', {}, 'body'],
		['under a name the node does not know, named in Message ID Field', 'uid', { messageIdField: 'data.message.uid' }, 'message'],
		['none: matched by its body and time', null, {}, 'body'],
	] as const)('%s: a first message under three events runs once, a redelivery nothing, another message with the same text runs', async (_name, messageIdField, options, by) => {
		await activatedTrigger(fixture, newNode(FIRST_MESSAGE_KINDS, options));
		fixture.sandbox.setDeliverySwitches({ messageIdField });
		const phoneNumber = newPhoneNumber();
		const first = await observe(3, inbound(phoneNumber, 'the same words'));
		expect(first.executions).toHaveLength(1);
		expect(String(itemOf(first.executions[0]).messageKey)).toMatch(new RegExp(`^${by}:${WHATSAPP}:`));
		expect((await observe(1, async () => await resend(first.deliveries[0]))).executions).toHaveLength(0);
		const second = await observe(2, inbound(phoneNumber, 'the same words'));
		expect(second.executions).toHaveLength(1);
	});

	test('no ID and no time in the payload: nothing is matched, each delivery runs (two different messages may look the same)', async () => {
		await activatedTrigger(fixture, newNode(FIRST_MESSAGE_KINDS));
		fixture.sandbox.setDeliverySwitches({ messageIdField: null, timestamp: false });
		const seen = await observe(3, inbound(newPhoneNumber(), 'no id, no time'));
		expect(seen.executions).toHaveLength(3);
	});
});

describe('saved nodes at versions 1 to 3 behave as before: one execution per delivery', () => {
	test.each([1, 2] as const)('version %i: the delivery 0.1.0 recorded (frozen fixture), delivered twice: two executions with the item 0.1.0 gave', async (typeVersion) => {
		const released = releasedTrigger(typeVersion);
		const instance = new TriggerInstance({
			parameters: released.node.parameters,
			credentials: fixture.credentials,
			webhookBaseUrl: released.activation.webhookBaseUrl,
			webhookId: released.node.webhookId,
			typeVersion,
			staticData: released.staticData.afterDeactivation,
		});
		await instance.activate();
		fixture.endpoint.attach(instance);
		const [{ delivery, released: [answer] }] = released.deliveries;
		const url = new URL(delivery.url);
		const send = async () =>
			await fetch(`${fixture.endpoint.origin}${url.pathname}${url.search}`, { method: delivery.method, headers: delivery.headers, body: JSON.stringify(delivery.body) });
		const before = fixture.endpoint.executions.length;
		expect([(await send()).status, (await send()).status]).toEqual([answer.statusCode, answer.statusCode]);
		const executions = fixture.endpoint.executions.slice(before);
		expect(executions).toHaveLength(2);
		for (const execution of executions) {
			expect(Object.keys(itemOf(execution)).sort()).toEqual(Object.keys(answer.items[0].json).sort());
		}
	});

	test('version 3: a first message under three events runs three times, and a redelivery once more', async () => {
		await activatedTrigger(fixture, triggerParameters({ events: FIRST_MESSAGE_KINDS, simplify: true }), 3);
		const seen = await observe(3, inbound(newPhoneNumber(), 'version 3'));
		expect(seen.executions).toHaveLength(3);
		expect((await observe(1, async () => await resend(seen.deliveries[0]))).executions).toHaveLength(1);
	});
});

/** The platform sends a delivery again: the same method, URL, headers and body. */
async function resend(delivery: Delivery): Promise<void> {
	const response = await fetch(delivery.url, {
		method: delivery.method,
		headers: delivery.headers,
		body: delivery.body === undefined ? undefined : JSON.stringify(delivery.body),
	});
	await response.text();
}

test('the memory is bounded: entries the window has passed are dropped by the next delivery', async () => {
	await activatedTrigger(fixture, newNode(['MESSAGE_RECEIVED']));
	await observe(1, inbound(DEMO.contacts.alice.phoneNumber, 'one'));
	await observe(1, inbound(DEMO.contacts.alice.phoneNumber, 'two'));
	expect(rememberedCount()).toBe(2);
	later = 10 * 60_000 + 1;
	await observe(1, inbound(DEMO.contacts.alice.phoneNumber, 'three'));
	expect(rememberedCount()).toBe(1);
});
