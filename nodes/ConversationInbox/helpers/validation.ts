import type {
	IDataObject,
	IExecuteSingleFunctions,
	IHttpRequestOptions,
	INodePropertyOptions,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { ID_PATTERN, ID_RULE, PHONE_MAX_LENGTH, PHONE_MIN_LENGTH } from '../../shared/constants';

/**
 * The small shared set of validators every operation's `preSend` is built from.
 *
 * A rule reads one field of the request that the routing engine assembled from the parameters
 * (body or query string, by its API name), checks it against a rule of the API spec, writes back
 * the normalised value (a comma-separated list becomes an array, "42" becomes 42, an empty optional
 * value is dropped) and throws a NodeOperationError naming the field (its display name in the
 * panel), the rule and what was received when the value breaks it. Nothing is sent for an item that fails.
 */

export type Location = 'body' | 'qs';

/** One field of the request: its API name, where it travels, and its display name in the node. */
export interface Field {
	key: string;
	label: string;
	in: Location;
}

export const bodyField = (key: string, label: string): Field => ({ key, label, in: 'body' });
export const queryField = (key: string, label: string): Field => ({ key, label, in: 'qs' });

export interface RuleContext {
	fn: IExecuteSingleFunctions;
	request: IHttpRequestOptions;
	itemIndex: number;
}

export type Rule = (ctx: RuleContext) => void;

// ---------------------------------------------------------------------------------------------
// Reading, writing and failing

function container(ctx: RuleContext, location: Location): IDataObject {
	if (location === 'body') {
		if (!ctx.request.body || typeof ctx.request.body !== 'object') ctx.request.body = {};
		return ctx.request.body as IDataObject;
	}
	if (!ctx.request.qs) ctx.request.qs = {};
	return ctx.request.qs;
}

export function readField(ctx: RuleContext, field: Field): unknown {
	return container(ctx, field.in)[field.key];
}

export function writeField(ctx: RuleContext, field: Field, value: unknown): void {
	const target = container(ctx, field.in);
	if (value === undefined) delete target[field.key];
	else target[field.key] = value as IDataObject[string];
}

/** Absent: not given, null, an empty or blank string, or an empty list. */
export function isAbsent(value: unknown): boolean {
	if (value === undefined || value === null) return true;
	if (typeof value === 'string') return value.trim() === '';
	if (Array.isArray(value)) return value.length === 0;
	return false;
}

/** A short, safe rendering of a value for an error message. */
export function describeValue(value: unknown): string {
	if (value === undefined) return 'nothing';
	if (value === null) return 'null';
	if (typeof value === 'string') {
		const shown = value.length > 60 ? `${value.slice(0, 57)}...` : value;
		return `"${shown}"`;
	}
	if (typeof value === 'number' || typeof value === 'boolean') return String(value);
	if (Array.isArray(value)) return `a list of ${value.length}`;
	return `an object`;
}

/** A field as the user sees it in the panel: its display name only. */
export function fieldName(field: Pick<Field, 'key' | 'label'>): string {
	return field.label;
}

/**
 * How many items the node received. n8n shows the item of an error on its own (from `itemIndex`);
 * the text names it only when there is more than one, in n8n's way (`[item 2]`, counting from 0),
 * so that a single run, and an AI agent's tool call, read without item numbers.
 */
function inputCount(fn: RuleContext['fn']): number {
	try {
		const main = fn.getExecuteData()?.data?.main?.[0];
		if (Array.isArray(main)) return main.length;
	} catch {
		// An older n8n without execute data in this context: fall through.
	}
	return 1;
}

/** ` [item N]` when the node received several items; nothing for one. */
export function itemSuffix(ctx: Pick<RuleContext, 'fn' | 'itemIndex'>): string {
	return inputCount(ctx.fn) > 1 || ctx.itemIndex > 0 ? ` [item ${ctx.itemIndex}]` : '';
}

function nothingSent(ctx: Pick<RuleContext, 'fn' | 'itemIndex'>): string {
	return itemSuffix(ctx) === '' ? 'Nothing was sent to the API.' : 'Nothing was sent to the API for this item.';
}

/** "5 characters", "1 character", "12 entries". */
export function count(n: number, noun: string, plural = `${noun}s`): string {
	return `${n} ${n === 1 ? noun : plural}`;
}

/**
 * A validation failure in one sentence: the field's display name, the rule and what was received
 * (`Invalid Phone Number: must be 8-30 characters, got 5 characters`); the description says what
 * to do.
 */
export function invalid(
	ctx: Pick<RuleContext, 'fn' | 'itemIndex'>,
	field: Pick<Field, 'key' | 'label'>,
	rule: string,
	got?: string,
	fix = `Change ${field.label} to meet the rule and run again.`,
): NodeOperationError {
	const message = `Invalid ${fieldName(field)}: ${rule}${got === undefined ? '' : `, got ${got}`}${itemSuffix(ctx)}`;
	return new NodeOperationError(ctx.fn.getNode(), message, {
		itemIndex: ctx.itemIndex,
		description: `${fix} ${nothingSent(ctx)}`,
	});
}

export function missing(
	ctx: Pick<RuleContext, 'fn' | 'itemIndex'>,
	field: Pick<Field, 'key' | 'label'>,
	reason = 'a value is required',
): NodeOperationError {
	return new NodeOperationError(
		ctx.fn.getNode(),
		`Missing ${fieldName(field)}: ${reason}${itemSuffix(ctx)}`,
		{
			itemIndex: ctx.itemIndex,
			description: `Set ${field.label} and run again. ${nothingSent(ctx)}`,
		},
	);
}

/** Code points, as the API counts characters. */
function charLength(value: string): number {
	return Array.from(value).length;
}

function lengthRule(min?: number, max?: number): string {
	if (min !== undefined && max !== undefined) return `must be ${min}-${max} characters`;
	if (max !== undefined) return `must be at most ${max} characters`;
	return `must be at least ${min} characters`;
}

/** Text coming from an expression may be a number; objects, lists and booleans are not text. */
function asText(
	ctx: RuleContext,
	field: Field,
	value: unknown,
): string {
	if (typeof value === 'string') return value;
	if (typeof value === 'number' && Number.isFinite(value)) return String(value);
	throw invalid(ctx, field, 'must be text', describeValue(value));
}

// ---------------------------------------------------------------------------------------------
// Validators

export interface TextOptions {
	required?: boolean;
	min?: number;
	max?: number;
	pattern?: RegExp;
	/** the pattern in words, e.g. 'must be a colour like #1A2B3C' */
	patternRule?: string;
	/** strip surrounding spaces first (identifiers, numbers, URLs; never names) */
	trim?: boolean;
	/** extra check after the others; returns the rule text when the value breaks it */
	check?: (value: string) => string | undefined;
	/** what to do when the value breaks a rule, if better than the general "change it" */
	fix?: string;
}

/** A string field: presence, type, length in characters, pattern. */
export function text(field: Field, options: TextOptions = {}): Rule {
	return (ctx) => {
		const raw = readField(ctx, field);
		if (isAbsent(raw)) {
			if (options.required) throw missing(ctx, field);
			writeField(ctx, field, undefined);
			return;
		}
		let value = asText(ctx, field, raw);
		if (options.trim) value = value.trim();
		const length = charLength(value);
		if (
			(options.min !== undefined && length < options.min) ||
			(options.max !== undefined && length > options.max)
		) {
			throw invalid(ctx, field, lengthRule(options.min, options.max), count(length, 'character'), options.fix);
		}
		if (options.pattern && !options.pattern.test(value)) {
			throw invalid(
				ctx,
				field,
				options.patternRule ?? `must match ${options.pattern.source}`,
				describeValue(value),
				options.fix,
			);
		}
		const broken = options.check?.(value);
		if (broken) throw invalid(ctx, field, broken, describeValue(value), options.fix);
		writeField(ctx, field, value);
	};
}

/**
 * A picker's (resource locator's) stored value, `{ __rl: true, mode, value }`. n8n's routing
 * already hands the rules the bare value (its `extractValue`); this catches the object when it
 * arrives some other way, e.g. produced by an expression.
 */
export function isLocatorValue(value: unknown): value is { mode: unknown; value: unknown } {
	return (
		!!value &&
		typeof value === 'object' &&
		!Array.isArray(value) &&
		'mode' in value &&
		'value' in value
	);
}

/**
 * `<id>` of the spec: "c" and 24 lowercase letters or digits. Accepts the id as a plain string or
 * as a picker's `{ mode, value }`, and sends the bare id.
 */
export function id(field: Field, options: { required?: boolean } = {}): Rule {
	const check = text(field, { ...options, trim: true, pattern: ID_PATTERN, patternRule: ID_RULE });
	return (ctx) => {
		const raw = readField(ctx, field);
		if (isLocatorValue(raw)) writeField(ctx, field, raw.value);
		check(ctx);
	};
}

const LID_FORM = /^[^@\s]+@lid$/i;

/**
 * A phone number where the spec gives 8-30 characters. `format` says what else the spec says:
 * - 'any' (Stop in Chat: "any format"): nothing else; a JID or a LID passes;
 * - 'number' (custom fields: "country code + area code + number"): no "@";
 * - 'numberOrLid' (remove-from-contact: "a phone number or a contact LID"): "@" only in a LID.
 */
export function phone(
	field: Field,
	options: { required?: boolean; format: 'any' | 'number' | 'numberOrLid' },
): Rule {
	return text(field, {
		required: options.required,
		trim: true,
		min: PHONE_MIN_LENGTH,
		max: PHONE_MAX_LENGTH,
		fix: `Give the number with country and area code, digits only, e.g. 5511987650001${options.format === 'numberOrLid' ? ", or the contact's LID (ending in @lid)" : ''}.`,
		check: (value) => {
			if (options.format === 'any' || !value.includes('@')) return undefined;
			if (options.format === 'number') return 'must be a phone number (country code, area code and number)';
			return LID_FORM.test(value)
				? undefined
				: 'must be a phone number or a contact LID ending in @lid, like 123456789012345@lid';
		},
	});
}

export interface IntegerOptions {
	required?: boolean;
	min?: number;
	max?: number;
}

/** A whole number; a string of digits from an expression is accepted and sent as a number. */
export function integer(field: Field, options: IntegerOptions = {}): Rule {
	return (ctx) => {
		const raw = readField(ctx, field);
		if (raw === undefined || raw === null || (typeof raw === 'string' && raw.trim() === '')) {
			if (options.required) throw missing(ctx, field);
			writeField(ctx, field, undefined);
			return;
		}
		let value: number | undefined;
		if (typeof raw === 'number') value = raw;
		else if (typeof raw === 'string' && /^\s*-?\d+\s*$/.test(raw)) value = Number(raw);
		const range =
			options.min !== undefined && options.max !== undefined
				? `a whole number from ${options.min} to ${options.max}`
				: options.min !== undefined
					? `a whole number of ${options.min} or more`
					: 'a whole number';
		// Safe integers only: a larger number would not survive the trip through JSON unchanged.
		if (value === undefined || !Number.isSafeInteger(value)) {
			throw invalid(ctx, field, `must be ${range}`, describeValue(raw));
		}
		if (
			(options.min !== undefined && value < options.min) ||
			(options.max !== undefined && value > options.max)
		) {
			throw invalid(ctx, field, `must be ${range}`, String(value));
		}
		writeField(ctx, field, value);
	};
}

/** true/false; the strings "true" and "false" from an expression are accepted. */
export function boolean(field: Field, options: { required?: boolean } = {}): Rule {
	return (ctx) => {
		const raw = readField(ctx, field);
		if (raw === undefined || raw === null || raw === '') {
			if (options.required) throw missing(ctx, field);
			writeField(ctx, field, undefined);
			return;
		}
		if (typeof raw === 'boolean') return;
		if (raw === 'true' || raw === 'false') {
			writeField(ctx, field, raw === 'true');
			return;
		}
		throw invalid(ctx, field, 'must be true or false', describeValue(raw));
	};
}

/** One of the values of an enum (the node's option list for it). */
export function oneOf(
	field: Field,
	options: INodePropertyOptions[] | readonly string[],
	settings: { required?: boolean } = {},
): Rule {
	const values = options.map((option) =>
		typeof option === 'string' ? option : String(option.value),
	);
	return (ctx) => {
		const raw = readField(ctx, field);
		if (isAbsent(raw)) {
			if (settings.required) throw missing(ctx, field);
			writeField(ctx, field, undefined);
			return;
		}
		if (typeof raw !== 'string' || !values.includes(raw)) {
			throw invalid(ctx, field, `must be one of ${values.join(', ')}`, describeValue(raw));
		}
	};
}

/** An absolute http(s) URL; `pattern` adds a form the URL must have. */
export function url(
	field: Field,
	options: { required?: boolean; pattern?: RegExp; patternRule?: string } = {},
): Rule {
	return text(field, {
		required: options.required,
		trim: true,
		check: (value) => {
			let parsed: URL;
			try {
				parsed = new URL(value);
			} catch {
				return 'must be an absolute http(s) URL, like https://example.com/hook';
			}
			if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
				return 'must be an absolute http(s) URL, like https://example.com/hook';
			}
			if (options.pattern && !options.pattern.test(value)) {
				return options.patternRule ?? `must match ${options.pattern.source}`;
			}
			return undefined;
		},
	});
}

