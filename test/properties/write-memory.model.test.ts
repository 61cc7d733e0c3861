/* eslint-disable -- development tooling, not shipped: n8n's node rules (eslint.config.mjs, n8n-node lint) are for nodes/ and credentials/ */
/**
 * Model-based test of the memory of writes (writes.ts; issue 35, Build 6a; issue 42, Build 9):
 * fast-check generates sequences of commands — first tries of executions of 1 to 100 000 writes
 * (some spread over more time than any bound), interleaved; refusals and unknown outcomes; n8n's
 * Retry On Fail re-asking every item of a run; writes held on the wire, whose try has ended (n8n no
 * longer awaits it: the write outlives it); later tries that overlap a held write (they ask while it
 * is on the wire, each ready to send it with an outcome of its own); clock advances past every
 * bound (a fake monotonic clock) — and runs each against writes.ts and a model of what it promises:
 * - a write accepted (or of unknown outcome) is never sent again in its node run, while that run is
 *   retriable (less than `runIdleMs` since its last activity, or a write on the wire);
 * - a refused write is sent again by the retry; when tries overlap on it, by exactly ONE of them
 *   (the first to look), and the others get that send's outcome (or, refused again, the next sends);
 * - the answers held never exceed `maxAnswers`; every fact of a live run is held.
 * What reaches the API through the real request path (timeouts with the request still open, 429
 * without Retry-After, the cap on requests open) is the second model, request-life.model.test.ts.
 * The answers bound is lowered (limits.maxAnswers) so that generated runs cross it; the idle bound
 * is the shipped one. CI: the fixed seed below, FC_RUNS cases; FC_SEED / FC_RUNS repeat or explore.
 */
import fc from 'fast-check';

import type { WriteOutcome } from '../../nodes/shared/writes';
import { forgetAllWrites, heldWrites, limits, memoryTime, SHIPPED_LIMITS, writeOnce } from '../../nodes/shared/writes';

const SHIPPED_TIME = { ...memoryTime };

const SEED = Number(process.env.FC_SEED ?? 35_2026);
const RUNS = Number(process.env.FC_RUNS ?? 40);
const IDLE = SHIPPED_LIMITS.runIdleMs;
const MAX_ANSWERS = 500;

type Kind = 'accepted' | 'unknown' | 'notDone';
const EXECUTIONS = ['e1', 'e2', 'e3'] as const;
type Execution = (typeof EXECUTIONS)[number];

interface ModelRun {
	lastActive: number;
	pending: number;
	/** item → how its write ended (refused ones are not here) */
	done: Map<number, Exclude<Kind, 'notDone'>>;
	/** item → how many times it was sent */
	sends: Map<number, number>;
	items: number;
}

interface Model {
	now: number;
	runs: Map<Execution, ModelRun>;
}

interface Real {
	now: number;
	/** a write held on the wire: resolve it with its outcome */
	held: Map<Execution, { item: number; release: (kind: Kind) => Promise<void>; overlapping: Overlapping[] }>;
}

/** A later try asking for a held write while it is on the wire: the outcome it would send, how often it sent, and its answer. */
interface Overlapping {
	kind: Kind;
	sends: number;
	result: Promise<Awaited<ReturnType<typeof writeOnce>>>;
}

const scopeOf = (execution: Execution, item: number) => ({ execution, node: 'node', run: 0, item });
const sentOf = (item: number) => ({ method: 'POST', url: '/tag/create', body: { name: `tag ${item}` } });
const outcomeOf = (kind: Kind, item: number): WriteOutcome =>
	kind === 'accepted'
		? { kind, result: { ok: true, value: { item } } }
		: { kind, error: new Error(`${kind} ${item}`) };

/** What the memory does when a write comes: idle runs (no write on the wire) are dropped. */
function dropIdle(model: Model): void {
	for (const [execution, run] of model.runs) {
		if (run.pending === 0 && run.lastActive + IDLE <= model.now) model.runs.delete(execution);
	}
}

