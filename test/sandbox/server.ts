/* eslint-disable -- development tooling, not shipped: n8n's node rules (eslint.config.mjs, n8n-node lint) are for nodes/ and credentials/ */
import { timingSafeEqual } from 'node:crypto';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { automationRoutes } from './api-automation';
import { inboxRoutes } from './api-inbox';
import { integrationRoutes } from './api-integrations';
import { tagRoutes } from './api-tags';
import { templateRoutes } from './api-templates';
import { userRoutes } from './api-users';
import { handleControl, type ControlTarget } from './control';
import { ApiError, DEFAULT_ERROR_MESSAGE, badRequest } from './errors';
import { FaultInjector, type ActiveFault, type Fault } from './faults';
import { Holds, type Hold, type HoldFilter } from './holds';
import { flatHeaders, parseJson, readBody, sendJson } from './http';
import type { Effects, Route } from './routes';
import { RateLimiter, type RateLimit } from './rateLimit';
import { resetConnection, writeScripted, type ScriptedAnswer } from './script';
import { parseSeedOptions, seedState, type SeedOptions } from './seed';
import { createSimulator, emitConnectionStatus, type Simulator } from './simulate';
import type { SandboxState } from './state';
import { Timers } from './timers';
import { Fields, isPlainObject, queryFields, type Source } from './validation';
import { parseVariants, readRequest, type Variants } from './variants';
import { writeAnswer } from './shapes';
import { parseDeliverySwitches, WebhookDispatcher, type Delivery, type DeliverySwitches } from './webhooks';

export type { SeedOptions } from './seed';
export type { Fault, FaultKind } from './faults';
export type { Hold, HoldFilter } from './holds';
export type { Delivery } from './webhooks';
export type { InServiceMessage, SimulatedMessage, Simulator } from './simulate';
export type { SandboxState } from './state';
export type { Variants } from './variants';
export type { DeliverySwitches } from './webhooks';
export type { RateLimit } from './rateLimit';

export interface SandboxOptions {
	/** 0 (default) = a random free port */
	port?: number;
	/** default '127.0.0.1' */
	host?: string;
	/** bearer token the API accepts; default 'sandbox-token' */
	token?: string;
	/** further bearer tokens it accepts (two credentials on one API: each its own rate-limit bucket) */
	otherTokens?: string[];
	/** sizes for the seeded data */
	seed?: SeedOptions;
	/** added to every /v2 request (default 0) */
	latencyMs?: number;
	/** real ms per "minute" of webhook delayMinutes (default 60000; tests use e.g. 20) */
	minuteMs?: number;
	/** ms after which a DELETING integration is removed (default 2000) */
	asyncDeleteMs?: number;
	/** timeout of one webhook delivery (default 5000) */
	deliveryTimeoutMs?: number;
	/** no request log on stdout; default true (the CLI turns logging on) */
	quiet?: boolean;
	/** answer as an API that differs from the node's assumptions (variants.ts); default none */
	variants?: Variants;
	/** the API's rate limit per token (rateLimit.ts); default none: each caller chooses (SAAS_RATE_LIMIT) */
	rateLimit?: RateLimit;
}

export interface RecordedRequest {
	method: string;
	/** without the query, e.g. '/v2/tag/create' */
	path: string;
	query: Record<string, string>;
	/** lower-case names */
	headers: Record<string, string>;
	/** parsed JSON; the raw text when it is not JSON; undefined when empty */
	body: unknown;
	/** status answered; 0 while pending or when the connection was reset */
	status: number;
	/** epoch ms of arrival (for figures only: tests order by `seq`/`answeredSeq`) */
	at: number;
	/** epoch ms when the answer was sent (or the connection dropped); undefined while pending */
	answeredAt?: number;
	/**
	 * The sandbox's event counter at arrival. Arrivals and answers share one counter, so
	 * `b.seq > a.answeredSeq` means b arrived after a's answer was written: an order that does not
	 * depend on the clock. Counts on across clearRequests() and reset().
	 */
	seq: number;
	/** the event counter when the answer was written (or the connection dropped); undefined while pending */
	answeredSeq?: number;
	/** the handler carried it out (answered 2xx), whatever the client then got (script.ts) */
	carriedOut?: boolean;
}

