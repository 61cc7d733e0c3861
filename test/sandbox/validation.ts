import { badRequest } from './errors';
import { ID_PATTERN } from './types';

// One small set of validators for every handler, control endpoint and simulation, so each rule of the
// spec is written once and every 400 names the field and the rule the same way.

export type Source = Record<string, unknown>;
export type SourceKind = 'body' | 'query';

interface Presence {
	required?: boolean;
}
export interface StringRule extends Presence {
	min?: number;
	max?: number;
	pattern?: RegExp;
	/** how the rule reads in the message, e.g. 'end with @g.us' */
	patternText?: string;
}
export interface IntegerRule extends Presence {
	min?: number;
	max?: number;
	default?: number;
}
export interface ArrayRule extends Presence {
	max?: number;
	min?: number;
}

const ID_TEXT = `be an id matching ${ID_PATTERN.source}`;
/** Header names as HTTP allows them (RFC 9110 token). */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

export const isPlainObject = (v: unknown): v is Source =>
	typeof v === 'object' && v !== null && !Array.isArray(v);

/** Length in characters (code points), not UTF-16 units. */
function charLength(s: string): number {
	if (!/[\ud800-\udfff]/.test(s)) return s.length;
	return Array.from(s).length;
}

function lengthText(min?: number, max?: number): string {
	if (min !== undefined && max !== undefined) return `be ${min}-${max} characters`;
	if (max !== undefined) return `be at most ${max} characters`;
	return `be at least ${min} characters`;
}

function rangeText(min?: number, max?: number): string {
	if (min !== undefined && max !== undefined) return `an integer between ${min} and ${max}`;
	if (min !== undefined) return `an integer >= ${min}`;
	return 'an integer';
}

/**
 * Reads and checks the fields of a JSON body or a query string. Query values are strings, so
 * integers there must be strings of digits and an empty value counts as absent; in a body, `null`
 * counts as absent. Every failure throws a 400 ApiError whose message starts with the field name.
 */
export class Fields {
	constructor(
		readonly src: Source,
		readonly kind: SourceKind = 'body',
		private readonly prefix = '',
	) {}

	/** Fields of an object nested in this one (array items, sub-objects), named `parent[i].field`. */
	nested(value: unknown, label: string): Fields {
		if (!isPlainObject(value)) throw badRequest(`${this.prefix}${label} must be an object`);
		return new Fields(value, this.kind, `${this.prefix}${label}.`);
	}

	fieldName(name: string): string {
		return this.prefix + name;
	}

	fail(name: string, rule: string): never {
		throw badRequest(`${this.fieldName(name)} must ${rule}`);
	}

	/** True when the field carries a value (not undefined/null in a body, not '' in a query). */
	present(name: string): boolean {
		const v = this.src[name];
		return v !== undefined && v !== null && !(this.kind === 'query' && v === '');
	}

	/** True when the key exists at all (a `valueJson: null` is a value). */
	hasKey(name: string): boolean {
		return Object.prototype.hasOwnProperty.call(this.src, name);
	}

	private absent(name: string, required: boolean | undefined): undefined {
		if (required) throw badRequest(`${this.fieldName(name)} is required`);
		return undefined;
	}

	string(name: string, rule: StringRule & { required: true }): string;
	string(name: string, rule?: StringRule): string | undefined;
	string(name: string, rule: StringRule = {}): string | undefined {
		if (!this.present(name)) return this.absent(name, rule.required);
		const v = this.src[name];
		if (typeof v !== 'string') this.fail(name, 'be a string');
		const len = charLength(v);
		if ((rule.min !== undefined && len < rule.min) || (rule.max !== undefined && len > rule.max)) {
			this.fail(name, lengthText(rule.min, rule.max));
		}
		if (rule.pattern && !rule.pattern.test(v)) {
			this.fail(name, rule.patternText ?? `match ${rule.pattern.source}`);
		}
		return v;
	}

	/** `<id>`: `^c[a-z0-9]{24}$`. */
	id(name: string, rule: Presence & { required: true }): string;
	id(name: string, rule?: Presence): string | undefined;
	id(name: string, rule: Presence = {}): string | undefined {
		return this.string(name, { ...rule, pattern: ID_PATTERN, patternText: ID_TEXT });
	}

	/** Phone numbers (or LIDs) where the spec gives a length of 8-30 characters. */
	phone(name: string, rule: Presence & { required: true }): string;
	phone(name: string, rule?: Presence): string | undefined;
	phone(name: string, rule: Presence = {}): string | undefined {
		return this.string(name, { ...rule, min: 8, max: 30 });
	}

	enumOf<T extends string>(name: string, values: readonly T[], rule: Presence & { required: true }): T;
	enumOf<T extends string>(name: string, values: readonly T[], rule: Presence & { default: T }): T;
	enumOf<T extends string>(name: string, values: readonly T[], rule?: Presence): T | undefined;
	enumOf<T extends string>(
		name: string,
		values: readonly T[],
		rule: Presence & { default?: T } = {},
	): T | undefined {
		if (!this.present(name)) return rule.default ?? this.absent(name, rule.required);
		const v = this.src[name];
		if (typeof v !== 'string' || !(values as readonly string[]).includes(v)) {
			this.fail(name, `be one of ${values.join(', ')}`);
		}
		return v as T;
	}

