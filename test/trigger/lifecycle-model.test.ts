/* eslint-disable -- development tooling, not shipped: n8n's node rules (eslint.config.mjs, n8n-node lint) are for nodes/ and credentials/ */
/**
 * Model-based test of the trigger's lifecycle (issue 35, Build 6(b)): fast-check `fc.commands`
 * drives n8n's part (activate, an activation the API refuses part-way, deactivate, rotate the API
 * token, restart n8n, update the package) and the platform's (a real event, a forged delivery)
 * against the sandbox, which never deletes a registration.
 *
 * n8n's static-data rule is chosen per run, the two n8n has:
 * - 'saved-on-success': 1.123.81, and 2.41.1 with N8N_USE_WORKFLOW_PUBLICATION_SERVICE=false
 *   (ActiveWorkflowManager.addWebhooks saves static data after the last webhook's create; a failure
 *   clears the webhooks and saves the static data it loads again from the database);
 * - 'saved-always': 2.41.1's default publication service, which saves it despite the failure.
 * Deactivation and a credential change save nothing new; a restart and an update of the package
 * (n8n loads the module again) keep what was saved and lose the node's process record (record.ts).
 *
 * Invariants, after every command:
 * - at most one registration per event kind (and fingerprint: the settings other than the events
 *   are fixed, so one fingerprint per kind) at the sandbox. The one exception, documented as not
 *   covered (README, docs/development.md): a registration the API accepted during a failed
 *   activation that n8n did not save, followed by a restart or an update before the next
 *   activation. The model counts those (`uncovered`) and allows one more registration per such
 *   case, nowhere else;
 * - every delivery of a real event for a selected kind is answered 200 and runs the workflow
 *   exactly once (so a token rotation never makes the trigger deaf); an active workflow selecting
 *   the kind receives at least one;
 * - every forged delivery is refused with 401 and runs nothing.
 *
 * The model and its commands: lifecycle-model.ts. Each shrunk counterexample found so far is a
 * plain test in lifecycle-model-regressions.test.ts.
 *
 * CI runs FC_RUNS (default 200) runs of up to 14 commands from the fixed seed FC_SEED (printed);
 * a red run prints seed and path: `FC_SEED=<seed> FC_PATH=<path>` replays it.
 */
import fc from 'fast-check';

import { Activate, Deactivate, Deliver, EVENT_SETS, Forge, KINDS, lifecycleWorld, Restart, RotateToken, runLifecycle } from './lifecycle-model';
import type { Rule } from './lifecycle-model';

const SEED = Number(process.env.FC_SEED ?? 35_2026);
const RUNS = Number(process.env.FC_RUNS ?? 200);
const PATH = process.env.FC_PATH;
const MAX_COMMANDS = 14;

lifecycleWorld();

const kind = fc.constantFrom(...KINDS);
const commands = [
	fc.tuple(fc.constantFrom(...EVENT_SETS), fc.option(kind, { nil: undefined, freq: 2 })).map(([events, refused]) => new Activate(events, refused)),
	fc.constant(new Deactivate()),
	fc.constant(new RotateToken()),
	fc.constantFrom<'restart' | 'update'>('restart', 'update').map((why) => new Restart(why)),
	kind.map((chosen) => new Deliver(chosen)),
	fc.option(fc.stringMatching(/^[0-9a-f]{64}$/), { nil: undefined }).map((secret) => new Forge(secret)),
];

test(`the trigger's lifecycle: one registration per kind, every real delivery runs once, every forged one 401 (seed ${SEED}, ${RUNS} runs; FC_SEED / FC_RUNS / FC_PATH)`, async () => {
	console.log(`lifecycle model: seed ${SEED}, ${RUNS} runs of up to ${MAX_COMMANDS} commands (FC_SEED=${SEED} FC_RUNS=${RUNS} to repeat)`);
	await fc.assert(
		fc.asyncProperty(
			fc.constantFrom<Rule>('saved-on-success', 'saved-always'),
			fc.commands(commands, { maxCommands: MAX_COMMANDS }),
			async (rule, cmds) => {
				await runLifecycle(rule, cmds);
			},
		),
		{ seed: SEED, numRuns: RUNS, ...(PATH && { path: PATH }) },
	);
}, 120_000);