export interface Sandbox {
	/** 'http://127.0.0.1:PORT' */
	url: string;
	/** url + '/v2' */
	baseUrl: string;
	token: string;
	port: number;
	/** every /v2 request, in arrival order (control endpoints are not recorded) */
	requests: RecordedRequest[];
	clearRequests(): void;
	/** /v2 requests being handled right now (arrived, not yet answered) */
	readonly inFlight: number;
	/** the most /v2 requests handled at the same time since the start, the last reset or clearRequests() */
	readonly maxInFlight: number;
	/** Holds the /v2 requests matching `filter` (holds.ts) until the returned hold is released. */
	hold(filter?: HoldFilter): Hold;
	/** Resolves once `until(requests)` is true (checked on every arrival and answer), or once at
	 *  least that many requests are recorded; rejects after `timeoutMs` (default 10 000). */
	waitForRequests(until: number | ((requests: RecordedRequest[]) => boolean), timeoutMs?: number): Promise<RecordedRequest[]>;
	/** Test hook: runs for every /v2 request after the latency, before faults and the handler
	 *  (e.g. to change the state between two pages). Cleared by reset(). */
	beforeHandle: ((request: RecordedRequest, state: SandboxState) => void) | undefined;
	/** Test hook: the scripted answer to a /v2 request (script.ts), or undefined to answer as usual;
	 *  asked after beforeHandle, before faults. Cleared by reset(). */
	answerWith: ((request: RecordedRequest) => ScriptedAnswer | undefined) | undefined;
	addFault(fault: Fault): void;
	clearFaults(): void;
	setLatency(ms: number): void;
	/** The rate limit per token from now on (undefined: none); reset() goes back to the one given at start. */
	setRateLimit(limit: RateLimit | undefined): void;
	/** the limit, its 429 count and manual refill (rateLimit.ts) */
	readonly rateLimit: RateLimiter;
	/** Switches the variants (variants.ts) on; `{}` = the node's assumptions. Cleared by reset(). */
	setVariants(variants: Variants): void;
	readonly variants: Variants;
	/** Back to the seeded state (sizes given here override the ones given at start); request log,
	 *  deliveries, faults and pending timers cleared, holds released. Latency is kept. */
	reset(seed?: SeedOptions): void;
	/** the live state, for assertions */
	readonly state: SandboxState;
	/** webhook deliveries attempted, in completion order */
	deliveries: Delivery[];
	/** How the platform delivers beyond once per registration (webhooks.ts); `{}` = once. Cleared by reset(). */
	setDeliverySwitches(switches: DeliverySwitches): void;
	readonly deliverySwitches: DeliverySwitches;
	simulate: Simulator;
	/** Resolves once at least `count` deliveries are recorded (default timeout 5000 ms). */
	waitForDeliveries(count: number, timeoutMs?: number): Promise<Delivery[]>;
	/** Stops cleanly: pending timers cleared, in-flight deliveries aborted, sockets destroyed. */
	close(): Promise<void>;
}

type ResolvedOptions = Required<Omit<SandboxOptions, 'seed' | 'variants' | 'rateLimit'>> & { seed: SeedOptions; variants: Variants; rateLimit?: RateLimit };

const API_ROUTES: Route[] = [...tagRoutes, ...automationRoutes, ...integrationRoutes, ...templateRoutes, ...inboxRoutes, ...userRoutes];
const NON_JSON_PAGE = '<!DOCTYPE html><html><head><title>502 Bad Gateway</title></head><body><h1>Bad Gateway</h1><p>upstream sent an invalid response</p></body></html>';

const errorBody = (message: string) => ({ success: false, message });

/** null when the bearer token is right; otherwise why not (never echoing the token). */
function authError(header: string | undefined, tokens: string[]): string | null {
	if (!header) return 'missing Authorization header (expected "Bearer <token>")';
	const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
	if (!match) return 'the Authorization header must use the Bearer scheme';
	const given = Buffer.from(match[1]);
	const known = tokens.some((token) => {
		const expected = Buffer.from(token);
		return given.length === expected.length && timingSafeEqual(given, expected);
	});
	return known ? null : 'invalid API token';
}

/** A fault's custom error text; `{authorization}` becomes the request's Authorization header. */
function faultMessage(fault: Fault, req: IncomingMessage): string | undefined {
	return fault.message?.split('{authorization}').join(req.headers.authorization ?? '');
}

