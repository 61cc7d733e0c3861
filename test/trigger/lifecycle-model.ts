/**
 * The model of the trigger's lifecycle and its commands, shared by lifecycle-model.test.ts (the
 * generated runs) and lifecycle-model-regressions.test.ts (the shrunk counterexamples, as plain
 * tests). Not a test file (jest runs *.test.ts only). What each command plays and which
 * invariants are checked: see lifecycle-model.test.ts.
 */
import fc from 'fast-check';
import { randomUUID } from 'node:crypto';
import type { IDataObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { startSandbox } from '../sandbox';
import { N8nWebhookEndpointStandIn, restartedN8n, TriggerInstance } from '../helpers/trigger-harness';
import type { Sandbox } from './setup';
import { DEMO, triggerParameters, webhooksFor, WHATSAPP } from './setup';

const REGISTER = '/v2/integration/webhook/create';
const TOKENS = [DEMO.token, 'rotated-token-model-1-abcdefgh', 'rotated-token-model-2-ijklmnop'];
const REFUSAL = 'the model refuses this event kind';

export type Kind = 'MESSAGE_RECEIVED' | 'MESSAGE_SENT' | 'CONNECTION_STATUS_UPDATE';
export const KINDS: Kind[] = ['MESSAGE_RECEIVED', 'MESSAGE_SENT', 'CONNECTION_STATUS_UPDATE'];
/** The settings a user activates with: a few event sets. */
export const EVENT_SETS: Kind[][] = [
	['MESSAGE_RECEIVED'],
	['MESSAGE_RECEIVED', 'CONNECTION_STATUS_UPDATE'],
	['MESSAGE_SENT', 'MESSAGE_RECEIVED'],
	['CONNECTION_STATUS_UPDATE', 'MESSAGE_SENT', 'MESSAGE_RECEIVED'],
];
export type Rule = 'saved-on-success' | 'saved-always';

/** What the model knows (never read from the node under test). */
export interface Model {
	rule: Rule;
	active: boolean;
	events: Kind[];
	token: number;
	/** kinds the API accepted in an activation whose static data n8n did not save */
	unsaved: Set<Kind>;
	/** per kind, how many restarts or updates came while `unsaved` held it (the uncovered case) */
	uncovered: Map<Kind, number>;
}

/** n8n and the platform, as the harness plays them. */
export interface Real {
	webhookId: string;
	url: string;
	nodeClass: ReturnType<typeof restartedN8n>;
	/** the workflow's static data as n8n last saved it */
	saved: IDataObject | undefined;
	/** the workflow as the active n8n holds it */
	instance?: TriggerInstance;
}

let sandbox: Sandbox;
let endpoint: N8nWebhookEndpointStandIn;

/** Starts the sandbox (accepting every token of TOKENS) and the endpoint around a test file. */
export function lifecycleWorld(): void {
	beforeAll(async () => {
		sandbox = await startSandbox({ token: TOKENS[0], otherTokens: TOKENS.slice(1), minuteMs: 20 });
		endpoint = await new N8nWebhookEndpointStandIn().start();
	});
	afterAll(async () => {
		await endpoint.stop();
		await sandbox.close();
	});
}

/** Runs `commands` from a fresh node (its own webhook ID, a new n8n process, nothing saved). */
export async function runLifecycle(rule: Rule, commands: Iterable<fc.AsyncCommand<Model, Real>>): Promise<void> {
	sandbox.reset();
	endpoint.detach();
	const webhookId = randomUUID();
	const real: Real = {
		webhookId,
		url: `${endpoint.webhookBaseUrl}/${webhookId}/webhook`,
		nodeClass: restartedN8n(),
		saved: undefined,
	};
	const model: Model = { rule, active: false, events: [], token: 0, unsaved: new Set(), uncovered: new Map() };
	await fc.asyncModelRun(() => ({ model, real }), commands);
}

function workflow(model: Model, real: Real, events: Kind[]): TriggerInstance {
	return new TriggerInstance({
		parameters: triggerParameters({ events }),
		credentials: { baseUrl: sandbox.baseUrl, apiToken: TOKENS[model.token] },
		webhookBaseUrl: endpoint.webhookBaseUrl,
		webhookId: real.webhookId,
		staticData: real.saved,
		nodeClass: real.nodeClass,
	});
}

function registeredKinds(real: Real): Kind[] {
	return webhooksFor(sandbox, real.url).map((webhook) => webhook.type as Kind);
}

/** Invariant 1: one registration per kind, except the uncovered case the model counted. */
function checkRegistrations(model: Model, real: Real): void {
	const kinds = registeredKinds(real);
	for (const kind of KINDS) {
		const count = kinds.filter((registered) => registered === kind).length;
		const allowed = 1 + (model.uncovered.get(kind) ?? 0);
		if (count > allowed) {
			throw new Error(`${kind} registered ${count} times (allowed ${allowed}: ${model.uncovered.get(kind) ?? 0} uncovered restart(s))`);
		}
	}
}

function uncoveredRestart(model: Model): void {
	for (const kind of model.unsaved) model.uncovered.set(kind, (model.uncovered.get(kind) ?? 0) + 1);
	model.unsaved.clear();
}

export class Activate implements fc.AsyncCommand<Model, Real> {
	constructor(
		readonly events: Kind[],
		readonly refused: Kind | undefined,
	) {}
	check(model: Readonly<Model>): boolean {
		return !model.active;
	}
	async run(model: Model, real: Real): Promise<void> {
		if (this.refused) {
			sandbox.addFault({ kind: 'status', status: 400, path: REGISTER, match: this.refused, times: Infinity, message: REFUSAL });
		}
		const before = registeredKinds(real);
		const instance = workflow(model, real, this.events);
		const outcome = await instance.activate().then(
			() => undefined,
			(error: unknown) => error,
		);
		sandbox.clearFaults();
		const accepted = registeredKinds(real).slice(before.length);
		if (outcome === undefined) {
			if (this.refused && this.events.includes(this.refused) && !before.includes(this.refused)) {
				throw new Error(`the refused ${this.refused} was never asked for, yet it was not registered before`);
			}
			real.saved = instance.persistedStaticData();
			real.instance = instance;
			endpoint.attach(instance);
			model.active = true;
			model.events = [...this.events];
			model.unsaved.clear();
		} else {
			if (!(outcome instanceof NodeApiError) || !String(outcome.description).includes(REFUSAL)) {
				throw new Error(`the activation error does not carry the API's refusal: ${String((outcome as Error).message)}`);
			}
			if (model.rule === 'saved-always') real.saved = instance.persistedStaticData();
			else for (const kind of accepted) model.unsaved.add(kind);
		}
		checkRegistrations(model, real);
	}
	toString(): string {
		return `activate(${this.events.join('+')}${this.refused ? `, API refuses ${this.refused}` : ''})`;
	}
}

export class Deactivate implements fc.AsyncCommand<Model, Real> {
	check(model: Readonly<Model>): boolean {
		return model.active;
	}
	async run(model: Model, real: Real): Promise<void> {
		await real.instance!.deactivate();
		endpoint.detach();
		real.instance = undefined;
		model.active = false;
		checkRegistrations(model, real);
	}
	toString(): string {
		return 'deactivate';
	}
}

export class RotateToken implements fc.AsyncCommand<Model, Real> {
	check(): boolean {
		return true;
	}
	async run(model: Model, real: Real): Promise<void> {
		model.token = (model.token + 1) % TOKENS.length;
		// A credential save re-activates nothing: the active workflow reads the new token from now on.
		if (model.active) {
			real.instance = workflow(model, real, model.events);
			endpoint.attach(real.instance);
		}
		await Promise.resolve();
	}
	toString(): string {
		return 'rotate the token';
	}
}

/** A restart of n8n, or an update of the package: the module loaded again, static data as saved. */
export class Restart implements fc.AsyncCommand<Model, Real> {
	constructor(readonly why: 'restart' | 'update') {}
	check(): boolean {
		return true;
	}
	async run(model: Model, real: Real): Promise<void> {
		uncoveredRestart(model);
		real.nodeClass = restartedN8n();
		if (model.active) {
			// n8n activates its active workflows at start ('init'), from the saved static data.
			const instance = workflow(model, real, model.events);
			await instance.activate();
			real.saved = instance.persistedStaticData();
			real.instance = instance;
			endpoint.attach(instance);
		}
		checkRegistrations(model, real);
	}
	toString(): string {
		return this.why === 'restart' ? 'restart n8n' : 'update the package';
	}
}

export class Deliver implements fc.AsyncCommand<Model, Real> {
	constructor(readonly kind: Kind) {}
	check(): boolean {
		return true;
	}
	async run(model: Model, real: Real): Promise<void> {
		const executionsBefore = endpoint.executions.length;
		const all =
			this.kind === 'CONNECTION_STATUS_UPDATE'
				? [
						...(await sandbox.simulate.connectionStatus(WHATSAPP, 'DISCONNECTED')),
						...(await sandbox.simulate.connectionStatus(WHATSAPP, 'CONNECTED')),
					]
				: await sandbox.simulate.message({
						integrationId: WHATSAPP,
						phoneNumber: DEMO.contacts.alice.phoneNumber,
						direction: this.kind === 'MESSAGE_RECEIVED' ? 'inbound' : 'outbound',
						text: 'model',
					});
		const deliveries = all.filter((delivery) => delivery.url === real.url && delivery.event === this.kind);
		const executions = endpoint.executions.length - executionsBefore;
		if (!model.active) {
			if (executions !== 0) throw new Error(`inactive workflow ran ${executions} time(s)`);
			return;
		}
		const refused = deliveries.filter((delivery) => delivery.status !== 200);
		if (refused.length > 0) throw new Error(`deliveries answered ${refused.map((delivery) => delivery.status).join(', ')}`);
		const selected = model.events.includes(this.kind);
		if (selected && deliveries.length === 0) throw new Error(`${this.kind} selected but nothing delivered`);
		const expected = selected ? deliveries.length : 0;
		if (executions !== expected) throw new Error(`${deliveries.length} deliveries of ${this.kind} ran the workflow ${executions} time(s), expected ${expected}`);
	}
	toString(): string {
		return `deliver ${this.kind}`;
	}
}

export class Forge implements fc.AsyncCommand<Model, Real> {
	constructor(readonly secret: string | undefined) {}
	check(): boolean {
		return true;
	}
	async run(model: Model, real: Real): Promise<void> {
		const executionsBefore = endpoint.executions.length;
		const headers: Record<string, string> = { 'content-type': 'application/json', 'x-inbox-event': 'MESSAGE_RECEIVED' };
		if (this.secret !== undefined) headers['x-inbox-webhook-secret'] = this.secret;
		const response = await fetch(real.url, { method: 'POST', headers, body: JSON.stringify({ event: 'MESSAGE_RECEIVED' }) });
		await response.text();
		const expected = model.active ? 401 : 404;
		if (response.status !== expected) throw new Error(`forged delivery answered ${response.status}, expected ${expected}`);
		if (endpoint.executions.length !== executionsBefore) throw new Error('a forged delivery ran the workflow');
	}
	toString(): string {
		return `forge(${this.secret === undefined ? 'no secret' : this.secret.slice(0, 8)})`;
	}
}
