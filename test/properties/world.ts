/**
 * Generated hostile worlds (issue 29, "Tests that generate the conditions"): what the API does with
 * each write and what comes back, how long it takes, what n8n's node settings are, when an
 * execution is cancelled, when the wall clock steps, and whether the API limits its rate. A world
 * is plain data, so a failing one prints as a value and can be pasted into a regression test.
 */
import fc from 'fast-check';

import type { NodeSettings } from '../helpers/workflow-execute';
import type { ScriptedBody } from '../sandbox';

/**
 * Retry-After as a real API or proxy sends it: absent, 0, a decimal, a huge wait, a negative one,
 * garbage, an HTTP date one second ahead (computed when the answer is written) or in the past.
 */
export const RETRY_AFTERS = ['0', '0.5', '1', '86400', '9999999999999', '-1', 'soon', 'date+1s', 'date-past', 'date-beyond'] as const;
export type RetryAfterForm = (typeof RETRY_AFTERS)[number];

/** What the API does with one receipt of a write, and what the client gets. */
export type Step =
	/** the API refuses without doing anything: an answer with this status */
	| { kind: 'refuse'; status: number; body: ScriptedBody; retryAfter?: RetryAfterForm | `${number}`; latencyMs: number }
	/** the connection drops once the request has arrived, nothing done */
	| { kind: 'reset'; latencyMs: number }
	/** the API carries it out, then answers with this status (a 2xx in various forms, or a 5xx of a proxy) */
	| { kind: 'done'; status: number; body: ScriptedBody; latencyMs: number }
	/** the API carries it out, then the connection drops before the answer */
	| { kind: 'doneThenReset'; latencyMs: number };

export interface ExecutionPlan {
	items: number;
	settings: Required<NodeSettings>;
	/** cancel this execution once this many of its writes have arrived at the API */
	cancelAfter?: number;
}

export interface World {
	executions: ExecutionPlan[];
	/** the answers to item `item` of execution `execution`: its 1st, 2nd … receipt; after them, the API's own answer */
	scripts: Array<{ execution: number; item: number; steps: Step[] }>;
	/** the sandbox's latency for every request */
	latencyMs: number;
	/** the wall clock (Date.now) steps by `deltaMs` when the API receives its `afterRequests`-th write */
	clockStep?: { afterRequests: number; deltaMs: number };
	/** the API's rate limit per token (the sandbox's token bucket) */
	rateLimit?: { perSecond: number; burst: number };
}

const latency = fc.integer({ min: 0, max: 40 });

const refuse: fc.Arbitrary<Step> = fc.oneof(
	fc.record({
		kind: fc.constant('refuse' as const),
		status: fc.constantFrom(429, 503),
		body: fc.constantFrom<ScriptedBody>('json', 'text', 'empty'),
		retryAfter: fc.option(fc.constantFrom(...RETRY_AFTERS), { nil: undefined }),
		latencyMs: latency,
	}),
	fc.record({
		kind: fc.constant('refuse' as const),
		status: fc.constantFrom(400, 401, 403, 404, 409, 422, 500, 502, 504),
		body: fc.constantFrom<ScriptedBody>('json', 'text', 'html', 'problem', 'empty'),
		latencyMs: latency,
	}),
);

const step: fc.Arbitrary<Step> = fc.oneof(
	{ weight: 4, arbitrary: refuse },
	{ weight: 1, arbitrary: fc.record({ kind: fc.constant('reset' as const), latencyMs: latency }) },
	{
		weight: 3,
		arbitrary: fc.oneof(
			fc.record({ kind: fc.constant('done' as const), status: fc.constantFrom(200, 201), body: fc.constantFrom<ScriptedBody>('handler', 'json', 'empty', 'html'), latencyMs: latency }),
			fc.record({ kind: fc.constant('done' as const), status: fc.constant(204), body: fc.constant<ScriptedBody>('empty'), latencyMs: latency }),
			fc.record({ kind: fc.constant('done' as const), status: fc.constantFrom(502, 504), body: fc.constantFrom<ScriptedBody>('html', 'json'), latencyMs: latency }),
		),
	},
	{ weight: 1, arbitrary: fc.record({ kind: fc.constant('doneThenReset' as const), latencyMs: latency }) },
);

const settings: fc.Arbitrary<Required<NodeSettings>> = fc.record({
	retryOnFail: fc.boolean(),
	maxTries: fc.integer({ min: 2, max: 5 }),
	// n8n reads 0 as 1000 ms; 1-10 ms keeps a case short and still waits between tries.
	waitBetweenTries: fc.integer({ min: 1, max: 10 }),
	onError: fc.constantFrom('stopWorkflow' as const, 'continueRegularOutput' as const, 'continueErrorOutput' as const),
});

/**
 * A world with 1 to 3 executions on one credential. `maxItems` bounds the items of an execution:
 * most worlds are small (1-12 items), one in six is large (up to `maxItems`).
 */
export function worldArbitrary(maxItems: number): fc.Arbitrary<World> {
	const items = maxItems <= 12 ? fc.integer({ min: 1, max: maxItems }) : fc.oneof({ weight: 5, arbitrary: fc.integer({ min: 1, max: 12 }) }, { weight: 1, arbitrary: fc.integer({ min: 13, max: maxItems }) });
	const execution: fc.Arbitrary<ExecutionPlan> = fc.record(
		{ items, settings, cancelAfter: fc.integer({ min: 1, max: 20 }) },
		{ requiredKeys: ['items', 'settings'] },
	);
	return fc
		.record(
			{
				executions: fc.array(execution, { minLength: 1, maxLength: 3 }),
				scripts: fc.array(fc.record({ execution: fc.nat(2), item: fc.nat(299), steps: fc.array(step, { minLength: 1, maxLength: 3 }) }), { maxLength: 6 }),
				latencyMs: fc.integer({ min: 0, max: 15 }),
				clockStep: fc.record({ afterRequests: fc.integer({ min: 1, max: 20 }), deltaMs: fc.constantFrom(-3_600_000, -5_000, 5_000, 3_600_000) }),
				rateLimit: fc.record({ perSecond: fc.integer({ min: 50, max: 400 }), burst: fc.integer({ min: 5, max: 40 }) }),
			},
			{ requiredKeys: ['executions', 'scripts', 'latencyMs'] },
		)
		.map((world) => {
			// Scripts address existing items only; the clock of the sandbox's rate limit is the same
			// Date.now, so a world steps the clock or limits the rate, not both.
			const scripts = world.scripts
				.filter((script) => script.execution < world.executions.length)
				.map((script) => ({ ...script, item: script.item % world.executions[script.execution].items }));
			const rest = world.clockStep ? { ...world, rateLimit: undefined } : world;
			return { ...rest, scripts } as World;
		});
}