function runOf(model: Model, execution: Execution): ModelRun {
	let run = model.runs.get(execution);
	if (run === undefined) {
		run = { lastActive: model.now, pending: 0, done: new Map(), sends: new Map(), items: 0 };
		model.runs.set(execution, run);
	}
	run.lastActive = model.now;
	return run;
}

/**
 * One write asked of the memory at the model's time: checks that it is sent exactly when the model
 * says it may be, and records how it ended.
 */
async function ask(model: Model, real: Real, execution: Execution, item: number, kind: Kind): Promise<void> {
	dropIdle(model);
	const run = runOf(model, execution);
	const earlier = run.done.get(item);
	let sent = 0;
	real.now = model.now;
	const result = await writeOnce(scopeOf(execution, item), sentOf(item), async () => {
		sent++;
		return outcomeOf(kind, item);
	});
	if (earlier !== undefined) {
		// Done, or maybe done, on an earlier try of this run: never sent again.
		if (sent !== 0 || !('earlier' in result)) throw new Error(`${execution} item ${item} (${earlier}) was sent again`);
		if (result.earlier.kind !== earlier) throw new Error(`${execution} item ${item}: ${result.earlier.kind} from memory, was ${earlier}`);
		return;
	}
	if (sent !== 1 || !('sent' in result)) throw new Error(`${execution} item ${item} (not done) was not sent (${sent})`);
	run.sends.set(item, (run.sends.get(item) ?? 0) + 1);
	if (kind !== 'notDone') run.done.set(item, kind);
}

function checkHeld(model: Model): void {
	const held = heldWrites();
	if (held.answers > MAX_ANSWERS) throw new Error(`${held.answers} answers held, bound ${MAX_ANSWERS}`);
	const facts = [...model.runs.values()].reduce((sum, run) => sum + run.done.size, 0);
	// The memory may still hold runs the model dropped (it drops on the next write); never fewer facts.
	if (held.facts < facts) throw new Error(`${held.facts} facts held, ${facts} writes done in live runs`);
}

/** A first try: `count` new items of the execution, each ending as `kinds` says (cyclically). */
class FirstTry implements fc.AsyncCommand<Model, Real> {
	/** `spacing`: ms between two writes (a run at the API's pace can last longer than any bound) */
	constructor(readonly execution: Execution, readonly count: number, readonly kinds: Kind[], readonly spacing: number) {}
	check(model: Model) {
		return !(model.runs.get(this.execution)?.pending);
	}
	async run(model: Model, real: Real) {
		const start = model.runs.get(this.execution)?.items ?? 0;
		for (let index = 0; index < this.count; index++) {
			if (index > 0) {
				model.now += this.spacing;
				real.now += this.spacing;
			}
			await ask(model, real, this.execution, start + index, this.kinds[index % this.kinds.length]);
		}
		runOf(model, this.execution).items = start + this.count;
		checkHeld(model);
	}
	toString() {
		return `FirstTry(${this.execution}, ${this.count}, [${this.kinds.join(',')}], ${this.spacing})`;
	}
}

/** n8n's Retry On Fail: every item of the run asked again; what is sent now is accepted. */
class Retry implements fc.AsyncCommand<Model, Real> {
	constructor(readonly execution: Execution) {}
	check(model: Model) {
		const run = model.runs.get(this.execution);
		return run !== undefined && run.pending === 0;
	}
	async run(model: Model, real: Real) {
		const items = model.runs.get(this.execution)?.items ?? 0;
		for (let item = 0; item < items; item++) await ask(model, real, this.execution, item, 'accepted');
		checkHeld(model);
	}
	toString() {
		return `Retry(${this.execution})`;
	}
}