function checkMs(name: string, value: number): number {
	if (!Number.isFinite(value) || value < 0) throw badRequest(`${name} must be a number >= 0`);
	return value;
}

class SandboxServer implements Sandbox, ControlTarget {
	readonly requests: RecordedRequest[] = [];
	readonly deliveries: Delivery[] = [];
	readonly simulate: Simulator;
	readonly token: string;
	url = '';
	baseUrl = '';
	port = 0;
	latencyMs: number;
	variants: Variants;
	inFlight = 0;
	maxInFlight = 0;
	/** an arrival whose peak is not taken yet (handleApi) */
	private peakPending = false;

	/** The most requests open at once, once an arrival's turn is over (handleApi). */
	private takePeak(): void {
		if (!this.peakPending) return;
		this.peakPending = false;
		this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
	}
	beforeHandle: Sandbox['beforeHandle'];
	answerWith: Sandbox['answerWith'];
	readonly rateLimit: RateLimiter;

	private current: SandboxState;
	private readonly faults = new FaultInjector();
	private readonly holds = new Holds();
	/** arrivals and answers, counted (RecordedRequest.seq) */
	private events = 0;
	private readonly requestWatchers = new Set<() => void>();
	/** latency and slow-fault sleeps */
	private readonly requestTimers = new Timers();
	/** delayed deliveries and asynchronous deletions: they belong to a state and die with it */
	private readonly stateTimers = new Timers();
	private readonly closing = new AbortController();
	private readonly dispatcher: WebhookDispatcher;
	private readonly routes = new Map(API_ROUTES.map((r) => [`${r.method} ${r.path}`, r]));
	private readonly paths = new Set(API_ROUTES.map((r) => r.path));
	private readonly effects: Effects;
	private closed = false;

	constructor(
		private readonly options: ResolvedOptions,
		private readonly server: http.Server,
	) {
		this.token = options.token;
		this.latencyMs = options.latencyMs;
		this.variants = options.variants;
		this.rateLimit = new RateLimiter(options.rateLimit);
		this.current = seedState(options.seed);
		this.dispatcher = new WebhookDispatcher({
			state: () => this.current,
			deliveries: this.deliveries,
			timers: this.stateTimers,
			minuteMs: options.minuteMs,
			timeoutMs: options.deliveryTimeoutMs,
			signal: this.closing.signal,
		});
		this.simulate = createSimulator(() => this.current, this.dispatcher);
		this.effects = {
			scheduleRemoval: (id) =>
				this.stateTimers.set(() => {
					if (this.current.integrations.get(id)?.connectionStatus === 'DELETING') this.current.removeIntegration(id);
				}, options.asyncDeleteMs),
			connectionChanged: (integration, previous) => void emitConnectionStatus(this.dispatcher, integration, previous),
		};
	}

	get state(): SandboxState {
		return this.current;
	}

	listening(port: number): void {
		const host = ['0.0.0.0', '::', ''].includes(this.options.host) ? '127.0.0.1' : this.options.host;
		this.port = port;
		this.url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
		this.baseUrl = `${this.url}/v2`;
	}

	clearRequests(): void {
		this.requests.length = 0;
		this.maxInFlight = this.inFlight;
	}

	clearDeliveries(): void {
		this.deliveries.length = 0;
	}

	/** Checked like a fault posted to /_sandbox/faults (400 ApiError when malformed). */
	addFault(fault: Fault | Record<string, unknown>): void {
		this.faults.add(fault);
	}

	clearFaults(): void {
		this.faults.clear();
	}

	listFaults(): ActiveFault[] {
		return this.faults.list();
	}

	hold(filter: HoldFilter = {}): Hold {
		return this.holds.add(filter);
	}

	getHold(id: number): Hold | undefined {
		return this.holds.get(id);
	}

	listHolds(): Array<Record<string, unknown>> {
		return this.holds.list();
	}

	releaseHolds(): void {
		this.holds.releaseAll();
	}

