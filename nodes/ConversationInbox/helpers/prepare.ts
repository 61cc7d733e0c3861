import type { IDataObject, IExecuteSingleFunctions, INode, INodeProperties } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import type { Subject } from '../../shared/checks';
import { describeValue, invalid, isAbsent, missing, noneOf, parseJsonValue } from '../../shared/checks';
import type { RequestOptions } from '../../shared/transport';
import { nodeOf, normalizeBaseUrl } from '../../shared/transport';
import type { Clearing, SentField, Target } from './fields';

/**
 * Step 1 of every operation: the request n8n's routing engine built from the parameters is checked
 * and completed before anything is sent. In order: the credential's Base URL, each field's check
 * (the field's value is replaced by its normalised value, an empty optional one is dropped), the
 * operation's rules that relate several fields, then the escape hatch (renames, extra query
 * parameters and body fields, merged last). A value that breaks a rule throws a NodeOperationError
 * naming the field as the panel shows it; nothing is sent for that item.
 */

export interface RuleContext {
	fn: IExecuteSingleFunctions;
	request: RequestOptions;
	itemIndex: number;
	/** ` [item N]` in messages when the node received several items */
	itemText: string;
	/** a field's name → the name it is sent under (Options → Rename Sent Fields), for the output */
	renamed?: Record<string, string>;
}

/** A rule that relates several fields, or reads more than one value. */
export type Rule = (ctx: RuleContext) => void;

/** The value named `label` of this item, for a check's error. */
export function subject(ctx: Pick<RuleContext, 'fn' | 'itemIndex' | 'itemText'>, label: string): Subject {
	const { fn } = ctx;
	// The node (n8n's deep copy) only for an error: every field's check names its subject.
	return {
		get node() {
			return fn.getNode();
		},
		label,
		itemIndex: ctx.itemIndex,
		itemText: ctx.itemText,
	};
}

/**
 * How many items the node received. n8n shows the item of an error on its own (from `itemIndex`);
 * the text names it only when there is more than one, in n8n's way (`[item 2]`, counting from 0),
 * so that a single run, and an AI agent's tool call, read without item numbers.
 */
function itemTextOf(fn: IExecuteSingleFunctions, itemIndex: number): string {
	let inputs = 1;
	try {
		const main = fn.getExecuteData()?.data?.main?.[0];
		if (Array.isArray(main)) inputs = main.length;
	} catch {
		// An older n8n without execute data in this context: one input.
	}
	return inputs > 1 || itemIndex > 0 ? ` [item ${itemIndex}]` : '';
}

export function ruleContext(fn: IExecuteSingleFunctions, request: RequestOptions): RuleContext {
	const itemIndex = fn.getItemIndex();
	return { fn, request, itemIndex, itemText: itemTextOf(fn, itemIndex) };
}

function container(request: RequestOptions, location: Target['in']): IDataObject {
	if (location === 'body') {
		if (!request.body || typeof request.body !== 'object') request.body = {};
		return request.body as IDataObject;
	}
	if (!request.qs) request.qs = {};
	return request.qs;
}

export function readTarget(ctx: RuleContext, target: Target): unknown {
	return container(ctx.request, target.in)[target.key];
}

export function writeTarget(ctx: RuleContext, target: Target, value: unknown): void {
	const box = container(ctx.request, target.in);
	if (value === undefined) delete box[target.key];
	else box[target.key] = value as IDataObject[string];
}

/** The field's own display rules, as n8n's engine judges them (the node's parameters as the root). */
function shown(fn: IExecuteSingleFunctions, displayOptions: INodeProperties['displayOptions']): boolean {
	const node = nodeOf(fn) as INode;
	const property = { displayOptions } as INodeProperties;
	return NodeHelpers.displayParameter(node.parameters, property, node, null, node.parameters);
}

/**
 * The field's value into the request, read once per item, where n8n's `routing.send` put it: a
 * field hidden by its display rules, or a collection's field the user did not add, is not sent.
 */
function readSentField(ctx: RuleContext, field: SentField): void {
	const { fn } = ctx;
	if (field.shownWhen && !shown(fn, field.shownWhen)) return;
	if (field.collection !== undefined) {
		const members = nodeOf(fn).parameters[field.collection];
		if (!members || typeof members !== 'object' || !Object.keys(members).includes(field.parameter.slice(field.collection.length + 1))) return;
	}
	const value = fn.getNodeParameter(field.parameter, undefined, { extractValue: field.extractValue }) as unknown;
	container(ctx.request, field.in)[field.key] = value as IDataObject[string];
}

/** A field's check (after its condition, if any): skipped for a collection field the user did not add. */
function checkField(ctx: RuleContext, field: SentField): void {
	const box = container(ctx.request, field.in);
	const raw = box[field.key];
	const { requiredWhen } = field;
	if (requiredWhen && isAbsent(raw) && requiredWhen.condition(ctx.request)) {
		throw missing(subject(ctx, field.label), requiredWhen.reason);
	}
	if (field.optional && !Object.prototype.hasOwnProperty.call(box, field.key)) return;
	if (field.whenEmpty && isAbsent(raw)) throw missing(subject(ctx, field.label), field.whenEmpty.reason, field.whenEmpty.fix);
	writeTarget(ctx, field, field.check(raw, subject(ctx, field.label)));
}

/**
 * Fields to Clear: each chosen setting is sent as the value that clears it. Added but empty, an
 * unknown setting, or a setting also given a value is refused.
 */