export interface ListOptions {
	required?: boolean;
	/** each entry must be an `<id>` */
	ids?: boolean;
	/** at most this many entries */
	max?: number;
	/** length of each entry in characters */
	itemMin?: number;
	itemMax?: number;
	/** how the list travels: a JSON array (body) or one comma-separated string (query) */
	send: 'array' | 'commaSeparated';
	/**
	 * Exact names (which may contain commas): every text is one entry, kept exactly; several come
	 * as several values or a list from an expression. Default: every text is split at commas.
	 */
	entriesAreExact?: boolean;
}

/**
 * A list of strings given as multiple values, a comma-separated string, a JSON array from an
 * expression, or any mix of them. Blank entries are ignored.
 */
export function list(field: Field, options: ListOptions): Rule {
	return (ctx) => {
		const raw = readField(ctx, field);
		const entries: string[] = [];
		const add = (value: unknown, position: number, inList: boolean): void => {
			if (value === undefined || value === null) return;
			if (Array.isArray(value)) {
				value.forEach((inner, index) => add(inner, inList ? position : index + 1, true));
				return;
			}
			if (typeof value === 'number' && Number.isFinite(value)) value = String(value);
			if (typeof value !== 'string') {
				throw invalid(
					ctx,
					field,
					'must be a list of text values (several values or one comma-separated text)',
					`${describeValue(value)} at entry ${position}`,
				);
			}
			if (options.entriesAreExact) {
				// A name is exact: one text is one name, even with commas in it ("Cliente, VIP").
				if (value.trim() !== '') entries.push(value);
				return;
			}
			for (const part of value.split(',')) {
				if (part.trim() !== '') entries.push(part.trim());
			}
		};
		let value = raw;
		if (typeof raw === 'string' && raw.trim().startsWith('[')) {
			// A JSON array typed into the field or produced by an expression as text.
			try {
				value = JSON.parse(raw);
			} catch {
				value = raw;
			}
		}
		add(value, 1, false);
		if (entries.length === 0) {
			if (options.required) throw missing(ctx, field, 'at least one value is required');
			writeField(ctx, field, undefined);
			return;
		}
		if (options.max !== undefined && entries.length > options.max) {
			throw invalid(ctx, field, `must have at most ${options.max} entries`, count(entries.length, 'entry', 'entries'));
		}
		entries.forEach((entry, index) => {
			if (options.ids && !ID_PATTERN.test(entry)) {
				throw invalid(
					ctx,
					field,
					`entry ${index + 1} ${ID_RULE}`,
					describeValue(entry),
				);
			}
			const length = charLength(entry);
			if (
				(options.itemMin !== undefined && length < options.itemMin) ||
				(options.itemMax !== undefined && length > options.itemMax)
			) {
				throw invalid(
					ctx,
					field,
					`entry ${index + 1} ${lengthRule(options.itemMin, options.itemMax)}`,
					count(length, 'character'),
				);
			}
		});
		writeField(ctx, field, options.send === 'array' ? entries : entries.join(','));
	};
}