	waitForRequests(until: number | ((requests: RecordedRequest[]) => boolean), timeoutMs = 10_000): Promise<RecordedRequest[]> {
		const done = typeof until === 'number' ? () => this.requests.length >= until : () => until(this.requests);
		if (done()) return Promise.resolve(this.requests);
		return new Promise((resolve, reject) => {
			const check = (): void => {
				if (!done()) return;
				this.requestWatchers.delete(check);
				clearTimeout(timer);
				resolve(this.requests);
			};
			const timer = setTimeout(() => {
				this.requestWatchers.delete(check);
				reject(new Error(`waitForRequests: not reached after ${timeoutMs} ms (${this.requests.length} requests recorded)`));
			}, timeoutMs);
			this.requestWatchers.add(check);
		});
	}

	private notifyWatchers(): void {
		for (const check of [...this.requestWatchers]) check();
	}

	/** Called in the same synchronous step that writes the answer (or drops the connection), so a
	 *  request the client sends because of that answer always gets a higher `seq`. */
	private answered(record: RecordedRequest): void {
		if (record.answeredSeq === undefined) {
			record.answeredAt = Date.now();
			record.answeredSeq = ++this.events;
		}
		this.notifyWatchers();
	}

	setDeliverySwitches(switches: DeliverySwitches): void {
		this.dispatcher.switches = parseDeliverySwitches(switches);
	}

	get deliverySwitches(): DeliverySwitches {
		return this.dispatcher.switches;
	}

	setVariants(variants: Variants): void {
		this.variants = parseVariants(variants);
	}

	setRateLimit(limit: RateLimit | undefined): void {
		this.rateLimit.set(limit);
	}

	setLatency(ms: number): void {
		this.latencyMs = checkMs('latencyMs', ms);
	}

	reset(seed?: SeedOptions): void {
		// Sizes not given keep the ones the sandbox was started with (e.g. the CLI's --contacts).
		const sizes = { ...this.options.seed, ...parseSeedOptions(seed) };
		this.stateTimers.clear();
		this.releaseHolds();
		this.current = seedState(sizes);
		this.clearRequests();
		this.clearDeliveries();
		this.clearFaults();
		this.variants = this.options.variants;
		this.rateLimit.set(this.options.rateLimit);
		this.beforeHandle = undefined;
		this.answerWith = undefined;
		this.dispatcher.switches = {};
	}

	waitForDeliveries(count: number, timeoutMs = 5000): Promise<Delivery[]> {
		return this.dispatcher.waitFor(count, timeoutMs);
	}

	async close(): Promise<void> {
		if (this.closed) return;
		this.closed = true;
		this.releaseHolds();
		this.requestTimers.clear();
		this.stateTimers.clear();
		this.closing.abort();
		await new Promise<void>((resolve) => {
			this.server.close(() => resolve());
			this.server.closeAllConnections();
		});
	}

