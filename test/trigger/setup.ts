/* eslint-disable -- development tooling, not shipped: n8n's node rules (eslint.config.mjs, n8n-node lint) are for nodes/ and credentials/ */
/**
 * Shared set-up of the trigger tests: the sandbox API on a random port, the trigger's parameters,
 * and helpers to read what the sandbox holds. Not a test file (jest runs *.test.ts only).
 */
import { createHash, createHmac, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { startSandbox } from '../sandbox';
import { N8nWebhookEndpointStandIn, TriggerInstance } from '../helpers/trigger-harness';
import { DEMO } from '../sandbox/seed';
import type { Delivery } from '../sandbox';
import type { Webhook } from '../sandbox/types';
import type { InboxCredentials } from '../helpers/n8n-harness';

export type Sandbox = Awaited<ReturnType<typeof startSandbox>>;

export { DEMO };

export const WHATSAPP = DEMO.integrations.whatsapp.id;
export const OFFICIAL = DEMO.integrations.official.id;
/** Well-formed (`^c[a-z0-9]{24}$`) but no integration has it. */
export const UNKNOWN_INTEGRATION = 'c000000000000000000000000';

export async function startTestSandbox(): Promise<{ sandbox: Sandbox; credentials: InboxCredentials }> {
	// One sandbox "minute" lasts 20 ms, so delayed deliveries arrive within a test.
	const sandbox = await startSandbox({ minuteMs: 20 });
	return { sandbox, credentials: { baseUrl: sandbox.baseUrl, apiToken: DEMO.token } };
}

export interface TriggerParameterInput {
	integrationId?: string;
	integrationMode?: 'list' | 'id';
	events?: string[];
	transferType?: string;
	delayMinutes?: number;
	extraHeaders?: Array<{ key: string; value: string }>;
	/** typeVersion 3's Simplify; default false here (the full item most tests inspect) */
	simplify?: boolean;
	/**
	 * typeVersion 4's One Execution per Message; default false here: most tests deliver one payload
	 * several times to look at how it is received (the option has its own tests, once-per-message)
	 */
	oncePerMessage?: boolean;
}

/** The node's parameters as the editor stores them. */
export function triggerParameters(input: TriggerParameterInput = {}): INodeParameters {
	const parameters: INodeParameters = {
		integrationId: {
			__rl: true,
			mode: input.integrationMode ?? 'list',
			value: input.integrationId ?? WHATSAPP,
		},
		events: input.events ?? ['MESSAGE_RECEIVED'],
		transferType: input.transferType ?? 'ALL',
		delayMinutes: input.delayMinutes ?? 0,
		simplify: input.simplify ?? false,
		oncePerMessage: input.oncePerMessage ?? false,
		options: {},
	};
	if (input.extraHeaders) {
		parameters.options = { extraHeaders: { header: input.extraHeaders } };
	}
	return parameters;
}

/** Webhooks the sandbox holds for one URL, oldest first. */
export function webhooksFor(sandbox: Sandbox, url: string): Webhook[] {
	return [...sandbox.state.webhooks.values()]
		.filter((webhook) => webhook.url === url)
		.sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : 0));
}

/** The value of a header of a registration (names compared case-insensitively). */
export function headerOf(webhook: Webhook, name: string): string | undefined {
	return webhook.headers.find((header) => header.key.toLowerCase() === name.toLowerCase())?.value;
}

/** The headers a registration makes the platform send, as a plain object. */
export function headersOf(webhook: Webhook): Record<string, string> {
	return Object.fromEntries(webhook.headers.map((header) => [header.key, header.value]));
}

/**
 * The secret a node's registrations must carry, computed here independently of the node's code:
 * HMAC-SHA256 keyed with the API token over a fixed label and the node's webhook ID.
 */
export function derivedSecretFor(webhookId: string, token: string = DEMO.token): string {
	return createHmac('sha256', token)
		.update(`n8n-nodes-conversation-inbox/trigger-webhook-secret/v1\nwebhook:${webhookId}`, 'utf8')
		.digest('hex');
}

/**
 * What static data keeps of a registration's secret (registrations.ts `secretHash`), computed here
 * independently of the node's code: SHA-256 of "tag", a line feed and the secret, hex.
 */