/** Parses a JSON parameter value given as text; values from expressions pass as they are. */
export function parseJsonValue(
	ctx: Pick<RuleContext, 'fn' | 'itemIndex'>,
	field: Pick<Field, 'key' | 'label'>,
	raw: unknown,
): unknown {
	if (typeof raw !== 'string') return raw;
	try {
		return JSON.parse(raw);
	} catch (error) {
		throw invalid(
			ctx,
			field,
			`must be valid JSON (text in double quotes, a number, true/false, a list or an object) - ${(error as Error).message}`,
			describeValue(raw),
		);
	}
}

/**
 * A fixedCollection of `{key, value}` pairs (webhook headers): the routing engine sends the
 * collection as `{<option>: [...]}`; the API wants the bare array of strings. The spec sets no limit
 * on their number or form (the API decides), so only the types are checked.
 */
export function keyValueList(field: Field, option: string): Rule {
	return (ctx) => {
		let raw = readField(ctx, field);
		if (raw && typeof raw === 'object' && !Array.isArray(raw)) raw = (raw as IDataObject)[option];
		if (typeof raw === 'string') raw = parseJsonValue(ctx, field, raw);
		if (isAbsent(raw)) {
			writeField(ctx, field, undefined);
			return;
		}
		if (!Array.isArray(raw)) {
			throw invalid(ctx, field, 'must be a list of {key, value} pairs', describeValue(raw));
		}
		const pairs = raw.map((entry, index) => {
			const pair = (entry ?? {}) as IDataObject;
			const key = typeof pair.key === 'string' ? pair.key.trim() : pair.key;
			const value = pair.value ?? '';
			if (typeof key !== 'string' || key === '') {
				throw invalid(ctx, field, `entry ${index + 1} needs a header name (Key)`, describeValue(key));
			}
			if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') {
				throw invalid(ctx, field, `entry ${index + 1} needs a text value`, describeValue(value));
			}
			return { key, value: String(value) };
		});
		writeField(ctx, field, pairs);
	};
}

