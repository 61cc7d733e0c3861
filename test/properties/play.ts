/* eslint-disable -- development tooling, not shipped: n8n's node rules (eslint.config.mjs, n8n-node lint) are for nodes/ and credentials/ */
/**
 * Plays a generated world (world.ts) against the sandbox: Tag → Create over every execution's
 * items through n8n-core's WorkflowExecute (Retry On Fail, On Error, cancel), all executions at once
 * on one credential, the API's answers scripted per item and receipt. Returns what the sandbox
 * received and what n8n gave back, for the invariants (invariants.ts).
 */
import { getEventListeners } from 'node:events';

import type { IDataObject, INodeExecutionData, IRun } from 'n8n-workflow';

import { forgetPaces } from '../../nodes/shared/pace';
import { NODE_NAME, startExecution, type Execution } from '../helpers/workflow-execute';
import type { RecordedRequest, Sandbox, ScriptedAnswer } from '../sandbox';
import type { RetryAfterForm, Step, World } from './world';

export const CREATE_PATH = '/v2/tag/create';

/** The tag name of an item: it names the item at the API. */
export const itemName = (execution: number, item: number): string => `e${execution}-i${item}`;

export const nameOf = (request: RecordedRequest): string | undefined => {
	const name = (request.body as { name?: unknown } | undefined)?.name;
	return typeof name === 'string' ? name : undefined;
};

/** One input item's result in n8n's output. */
export interface ItemResult {
	item: number;
	/** output 1 (the error output) or an item carrying `error` */
	failed: boolean;
	json: IDataObject;
}

export interface ExecutionResult {
	/** undefined: it did not end within the bound */
	status?: IRun['status'];
	items: ItemResult[];
	/** the node's error when it stopped the workflow */
	error?: { text: string; itemIndex?: number };
	/** the receipt count (`seq`) at which the cancel was made */
	cancelledAtSeq?: number;
	/** ms from the cancel until the execution ended (undefined: not cancelled, or it did not end) */
	endedAfterCancelMs?: number;
	/** abort listeners left on the execution's signal once it ended */
	listenersLeft: number;
}

export interface Observation {
	/** every write the API received, in arrival order */
	received: RecordedRequest[];
	executions: ExecutionResult[];
	/** ms from the start until every execution ended, or undefined when one did not within the bound */
	tookMs?: number;
	boundMs: number;
	/** uncaught exceptions and unhandled rejections while the world was played */
	uncaught: string[];
	/** timers still pending once the API had answered everything, above those pending before */
	timersLeft: number;
}

/** The longest the node may wait on one Retry-After form (whole seconds up to the 60 s ceiling; beyond it not at all). */
function waitOf(form: RetryAfterForm | `${number}` | undefined): number {
	if (form === 'date+1s') return 2000;
	if (form !== undefined && /^\d+$/.test(form)) return Number(form) <= 60 ? Number(form) * 1000 : 0;
	// absent, a decimal, negative, garbage, a past date or one beyond JavaScript's: the backoff, or at most the decimal
	return 500;
}

function stepMs(step: Step, latencyMs: number): number {
	return latencyMs + step.latencyMs + (step.kind === 'refuse' ? waitOf(step.retryAfter) : 0);
}

/**
 * The time within which every item must have ended, from the settings: each try of Retry On Fail
 * may meet every scripted answer of the world (their latency and Retry-After in full, one after the
 * other, as if one held all the others) and every item's own request once more at the sandbox's
 * latency and n8n's preparation; a rate limit adds its 429 waits; plus a fixed allowance for n8n
 * and the machine (2 cores shared with other jobs).
 */
export function boundOf(world: World): number {
	const tries = Math.max(...world.executions.map((e) => (e.settings.retryOnFail ? e.settings.maxTries : 1)));
	const scripted = world.scripts.reduce((sum, script) => sum + script.steps.reduce((s, step) => s + stepMs(step, world.latencyMs), 0), 0);
	const items = world.executions.reduce((sum, e) => sum + e.items, 0);
	// At least 10 requests in flight (pace.ts starts there): the items' own requests in rounds.
	const own = Math.ceil(items / 10) * (world.latencyMs + 20);
	const limited = world.rateLimit ? Math.ceil(items / world.rateLimit.perSecond) * 1000 + 3 * 1000 : 0;
	// n8n prepares every item before its request leaves (about 15 ms an item here, twice in a slow moment).
	// Never above 45 s: a wait the node would end early (a cancel) must not hide a stuck run.
	return Math.min(45_000, 4000 + tries * (scripted + items * 30 + own + limited));
}

function retryAfterValue(form: RetryAfterForm | `${number}` | undefined): string | undefined {
	if (form === 'date+1s') return new Date(Date.now() + 1000).toUTCString();
	if (form === 'date-past') return 'Wed, 21 Oct 2015 07:28:00 GMT';
	// a date JavaScript cannot hold (issue 42, Build 6)
	if (form === 'date-beyond') return 'Sat, 13 Sep 275760 00:00:01 GMT';
	return form;
}

function scripted(step: Step): ScriptedAnswer {
	switch (step.kind) {
		case 'refuse':
			return { latencyMs: step.latencyMs, answer: { status: step.status, body: step.body, retryAfter: retryAfterValue(step.retryAfter) } };
		case 'reset':
			return { latencyMs: step.latencyMs, answer: 'reset' };
		case 'done':
			return { latencyMs: step.latencyMs, carriedOut: true, answer: { status: step.status, body: step.body } };
		default:
			return { latencyMs: step.latencyMs, carriedOut: true, answer: 'reset' };
	}
}

const pendingTimers = (): number => process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;