	async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
		const started = Date.now();
		const url = new URL(req.url ?? '/', 'http://sandbox');
		const path = url.pathname.replace(/\/+$/, '') || '/';
		const method = (req.method ?? 'GET').toUpperCase();
		if (!this.options.quiet) {
			res.on('close', () => console.log(`${method} ${url.pathname}${url.search} → ${res.headersSent ? res.statusCode : 'reset'} ${Date.now() - started} ms`));
		}
		try {
			if (path === '/_sandbox' || path.startsWith('/_sandbox/')) await handleControl(this, req, res, method, path);
			else if (path === '/v2' || path.startsWith('/v2/')) await this.handleApi(req, res, method, path, url.searchParams);
			else sendJson(res, 404, errorBody(`unknown path ${path}: the API is under /v2, the controls under /_sandbox`));
		} catch (error) {
			if (!this.options.quiet) console.error(error);
			sendJson(res, 500, errorBody(DEFAULT_ERROR_MESSAGE));
		}
	}

	/** record → hold → latency → script → fault → auth → route → JSON body → handler. */
	private async handleApi(req: IncomingMessage, res: ServerResponse, method: string, path: string, params: URLSearchParams): Promise<void> {
		const record: RecordedRequest = { method, path, query: Object.fromEntries(params.entries()), headers: flatHeaders(req), body: undefined, status: 0, at: Date.now(), seq: ++this.events };
		this.requests.push(record);
		// Open from its arrival until the client closed the connection or the answer is done. A
		// client's close is read from the socket ('end', or 'error' for a reset) in the same turn of
		// the server's loop as a request that came after it on another connection, in either order:
		// so the peak an arrival makes is taken once that turn's events are in (setImmediate), and a
		// request the client had closed by then is not counted with it. An answer ending first takes
		// the pending peak before it leaves (it was open at the same time as the arrival).
		this.inFlight++;
		this.peakPending = true;
		setImmediate(() => this.takePeak());
		let open = true;
		const ended = (answered: boolean): void => {
			if (!open) return;
			if (answered) this.takePeak();
			open = false;
			this.inFlight--;
			req.socket.off('end', closedByClient);
			req.socket.off('error', closedByClient);
		};
		const closedByClient = (): void => ended(false);
		req.socket.once('end', closedByClient);
		req.socket.once('error', closedByClient);
		this.notifyWatchers();
		res.once('close', () => {
			ended(true);
			this.answered(record);
		});
		let scripted: ScriptedAnswer | undefined;
		// 'reset-after' (faults.ts): handled as usual, then no answer.
		let resetAfter = false;
		// 'busy-after' (faults.ts): answered as usual, then the loop held this long.
		let busyAfterMs = 0;
		const send = (status: number, body: unknown, headers?: Record<string, string>): void => {
			if (status >= 200 && status < 300) record.carriedOut = true;
			if (resetAfter) {
				record.status = 0;
				req.socket.destroy();
				this.answered(record);
				return;
			}
			// A script's answer to a request it let the handler carry out (script.ts).
			if (scripted?.carriedOut && record.carriedOut && scripted.answer !== 'handler') {
				// 'hang': nothing is written (watchers see it carried out); answered when the connection closes.
				if (scripted.answer === 'hang') return this.notifyWatchers();
				record.status = scripted.answer === 'reset' ? 0 : scripted.answer.status;
				if (scripted.answer === 'reset') resetConnection(req);
				else writeScripted(res, scripted.answer, body);
				this.answered(record);
				return;
			}
			record.status = status;
			// Variant: an API whose every error says only its default text.
			if (status >= 400 && this.variants.defaultErrorText) body = errorBody(DEFAULT_ERROR_MESSAGE);
			record.status = writeAnswer(res, this.variants.shapes, path, status, body, headers);
			this.answered(record);
			if (busyAfterMs > 0) holdLoop(busyAfterMs);
		};

		let raw: string;
		try {
			raw = await readBody(req);
		} catch (error) {
			if (error instanceof ApiError) return send(error.status, errorBody(error.message));
			throw error;
		}
		const parsed = raw.trim() === '' ? undefined : parseJson(raw);
		record.body = parsed === undefined ? undefined : parsed.ok ? parsed.value : raw;

		const content = `${[...params.values()].join('\n')}\n${raw}`;
		await this.holds.pass(record, content, params);
		// Released by close(): the connection is gone, nothing more to do.
		if (this.closed) return;
		await this.requestTimers.sleep(this.latencyMs);
		this.beforeHandle?.(record, this.current);
		scripted = this.answerWith?.(record);
		if (scripted?.latencyMs) await this.requestTimers.sleep(scripted.latencyMs);
		if (this.closed) return;
		if (scripted && !scripted.carriedOut && scripted.answer !== 'handler') {
			if (scripted.answer === 'hang') return;
			record.status = scripted.answer === 'reset' ? 0 : scripted.answer.status;
			if (scripted.answer === 'reset') resetConnection(req);
			else writeScripted(res, scripted.answer);
			this.answered(record);
			return;
		}
		const fault = this.faults.take(method, path, content, params);
		if (fault?.kind === 'slow') await this.requestTimers.sleep(fault.delayMs ?? 1000);
		else if (fault?.kind === 'reset-after') resetAfter = true;
		else if (fault?.kind === 'busy-after') busyAfterMs = fault.delayMs ?? 1000;
		else if (fault) return this.applyFault(fault, req, res, record);

		const denied = authError(req.headers.authorization, [this.token, ...this.options.otherTokens]);
		if (denied) return send(401, errorBody(denied));
		const refusal = this.rateLimit.take(req.headers.authorization ?? '');
		if (refusal) return send(429, errorBody('Too many requests, retry later'), refusal);
		const route = this.routes.get(`${method} ${path}`);
		if (!route) {
			if (this.paths.has(path)) return send(405, errorBody(`${method} is not allowed on ${path}`));
			return send(404, errorBody(`unknown endpoint ${method} ${path}`));
		}
		let body: Source = {};
		if (method !== 'GET' && parsed !== undefined) {
			if (!parsed.ok) return send(400, errorBody('request body must be valid JSON'));
			if (!isPlainObject(parsed.value)) return send(400, errorBody('request body must be a JSON object'));
			body = parsed.value;
		}
		try {
			const read = readRequest(this.variants, path, params, body);
			const result = await route.handler({ state: this.current, body: new Fields(read.body), query: queryFields(read.params), effects: this.effects, variants: this.variants });
			send(200, result);
		} catch (error) {
			if (!(error instanceof ApiError)) throw error;
			send(error.status, errorBody(error.message));
		}
	}

	private applyFault(fault: Fault, req: IncomingMessage, res: ServerResponse, record: RecordedRequest): void {
		this.writeFault(fault, req, res, record);
		this.answered(record);
	}

	private writeFault(fault: Fault, req: IncomingMessage, res: ServerResponse, record: RecordedRequest): void {
		switch (fault.kind) {
			case 'status': {
				const status = fault.status ?? 500;
				const retryAfter = fault.retryAfterSeconds ?? (status === 429 ? 1 : undefined);
				const retryAfterValue = retryAfter === undefined ? undefined : fault.retryAfterAsDate ? new Date(Date.now() + retryAfter * 1000).toUTCString() : String(retryAfter);
				record.status = status;
				writeAnswer(res, this.variants.shapes, record.path, status, errorBody(faultMessage(fault, req) ?? (status === 429 ? 'Too many requests, retry later' : DEFAULT_ERROR_MESSAGE)), retryAfterValue === undefined ? {} : { 'retry-after': retryAfterValue });
				return;
			}
			case 'json':
				record.status = fault.status ?? 200;
				// `{authorization}` anywhere in the body: an API (or a gateway) that echoes the token.
				sendJson(res, record.status, JSON.parse(JSON.stringify(fault.body ?? null).split('{authorization}').join(req.headers.authorization ?? '')));
				return;
			case 'non-json':
				record.status = 200;
				res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
				res.end(NON_JSON_PAGE);
				return;
			case 'success-false':
				record.status = 200;
				writeAnswer(res, this.variants.shapes, record.path, 200, errorBody(faultMessage(fault, req) ?? DEFAULT_ERROR_MESSAGE));
				return;
			default:
				record.status = 0;
				req.socket.destroy();
		}
	}
}

