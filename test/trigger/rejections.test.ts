/**
 * Rejected and ignored deliveries leave a line in n8n's log (the stand-in endpoint records what
 * the node passes to `this.logger`; the e2e suite reads n8n's own log),
 * with the reason and the event, never a secret or the token, rate-limited per node.
 */
import { randomUUID } from 'node:crypto';

import { LogLimiter } from '../../nodes/ConversationInboxTrigger/rejections';
import { EVENT_HEADER, SECRET_HEADER } from '../../nodes/ConversationInboxTrigger/registrations';
import { N8nWebhookEndpointStandIn, TriggerInstance } from '../helpers/trigger-harness';
import type { LogLevel } from '../helpers/trigger-harness';
import type { Sandbox } from './setup';
import { DEMO, headersOf, startTestSandbox, triggerParameters, webhooksFor, WHATSAPP } from './setup';

let sandbox: Sandbox;
let endpoint: N8nWebhookEndpointStandIn;
let instance: TriggerInstance;
let url: string;
let secret: string;
let headers: Record<string, string>;

// The rate limit counts per minute of Date.now(). Each test starts two minutes after the last
// one began, so no test inherits another's counts (time still flows within a test).
const realNow = Date.now.bind(Date);
let offset = 0;
/** A minute of the clock the node reads (Date.now, shifted by `offset`). */
const MINUTE_MS = 60_000;

const payload = { event: 'MESSAGE_RECEIVED', integrationId: WHATSAPP, data: { message: { text: 'hi' } } };

beforeAll(async () => {
	const started = await startTestSandbox();
	sandbox = started.sandbox;
	endpoint = await new N8nWebhookEndpointStandIn().start();
	instance = new TriggerInstance({
		credentials: started.credentials,
		webhookBaseUrl: endpoint.webhookBaseUrl,
		webhookId: randomUUID(),
		parameters: triggerParameters({ events: ['MESSAGE_RECEIVED'] }),
	});
	await instance.activate();
	endpoint.attach(instance);
	url = instance.webhookUrl();
	headers = { ...headersOf(webhooksFor(sandbox, url)[0]), 'content-type': 'application/json' };
	secret = headers[SECRET_HEADER];
	jest.spyOn(Date, 'now').mockImplementation(() => realNow() + offset);
});

beforeEach(() => {
	offset += 2 * MINUTE_MS;
	endpoint.logs.length = 0;
});

afterAll(async () => {
	jest.restoreAllMocks();
	await endpoint.stop();
	await sandbox.close();
});

async function post(requestHeaders: Record<string, string>, body = JSON.stringify(payload)): Promise<number> {
	const before = endpoint.calls.length;
	const response = await fetch(url, { method: 'POST', headers: requestHeaders, body });
	await response.text();
	await endpoint.waitForCalls(before + 1);
	return response.status;
}

const lines = (level: LogLevel): string[] =>
	endpoint.logs.filter((call) => call.level === level).map((call) => call.message);

function forged(secretValue?: string): Record<string, string> {
	const copy = { ...headers };
	if (secretValue === undefined) delete copy[SECRET_HEADER];
	else copy[SECRET_HEADER] = secretValue;
	return copy;
}

describe('the log line of a refused delivery', () => {
	test('no secret header: one warning naming the node, the workflow, the reason and the event; no secret, no token', async () => {
		expect(await post(forged())).toBe(401);
		expect(lines('warn')).toEqual([
			`Conversation Inbox Trigger "Conversation Inbox Trigger" in workflow wf-test refused a delivery (HTTP 401): the ${SECRET_HEADER} header is missing. Event: MESSAGE_RECEIVED. The workflow did not run for it.`,
		]);
		const all = JSON.stringify(endpoint.logs);
		expect(all).not.toContain(secret);
		expect(all).not.toContain(DEMO.token);
	});

	test('a wrong secret: the reason says it does not match, and the value sent is not logged', async () => {
		const guessed = 'f'.repeat(64);
		expect(await post(forged(guessed))).toBe(401);
		expect(lines('warn')).toHaveLength(1);
		expect(lines('warn')[0]).toContain(`the ${SECRET_HEADER} header does not match this node's secret`);
		expect(lines('warn')[0]).not.toContain(guessed);
		expect(lines('warn')[0]).not.toContain(secret);
	});

	test('an event a sender made up is not echoed into the log', async () => {
		const status = await post({ ...forged(), [EVENT_HEADER]: 'EVIL FAKE LOG LINE' }, JSON.stringify({ event: 'x' }));
		expect(status).toBe(401);
		expect(lines('warn')[0]).toContain('Event: not one of the seven event kinds.');
		expect(lines('warn')[0]).not.toContain('FAKE');
	});

	test('an authentic delivery with a body that is not JSON: a warning with HTTP 400 and the reason', async () => {
		const status = await post({ ...headers, 'content-type': 'text/plain' }, 'not json {');
		expect(status).toBe(400);
		expect(lines('warn')).toEqual([expect.stringContaining('refused a delivery (HTTP 400): the body is not valid JSON. Event: MESSAGE_RECEIVED.')]);
	});

	test('an authentic delivery that is ignored (event not selected) is logged at debug level, not as a warning', async () => {
		const status = await post({ ...headers, [EVENT_HEADER]: 'MESSAGE_SENT' });
		expect(status).toBe(200);
		expect(lines('warn')).toEqual([]);
		expect(lines('debug')).toEqual([expect.stringContaining('ignored a delivery: the event kind is not selected in the trigger. Event: MESSAGE_SENT.')]);
	});

	test('a delivery that runs the workflow logs nothing', async () => {
		expect(await post(headers)).toBe(200);
		expect(lines('warn')).toEqual([]);
		expect(lines('debug')).toEqual([]);
	});
});

describe('rate limit', () => {
	// README: log lines are limited to 5 per node per minute per kind.
	test("a flood of forged deliveries logs 5 lines a minute; the next minute's first line counts the rest", async () => {
		for (let i = 0; i < 8; i++) expect(await post(forged())).toBe(401);
		expect(lines('warn')).toHaveLength(5);

		offset += MINUTE_MS;
		expect(await post(forged())).toBe(401);
		expect(lines('warn')).toHaveLength(6);
		expect(lines('warn')[5]).toMatch(/ 3 more in the previous minute were not logged\.$/);
	});

	test('the limiter: per key, per window, counting what it leaves out', () => {
		const limiter = new LogLimiter(2, 1000);
		const admitted = (key: string, now: number) => limiter.admit(key, now);
		expect([0, 10, 20, 30].map((now) => admitted('a', now).log)).toEqual([true, true, false, false]);
		// Another key has its own count.
		expect(admitted('b', 30).log).toBe(true);
		// The next window: admitted again, with the two left out reported once.
		expect(admitted('a', 1000)).toEqual({ log: true, suppressedBefore: 2 });
		expect(admitted('a', 1001)).toEqual({ log: true, suppressedBefore: 0 });
		// A clock that goes backwards starts a new window rather than staying silent.
		expect(admitted('a', 500).log).toBe(true);
	});
});