export function secretHashOf(secret: string): string {
	return createHash('sha256').update(`tag\n${secret}`, 'utf8').digest('hex');
}

export interface SandboxFixture {
	sandbox: Sandbox;
	credentials: InboxCredentials;
}

/** A sandbox for the tests of one file (started and stopped around them). */
export function sandboxForFile(): SandboxFixture {
	const fixture = {} as SandboxFixture;
	beforeAll(async () => {
		Object.assign(fixture, await startTestSandbox());
	});
	afterAll(async () => {
		await fixture.sandbox?.close();
	});
	return fixture;
}

export interface DeliveryFixture extends SandboxFixture {
	/** stands in for n8n's webhook endpoint; the sandbox delivers to it */
	endpoint: N8nWebhookEndpointStandIn;
}

/** A sandbox and a stand-in webhook endpoint for the tests of one file (started and stopped around them). */
export function sandboxAndEndpoint(): DeliveryFixture {
	const fixture = sandboxForFile() as DeliveryFixture;
	beforeAll(async () => {
		fixture.endpoint = await new N8nWebhookEndpointStandIn().start();
	});
	afterAll(async () => {
		await fixture.endpoint?.stop();
	});
	return fixture;
}

/** A trigger with a URL of its own, activated against the sandbox and receiving at the endpoint. */
export async function activatedTrigger(
	fixture: DeliveryFixture,
	parameters: INodeParameters,
	typeVersion?: number,
): Promise<TriggerInstance> {
	const instance = new TriggerInstance({
		parameters,
		credentials: fixture.credentials,
		webhookBaseUrl: fixture.endpoint.webhookBaseUrl,
		webhookId: randomUUID(),
		typeVersion,
	});
	await instance.activate();
	fixture.endpoint.attach(instance);
	return instance;
}

/** A phone number no seeded contact has, so the message is the contact's first. */
export function newPhoneNumber(): string {
	return `55119${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;
}

/** A POST /integration/webhook/create the sandbox received, as the 0.1.0 fixtures hold it. */
export interface RecordedRegistration {
	method: string;
	path: string;
	headers: Record<string, string>;
	body: Omit<Webhook, 'id' | 'createdAt' | 'updatedAt'>;
	status: number;
}

/** A delivery the platform sent for a 0.1.0 registration, and what 0.1.0's trigger emitted for it. */
export interface RecordedDelivery {
	delivery: Pick<Delivery, 'event' | 'url' | 'method' | 'headers' | 'query'> & { body: IDataObject };
	released: Array<{ statusCode: number; items: Array<{ json: IDataObject }> }>;
}

/**
 * The trigger as the released 0.1.0 left it, recorded once from its build and frozen
 * (test/fixtures/0.1.0/trigger/, made by scripts/tools/record-0.1.0-trigger.ts; SHA256SUMS guards them):
 * the node as the 0.1.0 editor saved it, its activation (webhook URL, the registrations the
 * sandbox received), its static data after activation and after deactivation, and deliveries.
 */
export interface ReleasedTrigger {
	node: { name: string; typeVersion: number; webhookId: string; parameters: INodeParameters };
	activation: { webhookBaseUrl: string; webhookUrl: string; registrationRequests: RecordedRegistration[] };
	staticData: {
		afterActivation: IDataObject;
		afterDeactivation: IDataObject;
		reactivationHookCalls: Array<{ method: string; hook: string; result: boolean }>;
	};
	deliveries: RecordedDelivery[];
}

const RELEASED_FIXTURES = join(__dirname, '..', 'fixtures', '0.1.0', 'trigger');

/** The frozen 0.1.0 fixtures of one released typeVersion (1 or 2). */
export function releasedTrigger(typeVersion: 1 | 2): ReleasedTrigger {
	const part = <T>(name: string): T =>
		JSON.parse(readFileSync(join(RELEASED_FIXTURES, `v${typeVersion}.${name}.json`), 'utf8')) as T;
	return {
		node: part('node'),
		activation: part('activation'),
		staticData: part('static-data'),
		deliveries: part('deliveries'),
	};
}
