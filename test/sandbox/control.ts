/* eslint-disable -- development tooling, not shipped: n8n's node rules (eslint.config.mjs, n8n-node lint) are for nodes/ and credentials/ */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiError, badRequest } from './errors';
import { parseFault, type ActiveFault } from './faults';
import type { Hold, HoldFilter } from './holds';
import type { Variants } from './variants';
import { parseJson, readBody, sendJson } from './http';
import { parseSeedOptions, type SeedOptions } from './seed';
import type { RecordedRequest } from './server';
import type { InServiceMessage, SimulatedMessage, Simulator } from './simulate';
import type { SandboxState } from './state';
import { Fields, isPlainObject } from './validation';
import { webhookView } from './views';
import type { Delivery, DeliverySwitches } from './webhooks';

/** Control endpoints (no auth, not recorded): how tests and demos drive the sandbox over HTTP. */
export const CONTROL_ENDPOINTS = [
	'GET    /_sandbox/health',
	'POST   /_sandbox/reset                        optional body: {contactsOnBigTag, templates, chats, messagesPerChat}',
	'GET    /_sandbox/requests                     recorded /v2 requests',
	'DELETE /_sandbox/requests',
	'POST   /_sandbox/requests/wait                {count, timeoutMs?}: answers once that many /v2 requests are recorded',
	'POST   /_sandbox/holds                        hold matching /v2 requests until released: {method?, path?, match?, query?, skip?}',
	'GET    /_sandbox/holds',
	'POST   /_sandbox/holds/wait                   {id, count, timeoutMs?}: answers once that hold holds that many',
	'POST   /_sandbox/holds/release                {id?}: that hold, or all',
	'POST   /_sandbox/faults                       a fault or an array: {kind, method?, path?, match?, status?, retryAfterSeconds?, retryAfterAsDate?, message?, body?, delayMs?, skip?, times?, every?}',
	'GET    /_sandbox/faults',
	'POST   /_sandbox/variants                     answer as an API that differs from the node\'s assumptions (test/sandbox/variants.ts); {} = none',
	'GET    /_sandbox/variants',
	'DELETE /_sandbox/faults',
	'POST   /_sandbox/latency                      {ms}',
	'GET    /_sandbox/state',
	'GET    /_sandbox/webhooks',
	'GET    /_sandbox/deliveries',
	'DELETE /_sandbox/deliveries',
	'POST   /_sandbox/delivery-switches            redeliver and reshape (test/sandbox/webhooks.ts): {duplicate?: {afterMs}, retrySlow?: {slowerThanMs}, kindsApartMs?, messageIdField?, timestamp?}; {} = once',
	'GET    /_sandbox/delivery-switches',
	'POST   /_sandbox/simulate/message             {integrationId, phoneNumber, direction, text, transferType?, firstMessage?, name?}',
	'POST   /_sandbox/simulate/message-in-service  {chatInternalId, text, direction?, transferType?}',
	'POST   /_sandbox/simulate/connection          {integrationId, status}',
	'POST   /_sandbox/simulate/service-continuity  {integrationId, chatInternalId?}',
];

/** What the control endpoints need from the running sandbox. */
export interface ControlTarget {
	readonly url: string;
	readonly baseUrl: string;
	readonly state: SandboxState;
	readonly requests: RecordedRequest[];
	readonly deliveries: Delivery[];
	readonly simulate: Simulator;
	setDeliverySwitches(switches: DeliverySwitches): void;
	readonly deliverySwitches: DeliverySwitches;
	reset(seed?: SeedOptions): void;
	clearRequests(): void;
	clearDeliveries(): void;
	addFault(fault: Record<string, unknown>): void;
	clearFaults(): void;
	listFaults(): ActiveFault[];
	setLatency(ms: number): void;
	readonly latencyMs: number;
	setVariants(variants: Variants): void;
	readonly variants: Variants;
	hold(filter: HoldFilter): Hold;
	getHold(id: number): Hold | undefined;
	listHolds(): Array<Record<string, unknown>>;
	releaseHolds(): void;
	waitForRequests(count: number, timeoutMs?: number): Promise<RecordedRequest[]>;
}

const objectBody = (body: unknown): Record<string, unknown> => {
	if (!isPlainObject(body)) throw badRequest('request body must be a JSON object');
	return body;
};

/** JSON cannot carry Infinity; show it as the string the endpoint accepts. */
const faultsView = (faults: ActiveFault[]) =>
	faults.map((f) => ({ ...f, fault: { ...f.fault, times: f.fault.times === Infinity ? 'Infinity' : f.fault.times } }));

function findHold(target: ControlTarget, id: number): Hold {
	const hold = target.getHold(id);
	if (!hold) throw new ApiError(404, `no hold with id ${id}`);
	return hold;
}