/** Resolves once `check` holds (looked at every 5 ms) or `withinMs` passed; says which. */
async function settle(check: () => boolean, withinMs: number): Promise<boolean> {
	const until = performance.now() + withinMs;
	while (!check()) {
		if (performance.now() > until) return false;
		await new Promise((resolve) => setTimeout(resolve, 5));
	}
	return true;
}

function resultsOf(run: IRun): Pick<ExecutionResult, 'items' | 'error'> {
	const task = run.data.resultData.runData[NODE_NAME]?.at(-1);
	const outputs = (task?.data?.main ?? []) as Array<INodeExecutionData[] | null>;
	const items: ItemResult[] = [];
	outputs.forEach((output, index) => {
		for (const entry of output ?? []) {
			const paired = Array.isArray(entry.pairedItem) ? entry.pairedItem[0] : entry.pairedItem;
			const item = typeof paired === 'object' && paired !== null ? paired.item : Number(paired);
			items.push({ item, failed: index === 1 || entry.json.error !== undefined, json: entry.json });
		}
	});
	const error = (task?.error ?? run.data.resultData.error) as { message?: string; description?: string | null; context?: { itemIndex?: number } } | undefined;
	return {
		items,
		...(error && { error: { text: `${error.message ?? ''}\n${error.description ?? ''}`, itemIndex: error.context?.itemIndex } }),
	};
}

/** n8n never gives two executions one id: each world's executions get new ones. */
let worldsPlayed = 0;

export async function play(sandbox: Sandbox, world: World): Promise<Observation> {
	worldsPlayed++;
	sandbox.reset();
	forgetPaces();
	sandbox.setLatency(world.latencyMs);
	if (world.rateLimit) sandbox.setRateLimit(world.rateLimit);
	const boundMs = boundOf(world);
	const timersBefore = pendingTimers();
	const uncaught: string[] = [];
	const onUncaught = (error: unknown): void => void uncaught.push(String((error as Error)?.stack ?? error));
	process.on('uncaughtException', onUncaught);
	process.on('unhandledRejection', onUncaught);

	const realNow = Date.now.bind(Date);
	let clockOffset = 0;
	const clock = jest.spyOn(Date, 'now').mockImplementation(() => realNow() + clockOffset);

	const steps = new Map(world.scripts.map((script) => [itemName(script.execution, script.item), script.steps]));
	const receipts = new Map<string, number>();
	const writesOf = new Map<number, number>();
	const executions: Execution[] = [];
	const cancelledAt = new Map<number, number>();
	const cancelMoment = new Map<number, number>();
	const endMoment = new Map<number, number>();
	let writes = 0;
	sandbox.answerWith = (request) => {
		const name = request.path === CREATE_PATH ? nameOf(request) : undefined;
		if (name === undefined) return undefined;
		writes++;
		if (world.clockStep && writes === world.clockStep.afterRequests) clockOffset += world.clockStep.deltaMs;
		const execution = Number(/^e(\d+)-/.exec(name)?.[1]);
		const count = (writesOf.get(execution) ?? 0) + 1;
		writesOf.set(execution, count);
		const plan = world.executions[execution];
		if (plan?.cancelAfter === count && !cancelledAt.has(execution)) {
			cancelledAt.set(execution, request.seq);
			cancelMoment.set(execution, performance.now());
			executions[execution].cancel();
		}
		const receipt = receipts.get(name) ?? 0;
		receipts.set(name, receipt + 1);
		const step = steps.get(name)?.[receipt];
		return step && scripted(step);
	};

	const started = performance.now();
	try {
		world.executions.forEach((plan, index) => {
			executions.push(
				startExecution({
					parameters: { resource: 'tag', operation: 'create', name: '={{ $json.name }}' },
					items: Array.from({ length: plan.items }, (_, item) => ({ name: itemName(index, item) })),
					credentials: { baseUrl: sandbox.baseUrl, apiToken: sandbox.token },
					settings: plan.settings,
					executionId: `property-${worldsPlayed}-${index}`,
				}),
			);
		});
		const runs: Array<IRun | undefined> = world.executions.map(() => undefined);
		const all = Promise.all(
			executions.map(async (execution, index) => {
				runs[index] = await execution.done;
				endMoment.set(index, performance.now());
			}),
		);
		let deadline: NodeJS.Timeout | undefined;
		const ended = await Promise.race([all.then(() => true), new Promise<boolean>((resolve) => (deadline = setTimeout(() => resolve(false), boundMs)))]);
		clearTimeout(deadline);
		const tookMs = ended ? performance.now() - started : undefined;
		if (!ended) {
			// Stuck: cancel what is left, so that the next world starts clean.
			for (const execution of executions) execution.cancel();
			await settle(() => runs.every((run) => run !== undefined), 5000);
		}
		// Everything the node sent has been answered, and its timers have fired or been cleared.
		await settle(() => sandbox.inFlight === 0 && pendingTimers() <= timersBefore, 2000);
		return {
			received: sandbox.requests.filter((request) => request.path === CREATE_PATH),
			executions: executions.map((execution, index) => {
				const run = runs[index];
				return {
					status: ended ? run?.status : undefined,
					...(run ? resultsOf(run) : { items: [] }),
					...(cancelledAt.has(index) && { cancelledAtSeq: cancelledAt.get(index) }),
					...(cancelMoment.has(index) && endMoment.has(index) && { endedAfterCancelMs: (endMoment.get(index) ?? 0) - (cancelMoment.get(index) ?? 0) }),
					listenersLeft: getEventListeners(execution.signal, 'abort').length,
				};
			}),
			tookMs,
			boundMs,
			uncaught,
			timersLeft: Math.max(0, pendingTimers() - timersBefore),
		};
	} finally {
		clock.mockRestore();
		process.off('uncaughtException', onUncaught);
		process.off('unhandledRejection', onUncaught);
		sandbox.answerWith = undefined;
	}
}