/** At least one of the fields carries a value. */
export function atLeastOne(fields: Field[]): Rule {
	return (ctx) => {
		if (fields.some((field) => !isAbsent(readField(ctx, field)))) return;
		const names = fields.map(fieldName);
		const listed = `${names.slice(0, -1).join(', ')} or ${names[names.length - 1]}`;
		throw new NodeOperationError(
			ctx.fn.getNode(),
			`Missing ${listed}: give at least one of them${itemSuffix(ctx)}`,
			{
				itemIndex: ctx.itemIndex,
				description: `The API needs at least one of these fields. Set one and run again. ${nothingSent(ctx)}`,
			},
		);
	};
}

/**
 * `field` is required when `condition` holds (its own rules still apply); e.g. Specific Message
 * when Trigger Type is RECEIVE_SPECIFIC_MESSAGE.
 */
export function requiredWhen(
	field: Field,
	condition: (ctx: RuleContext) => boolean,
	reason: string,
): Rule {
	return (ctx) => {
		if (condition(ctx) && isAbsent(readField(ctx, field))) throw missing(ctx, field, reason);
	};
}

/**
 * A field of an Update Fields collection: `rule` (built with `required: true`) applies only when the
 * user added the field; a field not added stays unsent. With `cleared`, an added but empty field is
 * sent as that value (`[]`, `null`) so that the user can clear a setting.
 */