async function dispatch(target: ControlTarget, route: string, body: unknown): Promise<Record<string, unknown>> {
	switch (route) {
		case 'GET /health':
			return { status: 'ok', url: target.url, baseUrl: target.baseUrl };
		case 'POST /reset':
			target.reset(parseSeedOptions(body));
			return { counts: target.state.snapshot().counts };
		case 'GET /requests':
			return { requests: target.requests };
		case 'POST /requests/wait': {
			const f = new Fields(objectBody(body));
			const requests = await target.waitForRequests(f.integer('count', { required: true, min: 0 }), f.integer('timeoutMs', { min: 1, max: 600_000 }));
			return { requests: requests.length };
		}
		case 'POST /holds': {
			const hold = target.hold(objectBody(body ?? {}) as HoldFilter);
			return { hold: { id: hold.id, filter: hold.filter } };
		}
		case 'GET /holds':
			return { holds: target.listHolds() };
		case 'POST /holds/wait': {
			const f = new Fields(objectBody(body));
			const hold = findHold(target, f.integer('id', { required: true, min: 1 }));
			const held = await hold.waitFor(f.integer('count', { required: true, min: 0 }), f.integer('timeoutMs', { min: 1, max: 600_000 }));
			return { held: held.length };
		}
		case 'POST /holds/release': {
			const id = new Fields(objectBody(body ?? {})).integer('id', { min: 1 });
			if (id === undefined) target.releaseHolds();
			else findHold(target, id).release();
			return { holds: target.listHolds() };
		}
		case 'DELETE /requests':
			target.clearRequests();
			return {};
		case 'POST /faults': {
			const list: unknown[] = Array.isArray(body) ? body : [body];
			// All or nothing: check every fault before adding any.
			list.forEach((f, i) => parseFault(f, Array.isArray(body) ? `faults[${i}]` : 'fault'));
			list.forEach((f) => target.addFault(objectBody(f)));
			return { faults: faultsView(target.listFaults()) };
		}
		case 'POST /variants':
			target.setVariants(body as Variants);
			return { variants: target.variants };
		case 'GET /variants':
			return { variants: target.variants };
		case 'GET /faults':
			return { faults: faultsView(target.listFaults()) };
		case 'DELETE /faults':
			target.clearFaults();
			return {};
		case 'POST /latency':
			target.setLatency(new Fields(objectBody(body)).integer('ms', { required: true, min: 0, max: 600_000 }));
			return { latencyMs: target.latencyMs };
		case 'GET /state':
			return { state: target.state.snapshot() };
		case 'GET /webhooks':
			return { webhooks: [...target.state.webhooks.values()].map(webhookView) };
		case 'GET /deliveries':
			return { deliveries: target.deliveries };
		case 'DELETE /deliveries':
			target.clearDeliveries();
			return {};
		case 'POST /delivery-switches':
			target.setDeliverySwitches((body ?? {}) as DeliverySwitches);
			return { switches: target.deliverySwitches };
		case 'GET /delivery-switches':
			return { switches: target.deliverySwitches };
		// The simulator checks its input itself (400/404 naming the field).
		case 'POST /simulate/message':
			return { deliveries: await target.simulate.message(objectBody(body) as unknown as SimulatedMessage) };
		case 'POST /simulate/message-in-service':
			return { deliveries: await target.simulate.messageInService(objectBody(body) as unknown as InServiceMessage) };
		case 'POST /simulate/connection': {
			const f = new Fields(objectBody(body));
			return { deliveries: await target.simulate.connectionStatus(f.id('integrationId', { required: true }), f.string('status', { required: true })) };
		}
		case 'POST /simulate/service-continuity':
			return { deliveries: await target.simulate.serviceContinuity(objectBody(body) as unknown as { integrationId: string }) };
		default:
			throw new ApiError(404, `unknown control endpoint ${route}; available: ${CONTROL_ENDPOINTS.map((e) => e.split(/\s{2,}/)[0]).join('; ')}`);
	}
}

export async function handleControl(target: ControlTarget, req: IncomingMessage, res: ServerResponse, method: string, path: string): Promise<void> {
	try {
		let body: unknown;
		if (method !== 'GET') {
			const raw = await readBody(req);
			if (raw.trim() !== '') {
				const parsed = parseJson(raw);
				if (!parsed.ok) throw badRequest('request body must be valid JSON');
				body = parsed.value;
			}
		}
		const result = await dispatch(target, `${method} ${path.slice('/_sandbox'.length) || '/'}`, body);
		sendJson(res, 200, { success: true, ...result });
	} catch (error) {
		if (!(error instanceof ApiError)) throw error;
		sendJson(res, error.status, { success: false, message: error.message });
	}
}
