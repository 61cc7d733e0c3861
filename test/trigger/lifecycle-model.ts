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
/** How the API answers a registration it carried out, when not 2xx: 502, or nothing (a reset). */
export type Unanswered = 502 | 'reset';
/** The names the user gives the node (n8n keys a node's static data by its name). */
export const NAMES = ['Conversation Inbox Trigger', 'Inbox events', 'Renamed trigger'];

/** What the model knows (never read from the node under test). */
export interface Model {
	rule: Rule;
	active: boolean;
	events: Kind[];
	token: number;
	/** the node's name now */
	name: string;
	/**
	 * registrations the platform holds from an activation whose static data n8n did not save (the
	 * node's process record alone knows them): the sandbox's ID, kind, the token they were made
	 * under, and whether the API answered it 502 or nothing (counted in `extra` already)
	 */
	unsaved: Array<{ id: string; kind: Kind; token: number; unanswered: boolean }>;
	/**
	 * registrations whose record a restart or update took (sandbox ID → token index): their
	 * deliveries carry the secret of that token, which the node can no longer know once the token
	 * changed; they may be refused (401), and never run the workflow
	 */
	lost: Map<string, number>;
	/**
	 * per kind, registrations beyond the first that the platform holds for the node's URL: one per
	 * restart or update while `unsaved` held the kind (its record lost), one per registration
	 * carried out but answered 5xx or not at all. Each may exist; none may run the workflow.
	 */
	extra: Map<Kind, number>;
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
	/** the node's name in the workflow n8n holds */
	name: string;
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
		name: NAMES[0],
	};
	const model: Model = { rule, active: false, events: [], token: 0, name: NAMES[0], unsaved: [], lost: new Map(), extra: new Map() };
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
		nodeName: real.name,
	});
}

function registered(real: Real) {
	return webhooksFor(sandbox, real.url);
}

function registeredKinds(real: Real): Kind[] {
	return webhooksFor(sandbox, real.url).map((webhook) => webhook.type as Kind);
}

/**
 * Invariant 1: one registration per kind, and one more for each one whose record n8n or the API
 * lost (the model counts them): nothing registered again that the node could have known.
 */
function checkRegistrations(model: Model, real: Real): void {
	const kinds = registeredKinds(real);
	for (const kind of KINDS) {
		const count = kinds.filter((registered) => registered === kind).length;
		const allowed = 1 + (model.extra.get(kind) ?? 0);
		if (count > allowed) {
			throw new Error(`${kind} registered ${count} times (allowed ${allowed}: ${model.extra.get(kind) ?? 0} whose record was lost)`);
		}
	}
}

const addExtra = (model: Model, kind: Kind): void => {
	model.extra.set(kind, (model.extra.get(kind) ?? 0) + 1);
};

/** n8n activates the workflow as it saved it (its static data, the node's name now), and saves it again. */
async function activateAsSaved(model: Model, real: Real): Promise<void> {
	const instance = workflow(model, real, model.events);
	await instance.activate();
	real.saved = instance.persistedStaticData();
	real.instance = instance;
	endpoint.attach(instance);
}

/**
 * A restart or update: what the platform holds from an unsaved activation is forgotten; what the
 * API accepted there is made again later (one more), what it answered 502 or nothing already
 * counted.
 */
function forgetUnsaved(model: Model): void {
	for (const { id, kind, token, unanswered } of model.unsaved) {
		if (!unanswered) addExtra(model, kind);
		model.lost.set(id, token);
	}
	model.unsaved = [];
}

export class Activate implements fc.AsyncCommand<Model, Real> {
	constructor(
		readonly events: Kind[],
		readonly refused: Kind | undefined,
		/** the first registration of this kind is answered 502 or not at all, carried out or not */
		readonly unanswered?: { kind: Kind; answer: Unanswered; carriedOut: boolean },
	) {}
	check(model: Readonly<Model>): boolean {
		return !model.active;
	}
	async run(model: Model, real: Real): Promise<void> {
		if (this.refused) {
			sandbox.addFault({ kind: 'status', status: 400, path: REGISTER, match: this.refused, times: Infinity, message: REFUSAL });
		}
		let unanswered: Kind | undefined;
		const { kind: lost, answer, carriedOut } = this.unanswered ?? {};
		// A kind the API refuses is not carried out (the fault wins over the script).
		if (lost !== undefined && answer !== undefined && lost !== this.refused) {
			sandbox.answerWith = (request) => {
				if (unanswered !== undefined || request.path !== REGISTER || (request.body as { type?: unknown }).type !== lost) return undefined;
				unanswered = lost;
				return { carriedOut, answer: answer === 'reset' ? 'reset' : { status: answer } };
			};
		}
		const before = registeredKinds(real);
		const known = new Set(registered(real).map((webhook) => webhook.id));
		const instance = workflow(model, real, this.events);
		const outcome = await instance.activate().then(
			() => undefined,
			(error: unknown) => error,
		);
		sandbox.clearFaults();
		sandbox.answerWith = undefined;
		const made = registered(real).filter((webhook) => !known.has(webhook.id));
		// The platform holds it, the node was told nothing it can trust: one that may double.
		if (unanswered !== undefined && carriedOut === true) addExtra(model, unanswered);
		if (outcome === undefined) {
			if (this.refused && this.events.includes(this.refused) && !before.includes(this.refused)) {
				throw new Error(`the refused ${this.refused} was never asked for, yet it was not registered before`);
			}
			real.saved = instance.persistedStaticData();
			real.instance = instance;
			endpoint.attach(instance);
			model.active = true;
			model.events = [...this.events];
			model.unsaved = [];
		} else {
			const expected = unanswered !== undefined ? 'may have registered it all the same' : REFUSAL;
			if (!(outcome instanceof NodeApiError) || !String(outcome.description).includes(expected)) {
				throw new Error(`the activation error does not say "${expected}": ${String((outcome as Error).message)}`);
			}
			if (model.rule === 'saved-always') real.saved = instance.persistedStaticData();
			else {
				for (const webhook of made) {
					const kind = webhook.type as Kind;
					model.unsaved.push({ id: webhook.id, kind, token: model.token, unanswered: kind === unanswered });
				}
			}
		}
		checkRegistrations(model, real);
	}
	toString(): string {
		const refused = this.refused ? `, API refuses ${this.refused}` : '';
		const made = this.unanswered?.carriedOut ? 'it made' : 'it did not make';
		const unanswered = this.unanswered ? `, API ${this.unanswered.answer === 'reset' ? 'never answers' : 'answers 502 to'} ${this.unanswered.kind} ${made}` : '';
		return `activate(${this.events.join('+')}${refused}${unanswered})`;
	}
}

