/* eslint-disable -- development tooling, not shipped: n8n's node rules (eslint.config.mjs, n8n-node lint) are for nodes/ and credentials/ */
/**
 * Today's performance goals (issue 31, DESIGN.md "Cost per item", 2026-11-25), judged against the
 * figures of one bench run. They replace issue 16's targets (≥ 4× faster than the HTTP Request
 * node, …), which are retired: the bench no longer prints a verdict on them.
 */
import { printTable } from './lists';

/** The goals, as the literal figures the issue gives. */
export const GOALS = {
	/** every list case: our node's time ≤ this × the bare fetch client's */
	listVsBare: 1.2,
	/** the bulk case at the API's limit: our node's time ≤ this × the floor (items / rate) */
	bulkVsFloor: 1.15,
	/** stall, without Batching: the longest gap ≤ this many ms per item */
	stallGapPerItemMs: 2,
	/** stall, with the documented Batching setting: the longest gap ≤ this */
	stallBatchedGapMs: 250,
	/** stall, 1 000 items without a limit: our node's time ≤ this × the HTTP Request node's */
	stallVsHttpRequest: 1.5,
	/** issue 44, the floor: our node's n8n CPU per item ≤ this × a declarative node of the same shape doing nothing else */
	oursVsSameShapeFloor: 1.05,
	/** evaluations per item (the counting test, not a bench figure) */
	mappedEvaluationsPerItem: 3,
	ownEvaluationsPerItem: 2,
} as const;

export interface GoalLine {
	goal: string;
	measured: string;
	/** undefined: not measured in this run */
	met?: boolean;
	/** a figure without a goal */
	reported?: boolean;
}

const verdict = (line: GoalLine): string => (line.reported ? 'a figure, no goal' : line.met === undefined ? 'not measured in this run' : line.met ? 'met' : 'MISSED');

export function printGoals(lines: GoalLine[]): void {
	console.log('');
	console.log("Today's goals (issue 31; ratios from this run, compared unrounded; the machine may be shared: see docs/performance.md)");
	printTable([['goal', 'measured', 'verdict'], ...lines.map((l) => [l.goal, l.measured, verdict(l)])]);
}

/** The goals no bench case measures, with where they are checked. */
export function evaluationGoals(): GoalLine[] {
	return [
		{ goal: `evaluations per item of a mapped value ≤ ${GOALS.mappedEvaluationsPerItem}`, measured: 'asserted by the counting test in jest (not a bench figure)' },
		{ goal: `the node's own evaluations per item ≤ ${GOALS.ownEvaluationsPerItem}`, measured: 'asserted by the counting test in jest (not a bench figure)' },
	];
}