function applyClearing(ctx: RuleContext, clearing: Clearing): void {
	const collection = (ctx.fn.getNodeParameter(clearing.collection, {}) ?? {}) as IDataObject;
	if (!Object.prototype.hasOwnProperty.call(collection, clearing.name)) return;
	const at = subject(ctx, clearing.label);
	const raw = collection[clearing.name];
	const chosen = (Array.isArray(raw) ? raw : [raw]).filter((value) => !isAbsent(value));
	if (chosen.length === 0) {
		throw missing(
			at,
			`choose the settings to clear, or remove ${clearing.label} from Update Fields`,
			`Choose at least one setting under ${clearing.label}, or remove ${clearing.label} from Update Fields.`,
		);
	}
	for (const value of chosen) {
		const entry = clearing.fields.find((field) => field.value === value);
		if (!entry) {
			throw invalid(at, `must be among ${clearing.fields.map((f) => f.target.label).join(', ')}`, describeValue(value));
		}
		const { target } = entry;
		if (readTarget(ctx, target) !== undefined) {
			throw invalid(
				at,
				`${target.label} is both given a value and chosen to clear`,
				undefined,
				`Remove ${target.label} from Update Fields to clear it, or from ${clearing.label} to set it.`,
			);
		}
		// A copy: the clearing value is shared by every item.
		writeTarget(ctx, target, Array.isArray(entry.clearWith) ? [...entry.clearWith] : entry.clearWith);
	}
}

// ---------------------------------------------------------------------------------------------
// Rules that relate several fields

/** At least one of the fields carries a value. */
export function atLeastOne(targets: Target[]): Rule {
	return (ctx) => {
		if (targets.some((target) => !isAbsent(readTarget(ctx, target)))) return;
		throw noneOf(subject(ctx, ''), targets.map((target) => target.label));
	};
}

// ---------------------------------------------------------------------------------------------
// The escape hatch

const EXTRA_QUERY = 'Extra Query Parameters';
const EXTRA_BODY = 'Extra Body Fields';
const RENAME = 'Rename Sent Fields';

/** Options → Rename Sent Fields: a field or query parameter sent under the API's own name. */
function renameFields(ctx: RuleContext, options: IDataObject): void {
	const entries = (options.renameFields as IDataObject | undefined)?.field;
	if (!Array.isArray(entries)) return;
	(entries as IDataObject[]).forEach((entry, index) => {
		const from = typeof entry?.from === 'string' ? entry.from.trim() : '';
		const to = typeof entry?.to === 'string' ? entry.to.trim() : '';
		if (!from || !to) {
			throw invalid(subject(ctx, RENAME), `entry ${index + 1} needs both names`, undefined, `Fill in both names of entry ${index + 1}, or remove the entry.`);
		}
		for (const target of [ctx.request.qs, ctx.request.body as IDataObject | undefined]) {
			if (!target || typeof target !== 'object' || !(from in target)) continue;
			target[to] = target[from];
			delete target[from];
			ctx.renamed = { ...ctx.renamed, [from]: to };
		}
	});
}

/** The escape hatch: renames, then extra query parameters and extra body fields, merged last. */
function mergeExtras(ctx: RuleContext): void {
	const { fn, request } = ctx;
	const options = (fn.getNodeParameter('options', {}) ?? {}) as IDataObject;
	renameFields(ctx, options);
	const pairs = (options.extraQueryParameters as IDataObject | undefined)?.parameter;
	if (Array.isArray(pairs) && pairs.length) {
		const qs: IDataObject = { ...(request.qs ?? {}) };
		(pairs as IDataObject[]).forEach((pair, index) => {
			const name = typeof pair?.name === 'string' ? pair.name.trim() : '';
			if (!name) {
				throw invalid(subject(ctx, EXTRA_QUERY), `entry ${index + 1} needs a name`, undefined, `Fill in the Name of entry ${index + 1}, or remove the entry.`);
			}
			const value = pair.value;
			qs[name] =
				value === undefined || value === null
					? ''
					: typeof value === 'object'
						? JSON.stringify(value)
						: String(value);
		});
		request.qs = qs;
	}

	const rawBody = options.extraBodyFields;
	if (rawBody === undefined || rawBody === null || rawBody === '') return;
	const at = subject(ctx, EXTRA_BODY);
	const extra = parseJsonValue(at, rawBody);
	if (!extra || typeof extra !== 'object' || Array.isArray(extra)) {
		throw invalid(
			at,
			'must be a JSON object, like {"field": "value"}',
			describeValue(extra),
			'Put the fields to add between { and }, each as "name": value.',
		);
	}
	if (Object.keys(extra).length === 0) return;
	request.body = { ...((request.body as IDataObject) ?? {}), ...(extra as IDataObject) };
}

/** The checks and rules of one operation, in the order they run. */
export interface Preparation {
	fields: SentField[];
	/** the Fields to Clear entries of its Update Fields */
	clearings: Clearing[];
	rules: Rule[];
}

/** Checks and completes the item's request in place; throws when the item must not be sent. */
export function prepareRequest(ctx: RuleContext, preparation: Preparation): void {
	ctx.request.baseURL = normalizeBaseUrl(() => ctx.fn.getNode(), ctx.request.baseURL, ctx.itemIndex);
	for (const field of preparation.fields) readSentField(ctx, field);
	for (const field of preparation.fields) checkField(ctx, field);
	for (const clearing of preparation.clearings) applyClearing(ctx, clearing);
	for (const rule of preparation.rules) rule(ctx);
	mergeExtras(ctx);
}