/**
 * The user renames the node (and saves the workflow). n8n keys the node's static data by its name
 * and moves nothing. An active workflow is activated again with the new name (1.x re-activates a
 * saved active workflow; 2.x when it is published): its static data as saved.
 */
export class Rename implements fc.AsyncCommand<Model, Real> {
	constructor(readonly name: string) {}
	check(model: Readonly<Model>): boolean {
		return model.name !== this.name;
	}
	async run(model: Model, real: Real): Promise<void> {
		model.name = this.name;
		real.name = this.name;
		if (!model.active) return;
		await real.instance!.deactivate();
		await activateAsSaved(model, real);
		checkRegistrations(model, real);
	}
	toString(): string {
		return `rename to "${this.name}"`;
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
		forgetUnsaved(model);
		real.nodeClass = restartedN8n();
		// n8n activates its active workflows at start ('init'), from the saved static data.
		if (model.active) await activateAsSaved(model, real);
		checkRegistrations(model, real);
	}
	toString(): string {
		return this.why === 'restart' ? 'restart n8n' : 'update the package';
	}
}

/**
 * A real event on the platform. Invariants: every delivery to the node's URL is answered 200 while
 * active; each event runs the workflow exactly once when its kind is selected (never deaf, never
 * twice, however many registrations the platform holds for it), never when it is not or the
 * workflow is inactive.
 */
export class Deliver implements fc.AsyncCommand<Model, Real> {
	constructor(readonly kind: Kind) {}
	check(): boolean {
		return true;
	}
	async run(model: Model, real: Real): Promise<void> {
		const executionsBefore = endpoint.executions.length;
		const message = async () =>
			await sandbox.simulate.message({
				integrationId: WHATSAPP,
				phoneNumber: DEMO.contacts.alice.phoneNumber,
				direction: this.kind === 'MESSAGE_RECEIVED' ? 'inbound' : 'outbound',
				text: 'model',
			});
		// Two events for a connection status (away and back, so the line stays connected), one for a message.
		const all =
			this.kind === 'CONNECTION_STATUS_UPDATE'
				? [
						...(await sandbox.simulate.connectionStatus(WHATSAPP, 'DISCONNECTED')),
						...(await sandbox.simulate.connectionStatus(WHATSAPP, 'CONNECTED')),
					]
				: await message();
		const events = this.kind === 'CONNECTION_STATUS_UPDATE' ? 2 : 1;
		const deliveries = all.filter((delivery) => delivery.url === real.url && delivery.event === this.kind);
		const executions = endpoint.executions.length - executionsBefore;
		if (!model.active) {
			if (executions !== 0) throw new Error(`inactive workflow ran ${executions} time(s)`);
			return;
		}
		// Only a registration whose record was lost, made under another token, may be refused.
		const refused = deliveries.filter((delivery) => {
			const lostUnder = model.lost.get(delivery.webhookId);
			return delivery.status !== 200 && !(delivery.status === 401 && lostUnder !== undefined && lostUnder !== model.token);
		});
		if (refused.length > 0) throw new Error(`deliveries answered ${refused.map((delivery) => delivery.status).join(', ')}`);
		const selected = model.events.includes(this.kind);
		if (selected && deliveries.length < events) throw new Error(`${this.kind} selected but ${deliveries.length} deliveries for ${events} event(s)`);
		const expected = selected ? events : 0;
		if (executions !== expected) throw new Error(`${events} ${this.kind} event(s), ${deliveries.length} deliveries, ran the workflow ${executions} time(s), expected ${expected}`);
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