export function ifAdded(field: Field, rule: Rule, options: { cleared?: unknown } = {}): Rule {
	return (ctx) => {
		const target = container(ctx, field.in);
		if (!Object.prototype.hasOwnProperty.call(target, field.key)) return;
		if ('cleared' in options && isAbsent(target[field.key])) writeField(ctx, field, options.cleared);
		else rule(ctx);
	};
}

/** The rules in `rules` apply only when `condition` holds. */
export function when(condition: (ctx: RuleContext) => boolean, rules: Rule[]): Rule {
	return (ctx) => {
		if (condition(ctx)) rules.forEach((rule) => rule(ctx));
	};
}

/** `limit` of list operations (when Return All is off): a whole number of 1 or more. */
export const limitRule: Rule = (ctx) => {
	const returnAll = ctx.fn.getNodeParameter('returnAll', false) as unknown;
	if (returnAll === true || returnAll === 'true') return;
	const value = ctx.fn.getNodeParameter('limit', 50) as unknown;
	const field = { key: 'limit', label: 'Limit' };
	const n = typeof value === 'string' && /^\s*\d+\s*$/.test(value) ? Number(value) : value;
	if (typeof n !== 'number' || !Number.isInteger(n) || n < 1) {
		throw invalid(ctx, field, 'must be a whole number of 1 or more', describeValue(value));
	}
};