/** One more write of the execution, held on the wire until Release. */
class Hold implements fc.AsyncCommand<Model, Real> {
	constructor(readonly execution: Execution) {}
	check(model: Model) {
		return !(model.runs.get(this.execution)?.pending);
	}
	async run(model: Model, real: Real) {
		dropIdle(model);
		const run = runOf(model, this.execution);
		const item = run.items++;
		run.pending = 1;
		let resolve: (kind: Kind) => void = () => undefined;
		// The try that sent it is over at once (n8n does not await it): only the memory holds the write.
		const result = writeOnce(scopeOf(this.execution, item), sentOf(item), async () => outcomeOf(await new Promise<Kind>((r) => (resolve = r)), item));
		real.held.set(this.execution, {
			item,
			overlapping: [],
			release: async (kind) => {
				resolve(kind);
				await result;
			},
		});
	}
	toString() {
		return `Hold(${this.execution})`;
	}
}

class Release implements fc.AsyncCommand<Model, Real> {
	constructor(readonly execution: Execution, readonly kind: Kind) {}
	check(model: Model) {
		return model.runs.get(this.execution)?.pending === 1;
	}
	async run(model: Model, real: Real) {
		const held = real.held.get(this.execution);
		if (held === undefined) throw new Error('nothing held');
		real.held.delete(this.execution);
		real.now = model.now;
		await held.release(this.kind);
		// The tries that waited on it, in the order they asked: while the write ends "not done", the
		// next one sends it (once); the others learn the outcome.
		let outcome = this.kind;
		let expectedSends = 1;
		for (const [index, waiter] of held.overlapping.entries()) {
			const result = await waiter.result;
			const sends = outcome === 'notDone' ? 1 : 0;
			if (waiter.sends !== sends) throw new Error(`${this.execution} item ${held.item}: overlapping try ${index} sent ${waiter.sends} times after "${outcome}", expected ${sends}`);
			if (sends === 1) {
				if (!('sent' in result)) throw new Error('the try that sent it did not own it');
				outcome = waiter.kind;
				expectedSends++;
			} else if (!('earlier' in result) || result.earlier.kind !== outcome) {
				throw new Error(`${this.execution} item ${held.item}: overlapping try ${index} did not get "${outcome}"`);
			}
		}
		// Each try that looked at the memory (asking for the write again) released the idle runs.
		if (held.overlapping.length > 0) dropIdle(model);
		const run = runOf(model, this.execution);
		run.pending = 0;
		run.sends.set(held.item, expectedSends);
		if (outcome !== 'notDone') run.done.set(held.item, outcome);
		checkHeld(model);
	}
	toString() {
		return `Release(${this.execution}, ${this.kind})`;
	}
}

/**
 * Later tries of the run (n8n's Retry On Fail, started while RoutingNode left the held write
 * unawaited) ask for the held write while it is on the wire; each would send it with its own outcome.
 */
class Overlap implements fc.AsyncCommand<Model, Real> {
	constructor(readonly execution: Execution, readonly kinds: Kind[]) {}
	check(model: Model) {
		return model.runs.get(this.execution)?.pending === 1;
	}
	async run(model: Model, real: Real) {
		const held = real.held.get(this.execution);
		if (held === undefined) throw new Error('nothing held');
		// Asking looks at the memory: idle runs are released, this one is active now.
		dropIdle(model);
		runOf(model, this.execution);
		real.now = model.now;
		for (const kind of this.kinds) {
			const waiter: Overlapping = { kind, sends: 0, result: Promise.resolve({ earlier: { kind: 'unknown' } }) };
			waiter.result = writeOnce(scopeOf(this.execution, held.item), sentOf(held.item), async () => {
				waiter.sends++;
				return outcomeOf(kind, held.item);
			});
			held.overlapping.push(waiter);
		}
	}
	toString() {
		return `Overlap(${this.execution}, [${this.kinds.join(',')}])`;
	}
}