/** Keeps this process's event loop busy for `ms`: nothing else runs meanwhile (no timer, no socket read). */
function holdLoop(ms: number): void {
	const until = performance.now() + ms;
	while (performance.now() < until) {
		// busy on purpose (the 'busy-after' fault)
	}
}

function resolveOptions(options: SandboxOptions): ResolvedOptions {
	const resolved: ResolvedOptions = {
		port: options.port ?? 0,
		host: options.host ?? '127.0.0.1',
		token: options.token ?? 'sandbox-token',
		otherTokens: options.otherTokens ?? [],
		seed: parseSeedOptions(options.seed),
		latencyMs: checkMs('latencyMs', options.latencyMs ?? 0),
		minuteMs: checkMs('minuteMs', options.minuteMs ?? 60_000),
		asyncDeleteMs: checkMs('asyncDeleteMs', options.asyncDeleteMs ?? 2000),
		deliveryTimeoutMs: checkMs('deliveryTimeoutMs', options.deliveryTimeoutMs ?? 5000),
		quiet: options.quiet ?? true,
		variants: parseVariants(options.variants),
		rateLimit: options.rateLimit,
	};
	if (!Number.isInteger(resolved.port) || resolved.port < 0 || resolved.port > 65535) throw badRequest('port must be an integer between 0 and 65535');
	for (const token of [resolved.token, ...resolved.otherTokens]) {
		if (token === '' || /\s/.test(token)) throw badRequest('token must be a non-empty string without spaces');
	}
	return resolved;
}

/** Starts the sandbox API server; resolves once it listens. */
export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
	const resolved = resolveOptions(options);
	const server = http.createServer();
	const sandbox = new SandboxServer(resolved, server);
	server.on('request', (req: IncomingMessage, res: ServerResponse) => void sandbox.handle(req, res));
	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen(resolved.port, resolved.host, () => {
			server.off('error', reject);
			resolve();
		});
	});
	sandbox.listening((server.address() as AddressInfo).port);
	return sandbox;
}