	boolean(name: string, rule: Presence & { default: boolean }): boolean;
	boolean(name: string, rule?: Presence): boolean | undefined;
	boolean(name: string, rule: Presence & { default?: boolean } = {}): boolean | undefined {
		if (!this.present(name)) return rule.default ?? this.absent(name, rule.required);
		const v = this.src[name];
		if (typeof v === 'boolean') return v;
		if (this.kind === 'query' && (v === 'true' || v === 'false')) return v === 'true';
		this.fail(name, 'be a boolean');
	}

	/** In a body: a JSON integer. In a query: a string of digits (`^\d+$`), then range-checked. */
	integer(name: string, rule: IntegerRule & { default: number }): number;
	integer(name: string, rule: IntegerRule & { required: true }): number;
	integer(name: string, rule?: IntegerRule): number | undefined;
	integer(name: string, rule: IntegerRule = {}): number | undefined {
		if (!this.present(name)) return rule.default ?? this.absent(name, rule.required);
		const v = this.src[name];
		const range = rangeText(rule.min, rule.max);
		let n: number;
		if (this.kind === 'query') {
			if (typeof v !== 'string' || !/^\d+$/.test(v)) this.fail(name, `be ${range} (a string of digits)`);
			n = Number(v);
		} else {
			if (typeof v !== 'number' || !Number.isInteger(v)) this.fail(name, `be ${range}`);
			n = v;
		}
		if ((rule.min !== undefined && n < rule.min) || (rule.max !== undefined && n > rule.max)) {
			this.fail(name, `be ${range}`);
		}
		return n;
	}

	array(name: string, rule: ArrayRule & { required: true }): unknown[];
	array(name: string, rule?: ArrayRule): unknown[] | undefined;
	array(name: string, rule: ArrayRule = {}): unknown[] | undefined {
		if (!this.present(name)) return this.absent(name, rule.required);
		const v = this.src[name];
		if (!Array.isArray(v)) this.fail(name, 'be an array');
		if (rule.max !== undefined && v.length > rule.max) this.fail(name, `have at most ${rule.max} items`);
		if (rule.min !== undefined && v.length < rule.min) this.fail(name, `have at least ${rule.min} item(s)`);
		return v;
	}

	/** Array of `<id>`; each bad item is named with its index. */
	idArray(name: string, rule: ArrayRule = {}): string[] | undefined {
		const items = this.array(name, rule);
		if (!items) return undefined;
		items.forEach((item, i) => {
			if (typeof item !== 'string' || !ID_PATTERN.test(item)) this.fail(`${name}[${i}]`, ID_TEXT);
		});
		return items as string[];
	}

	/** Array of strings, each of the given length. */
	stringArray(name: string, rule: ArrayRule & { itemMin?: number; itemMax?: number } = {}): string[] | undefined {
		const items = this.array(name, rule);
		if (!items) return undefined;
		items.forEach((item, i) => {
			if (typeof item !== 'string') this.fail(`${name}[${i}]`, 'be a string');
			const len = charLength(item);
			if ((rule.itemMin !== undefined && len < rule.itemMin) || (rule.itemMax !== undefined && len > rule.itemMax)) {
				this.fail(`${name}[${i}]`, lengthText(rule.itemMin, rule.itemMax));
			}
		});
		return items as string[];
	}

	/** Query list `a,b,c` of `<id>` (blank entries ignored). */
	idList(name: string): string[] | undefined {
		const raw = this.string(name);
		if (raw === undefined) return undefined;
		const ids = raw
			.split(',')
			.map((s) => s.trim())
			.filter((s) => s !== '');
		for (const id of ids) {
			if (!ID_PATTERN.test(id)) this.fail(name, `be a comma-separated list of ids matching ${ID_PATTERN.source} ("${id}" is not)`);
		}
		return ids;
	}

	/** An absolute http(s) URL. */
	url(name: string, rule: Presence & { required: true }): URL;
	url(name: string, rule?: Presence): URL | undefined;
	url(name: string, rule: Presence = {}): URL | undefined {
		const raw = this.string(name, { ...rule, min: 1, max: 2048 });
		if (raw === undefined) return undefined;
		let parsed: URL;
		try {
			parsed = new URL(raw);
		} catch {
			this.fail(name, 'be an absolute http(s) URL');
		}
		if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') this.fail(name, 'be an absolute http(s) URL');
		return parsed;
	}

	/** `[{key, value}]` of strings usable as HTTP headers. */
	headerList(name: string): Array<{ key: string; value: string }> | undefined {
		// No limit on the number: the spec states none.
		const items = this.array(name);
		if (!items) return undefined;
		return items.map((item, i) => {
			const h = this.nested(item, `${name}[${i}]`);
			const key = h.string('key', { required: true, pattern: HEADER_NAME, patternText: 'be a valid HTTP header name' });
			const value = h.string('value', { required: true, max: 8192, pattern: /^[^\r\n\0]*$/, patternText: 'not contain line breaks' });
			return { key, value };
		});
	}
}

/** Query strings arrive as `URLSearchParams`; the last value of a repeated key wins. */
export function queryFields(params: URLSearchParams): Fields {
	return new Fields(Object.fromEntries(params.entries()), 'query');
}