/** Hold, Overlap and Release in one go: a write whose try ended, later tries on it, then its outcome. */
class OverlappedWrite implements fc.AsyncCommand<Model, Real> {
	constructor(readonly execution: Execution, readonly kinds: Kind[], readonly kind: Kind) {}
	check(model: Model) {
		return !(model.runs.get(this.execution)?.pending);
	}
	async run(model: Model, real: Real) {
		await new Hold(this.execution).run(model, real);
		await new Overlap(this.execution, this.kinds).run(model, real);
		await new Release(this.execution, this.kind).run(model, real);
	}
	toString() {
		return `OverlappedWrite(${this.execution}, [${this.kinds.join(',')}], ${this.kind})`;
	}
}

/** The monotonic clock moves on: up to twice the idle bound, often just below or at it. */
class Advance implements fc.AsyncCommand<Model, Real> {
	constructor(readonly ms: number) {}
	check() {
		return true;
	}
	async run(model: Model, real: Real) {
		model.now += this.ms;
		real.now += this.ms;
	}
	toString() {
		return `Advance(${this.ms})`;
	}
}

const execution = fc.constantFrom(...EXECUTIONS);
const kind = fc.constantFrom<Kind>('accepted', 'unknown', 'notDone');
/** Mostly small runs; now and then one of up to 100 000 writes. */
const count = fc.oneof({ weight: 8, arbitrary: fc.integer({ min: 1, max: 40 }) }, { weight: 1, arbitrary: fc.integer({ min: 1, max: 100_000 }) });
/** Mostly steps just under, at and over the idle bound (where the runs live or die), or small. */
const advance = fc
	.oneof({ weight: 1, arbitrary: fc.integer({ min: 0, max: 2 * IDLE }) }, { weight: 3, arbitrary: fc.constantFrom(IDLE / 2, IDLE - 1, IDLE, IDLE + 1, 1, 5_000) })
	.map((ms) => new Advance(ms));
const commands = [
	fc
		.tuple(execution, count, fc.array(kind, { minLength: 1, maxLength: 4 }), fc.constantFrom(0, 0, 1, 1_000, IDLE / 3, IDLE - 1))
		.map(([e, n, kinds, spacing]) => new FirstTry(e, n, kinds, spacing)),
	execution.map((e) => new Retry(e)),
	// Held writes, the tries that overlap them and their outcome: weighted up (each twice), so that
	// most runs hold, overlap and release a write.
	...[1, 2].map(() => execution.map((e) => new Hold(e))),
	...[1, 2].map(() => fc.tuple(execution, fc.array(kind, { minLength: 1, maxLength: 4 })).map(([e, kinds]) => new Overlap(e, kinds))),
	...[1, 2].map(() => fc.tuple(execution, kind).map(([e, k]) => new Release(e, k))),
	fc.tuple(execution, fc.array(kind, { minLength: 1, maxLength: 4 }), kind).map(([e, kinds, k]) => new OverlappedWrite(e, kinds, k)),
	advance,
	advance,
];

beforeAll(() => {
	limits.maxAnswers = MAX_ANSWERS;
});
afterAll(() => {
	Object.assign(limits, SHIPPED_LIMITS);
	Object.assign(memoryTime, SHIPPED_TIME);
	forgetAllWrites();
});

test(`write memory model: an accepted write is never sent twice in its retriable run (seed ${SEED}, ${RUNS} runs; FC_SEED / FC_RUNS)`, async () => {
	console.log(`write-memory model seed ${SEED}, ${RUNS} runs (FC_SEED=${SEED} FC_RUNS=${RUNS} to repeat)`);
	await fc.assert(
		fc.asyncProperty(fc.commands(commands, { maxCommands: 30, size: 'medium' }), async (cmds) => {
			forgetAllWrites();
			const real = { now: 1_000_000, held: new Map() } as Real;
			memoryTime.now = () => real.now;
			const setup = () => ({ model: { now: 1_000_000, runs: new Map() } as Model, real });
			await fc.asyncModelRun(setup, cmds);
		}),
		{ seed: SEED, numRuns: RUNS },
	);
}, 600_000);
