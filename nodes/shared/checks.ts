import type { IDataObject, INode, INodePropertyOptions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { ID_PATTERN, ID_PLACEHOLDER, ID_RULE, PHONE_MAX_LENGTH, PHONE_MIN_LENGTH } from './constants';

/**
 * The value checks of both nodes: the action node's fields (helpers/fields.ts) and the trigger's
 * settings use the same ones.
 *
 * A check takes one value as n8n resolved it, tests it against a rule of the API spec and returns
 * the normalised value (a comma-separated list becomes an array, "42" becomes 42; `undefined` = an
 * empty optional value, not sent). A value that breaks the rule throws a NodeOperationError naming
 * the field as the panel shows it, the rule and what was received; nothing is sent then. Its
 * description says what to do next, for the value received (a name in an ID field points at the
 * names field, "7,5" at the decimal point, a too-long text at the limit).
 */

/** The value being checked: the field's display name, and the item it belongs to. */
export interface Subject {
	node: INode;
	/** the field's display name in the panel */
	label: string;
	itemIndex?: number;
	/** ` [item N]` when the node received several items, else '' (n8n shows the item itself) */
	itemText: string;
}

export type Check = (value: unknown, at: Subject) => unknown;

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

/** "5 characters", "1 character", "12 entries". */
export function count(n: number, noun: string, plural = `${noun}s`): string {
	return `${n} ${n === 1 ? noun : plural}`;
}

function nothingSent(at: Subject): string {
	return at.itemText === '' ? 'Nothing was sent to the API.' : 'Nothing was sent to the API for this item.';
}

/**
 * A validation failure in one sentence: the field's display name, the rule and what was received
 * (`Invalid Phone Number: must be 8-30 characters, got 5 characters`); the description (`fix`)
 * says what to do. Every check gives its own fix; the default is the last resort.
 */
export function invalid(
	at: Subject,
	rule: string,
	got?: string,
	fix = `Change ${at.label} to meet the rule and run again.`,
): NodeOperationError {
	const message = `Invalid ${at.label}: ${rule}${got === undefined ? '' : `, got ${got}`}${at.itemText}`;
	return new NodeOperationError(at.node, message, {
		itemIndex: at.itemIndex,
		description: `${fix} ${nothingSent(at)}`,
	});
}

export function missing(
	at: Subject,
	reason = 'a value is required',
	fix = `Fill in ${at.label} and run again.`,
): NodeOperationError {
	return new NodeOperationError(at.node, `Missing ${at.label}: ${reason}${at.itemText}`, {
		itemIndex: at.itemIndex,
		description: `${fix} ${nothingSent(at)}`,
	});
}

/** Several fields of which the API needs at least one, none given. */
export function noneOf(at: Omit<Subject, 'label'>, labels: string[]): NodeOperationError {
	const listed = `${labels.slice(0, -1).join(', ')} or ${labels[labels.length - 1]}`;
	return new NodeOperationError(at.node, `Missing ${listed}: give at least one of them${at.itemText}`, {
		itemIndex: at.itemIndex,
		description: `The API needs at least one of these fields: fill in ${listed} and run again. ${nothingSent({ ...at, label: '' })}`,
	});
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

/** What to do with a text of `length` characters outside min-max: shorten it, or complete it. */
function lengthFix(what: string, length: number, min?: number, max?: number): string {
	if (max !== undefined && length > max) {
		return `Shorten ${what} to ${count(max, 'character')} or fewer (it has ${length}) and run again.`;
	}
	return `Make ${what} at least ${count(min ?? 1, 'character')} long and run again.`;
}

/** For a text of the wrong form: the rule gives the form, with an example. */
const formFix = (label: string): string => `Write ${label} in the form the rule shows and run again.`;

/** Text coming from an expression may be a number; objects, lists and booleans are not text. */
function asText(at: Subject, value: unknown): string {
	if (typeof value === 'string') return value;
	if (typeof value === 'number' && Number.isFinite(value)) return String(value);
	throw invalid(at, 'must be text', describeValue(value), mapTextFix(at.label, value));
}

/** An expression gave an object, a list or true/false where one text is expected. */
function mapTextFix(label: string, value: unknown): string {
	const what = Array.isArray(value) ? 'a list' : typeof value === 'boolean' ? 'true/false' : 'an object';
	return `The expression in ${label} gives ${what}: map one text value instead, e.g. {{ $json.name }} rather than {{ $json }}.`;
}

// ---------------------------------------------------------------------------------------------
// Checks

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

/** A string: presence, type, length in characters, pattern. */
export function text(options: TextOptions = {}): Check {
	return (raw, at) => {
		if (isAbsent(raw)) {
			if (options.required) throw missing(at);
			return undefined;
		}
		let value = asText(at, raw);
		if (options.trim) value = value.trim();
		const length = charLength(value);
		if (
			(options.min !== undefined && length < options.min) ||
			(options.max !== undefined && length > options.max)
		) {
			throw invalid(
				at,
				lengthRule(options.min, options.max),
				count(length, 'character'),
				options.fix ?? lengthFix(at.label, length, options.min, options.max),
			);
		}
		if (options.pattern && !options.pattern.test(value)) {
			throw invalid(
				at,
				options.patternRule ?? `must match ${options.pattern.source}`,
				describeValue(value),
				options.fix ?? formFix(at.label),
			);
		}
		const broken = options.check?.(value);
		if (broken) {
			throw invalid(at, broken, describeValue(value), options.fix ?? formFix(at.label));
		}
		return value;
	};
}

/**
 * A picker's (resource locator's) stored value, `{ __rl: true, mode, value }`. n8n's routing
 * already hands the checks the bare value (its `extractValue`); this catches the object when it
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

/** A long run of letters and digits: an ID copied wrongly (cut, upper case), not a name. */
const ID_LIKE = /^[a-z0-9]{20,}$/i;

/**
 * What to do with a value that is not an `<id>`. A value that reads like a name ("VIP", "Sales
 * Bot") goes where names go (`byName`: "put names under Tag Names", "switch Tag to Name"); one
 * that reads like a damaged ID is copied again.
 */
function idFix(value: string, byName?: string): string {
	if (!ID_LIKE.test(value)) {
		const where = byName ? `; ${byName}` : '; give the ID instead';
		const looks = isPhoneNumberForm(value) ? 'a phone number' : 'a name';
		return `${describeValue(value)} looks like ${looks}, not an ID${where}. IDs look like ${ID_PLACEHOLDER}.`;
	}
	return `Copy the ID again exactly as the platform shows it: "c" and 24 lowercase letters or digits, 25 characters in all (this one has ${charLength(value)}), e.g. ${ID_PLACEHOLDER}.`;
}

export interface IdOptions {
	required?: boolean;
	/** where names go instead, when the panel has a place for them: 'put names under Tag Names' */
	byName?: string;
}

/**
 * `<id>` of the spec: "c" and 24 lowercase letters or digits. Accepts the id as a plain string or
 * as a picker's `{ mode, value }`, and gives the bare id.
 */
export function id(options: IdOptions = {}): Check {
	const asTrimmedText = text({ required: options.required, trim: true });
	return (raw, at) => {
		const value = asTrimmedText(isLocatorValue(raw) ? raw.value : raw, at) as string | undefined;
		if (value === undefined || ID_PATTERN.test(value)) return value;
		throw invalid(at, ID_RULE, describeValue(value), idFix(value, options.byName));
	};
}

const LID_FORM = /^[^@\s]+@lid$/i;
/** A channel ID of a contact: a LID (…@lid) or a JID (…@s.whatsapp.net). */
const CHANNEL_ID_FORM = /^[^@\s]+@(lid|s\.whatsapp\.net)$/i;

/**
 * A phone number as people write one (our reading of the spec's "a phone number", no format
 * given): digits with an optional leading +, and spaces, dashes, dots or parentheses between them;
 * at least 8 digits (country and area code and the number are never fewer). "Alice phone" is not.
 */
const NUMBER_FORM = /^\+?[\d\s().-]+$/;
const MIN_DIGITS = 8;
export const isPhoneNumberForm = (value: string): boolean =>
	NUMBER_FORM.test(value) && (value.match(/\d/g) ?? []).length >= MIN_DIGITS;

/**
 * What a phone field takes besides a number, by what the spec says of it:
 * - 'number' (custom fields: "country code + area code + number"; number validation): nothing else;
 * - 'numberOrLid' (remove-from-contact: "a phone number or a contact LID"): a LID ending in @lid;
 * - 'anyFormat' (stop automation: "any format", matched approximately): the contact's LID or JID.
 */
export type PhoneForm = 'number' | 'numberOrLid' | 'anyFormat';

/** The rule and the fix every phone field says, in the same words; the alternatives by form. */
const PHONE_WORDS: Record<PhoneForm, { rule: string; also: string; accepts: (value: string) => boolean }> = {
	number: { rule: '', also: '', accepts: () => false },
	numberOrLid: {
		rule: ', or a contact LID ending in @lid, like 123456789012345@lid',
		also: ", or the contact's LID (ending in @lid)",
		accepts: (value) => LID_FORM.test(value),
	},
	anyFormat: {
		rule: ', or the contact\'s LID or JID (ending in @lid or @s.whatsapp.net)',
		also: ", or the contact's LID or JID (ending in @lid or @s.whatsapp.net)",
		accepts: (value) => CHANNEL_ID_FORM.test(value),
	},
};

/**
 * The one check of every phone field (DESIGN.md, "True where it is said": every rule of a field on
 * every operation that takes it, in the same words): 8-30 characters (the spec's limit for a phone
 * number) and a number as people write one (isPhoneNumberForm), or, where the spec allows it, the
 * contact's LID (and in Stop in Chat, "any format", its JID). Anything else is refused before
 * sending.
 */
export function phone(options: { required?: boolean; form: PhoneForm }): Check {
	const words = PHONE_WORDS[options.form];
	return text({
		required: options.required,
		trim: true,
		min: PHONE_MIN_LENGTH,
		max: PHONE_MAX_LENGTH,
		fix: `Give the contact's number with country and area code, e.g. 5511987650001 or +55 11 98765-0001 (8-30 characters: digits, with an optional +, spaces, dashes, dots or parentheses)${words.also}.`,
		check: (value) =>
			isPhoneNumberForm(value) || words.accepts(value)
				? undefined
				: `must be a phone number with country and area code (at least ${MIN_DIGITS} digits, with an optional +, spaces, dashes, dots or parentheses)${words.rule}`,
	});
}

/**
 * What to do with a text that should be a number: a decimal comma ("7,5") is written with a point
 * ("7.5"); anything else is given as digits.
 */
export function numberFix(raw: string): string {
	const typed = raw.trim();
	if (/^-?\d+,\d+$/.test(typed)) {
		return `Write the decimal with a point: "${typed.replace(',', '.')}", not "${typed}" (the API reads JSON numbers).`;
	}
	return 'Give digits with an optional decimal point, e.g. 42 or 3.5, or choose Value Type Text to send it as text.';
}

export interface IntegerOptions {
	required?: boolean;
	min?: number;
	max?: number;
}

/** A whole number; a string of digits from an expression is accepted and given as a number. */
export function integer(options: IntegerOptions = {}): Check {
	const range =
		options.min !== undefined && options.max !== undefined
			? `a whole number from ${options.min} to ${options.max}`
			: options.min !== undefined
				? `a whole number of ${options.min} or more`
				: 'a whole number';
	return (raw, at) => {
		if (raw === undefined || raw === null || (typeof raw === 'string' && raw.trim() === '')) {
			if (options.required) throw missing(at);
			return undefined;
		}
		let value: number | undefined;
		if (typeof raw === 'number') value = raw;
		else if (typeof raw === 'string' && /^\s*-?\d+\s*$/.test(raw)) value = Number(raw);
		// Safe integers only: a larger number would not survive the trip through JSON unchanged.
		if (value === undefined || !Number.isSafeInteger(value)) {
			throw invalid(
				at,
				`must be ${range}`,
				describeValue(raw),
				`Give ${at.label} as digits only, without decimals, units or separators (e.g. ${Math.max(options.min ?? 0, Math.min(10, options.max ?? 10))}).`,
			);
		}
		if (
			(options.min !== undefined && value < options.min) ||
			(options.max !== undefined && value > options.max)
		) {
			throw invalid(at, `must be ${range}`, String(value), `Use ${range} and run again.`);
		}
		return value;
	};
}

/** true/false; the strings "true" and "false" from an expression are accepted. */
export function boolean(options: { required?: boolean } = {}): Check {
	return (raw, at) => {
		if (raw === undefined || raw === null || raw === '') {
			if (options.required) throw missing(at);
			return undefined;
		}
		if (typeof raw === 'boolean') return raw;
		if (raw === 'true' || raw === 'false') return raw === 'true';
		throw invalid(
			at,
			'must be true or false',
			describeValue(raw),
			`Switch ${at.label} on or off, or map an expression that gives true or false (the texts "true" and "false" work too).`,
		);
	};
}

/** One of the values of an enum (the node's option list for it). */
export function oneOf(
	options: INodePropertyOptions[] | readonly string[],
	settings: { required?: boolean } = {},
): Check {
	const values = options.map((option) => (typeof option === 'string' ? option : String(option.value)));
	return (raw, at) => {
		if (isAbsent(raw)) {
			if (settings.required) throw missing(at);
			return undefined;
		}
		if (typeof raw !== 'string' || !values.includes(raw)) {
			throw invalid(at, `must be one of ${values.join(', ')}`, describeValue(raw), oneOfFix(at.label, values, raw));
		}
		return raw;
	};
}

/** Choose from the list; a value that only differs in case is named. */
function oneOfFix(label: string, values: readonly string[], raw: unknown): string {
	const sameLetters =
		typeof raw === 'string' ? values.find((value) => value.toLowerCase() === raw.trim().toLowerCase()) : undefined;
	if (sameLetters) return `Write it exactly as ${sameLetters} (the values are case-sensitive) and run again.`;
	return `Choose ${label} from the list, or make the expression give one of these values exactly, and run again.`;
}

/** An absolute http(s) URL; `pattern` adds a form the URL must have. */
export function url(options: { required?: boolean; pattern?: RegExp; patternRule?: string; fix?: string } = {}): Check {
	return text({
		required: options.required,
		trim: true,
		fix: options.fix ?? 'Give the full address, starting with https:// or http://, e.g. https://example.com/hook.',
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
	/** with `ids`: where names go instead (see `id`) */
	byName?: string;
	/** each entry must be one of these */
	values?: readonly string[];
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

/** One value of a list, in the panel's words: "Tag Names, value 2" (counted from 1). */
export function valueOf(at: Subject, position: number): Subject {
	return { ...at, label: `${at.label}, value ${position}` };
}

/**
 * A list of strings given as multiple values, a comma-separated string, a JSON array from an
 * expression, or any mix of them. Blank entries are ignored. A value that breaks a rule is named
 * as the panel shows it, "Tag Names, value 2", not by its place on the wire (`tagNames[1]`).
 */
export function list(options: ListOptions): Check {
	return (raw, at) => {
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
					valueOf(at, position),
					'must be text (several values or one comma-separated text)',
					describeValue(value),
					`Give ${at.label} as texts: add one text per value, type one comma-separated text, or map an expression that gives a list of texts (e.g. {{ $json.ids }}, not a list of objects).`,
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
			if (options.required) throw missing(at, 'at least one value is required', `Add at least one value to ${at.label} and run again.`);
			return undefined;
		}
		if (options.max !== undefined && entries.length > options.max) {
			throw invalid(
				at,
				`must have at most ${options.max} values`,
				count(entries.length, 'value'),
				`Remove values down to ${options.max}, or split them over several items (each item is one request).`,
			);
		}
		entries.forEach((entry, index) => {
			if (options.ids && !ID_PATTERN.test(entry)) {
				throw invalid(valueOf(at, index + 1), ID_RULE, describeValue(entry), idFix(entry, options.byName));
			}
			if (options.values && !options.values.includes(entry)) {
				throw invalid(
					valueOf(at, index + 1),
					`must be one of ${options.values.join(', ')}`,
					describeValue(entry),
					oneOfFix(at.label, options.values, entry),
				);
			}
			const length = charLength(entry);
			if (
				(options.itemMin !== undefined && length < options.itemMin) ||
				(options.itemMax !== undefined && length > options.itemMax)
			) {
				throw invalid(
					valueOf(at, index + 1),
					lengthRule(options.itemMin, options.itemMax),
					count(length, 'character'),
					lengthFix(`value ${index + 1} of ${at.label}`, length, options.itemMin, options.itemMax),
				);
			}
		});
		return options.send === 'array' ? entries : entries.join(',');
	};
}

/** Parses a JSON parameter value given as text; values from expressions pass as they are. */
export function parseJsonValue(at: Subject, raw: unknown): unknown {
	if (typeof raw !== 'string') return raw;
	try {
		return JSON.parse(raw);
	} catch (error) {
		throw invalid(
			at,
			`must be valid JSON (text in double quotes, a number, true/false, a list or an object) - ${(error as Error).message}`,
			describeValue(raw),
			`Correct the JSON in ${at.label}: names and texts in double quotes, e.g. {"plan": "gold"}; a plain text value is "gold" with its quotes.`,
		);
	}
}

/** An HTTP header name (RFC 9110 token). */
export const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/**
 * A fixedCollection of `{key, value}` pairs (webhook headers): n8n gives the collection as
 * `{<option>: [...]}`; the API wants the bare array. The spec sets no limit on their number or form
 * (the API decides), so only the types are checked.
 */
export function keyValueList(option: string): Check {
	return (value, at) => {
		let raw = value;
		if (raw && typeof raw === 'object' && !Array.isArray(raw)) raw = (raw as IDataObject)[option];
		if (typeof raw === 'string') raw = parseJsonValue(at, raw);
		if (isAbsent(raw)) return undefined;
		if (!Array.isArray(raw)) {
			throw invalid(
				at,
				'must be a list of {key, value} pairs',
				describeValue(raw),
				`Add the entries one by one with the button under ${at.label}, or give a JSON list like [{"key": "x-source", "value": "n8n"}].`,
			);
		}
		return raw.map((entry, index) => {
			const pair = (entry ?? {}) as IDataObject;
			const key = typeof pair.key === 'string' ? pair.key.trim() : pair.key;
			const pairValue = pair.value ?? '';
			if (typeof key !== 'string' || key === '') {
				throw invalid(
					at,
					`entry ${index + 1} needs a header name (Key)`,
					describeValue(key),
					`Fill in the Key of entry ${index + 1}, or remove the entry.`,
				);
			}
			if (typeof pairValue !== 'string' && typeof pairValue !== 'number' && typeof pairValue !== 'boolean') {
				throw invalid(
					at,
					`entry ${index + 1} needs a text value`,
					describeValue(pairValue),
					`Make the Value of entry ${index + 1} one text (an expression giving an object or a list needs .field or JSON.stringify()).`,
				);
			}
			return { key, value: String(pairValue) };
		});
	};
}
