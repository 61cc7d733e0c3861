import type { INodeProperties, INodePropertyModeTypeOptions } from 'n8n-workflow';

import { ID_PATTERN, ID_PLACEHOLDER, ID_RULE } from './constants';

/**
 * The two modes every picker (resource locator) of the package offers: "From List" (a list-search
 * method that pages through the API and filters by the typed text) and "By ID" (the spec's `<id>`,
 * checked by the editor as the user types, and again before anything is sent).
 *
 * Workflows may hold a picker's value as `{ __rl: true, mode, value }` (what the editor saves) or
 * as a plain string (older saves, hand-written JSON): n8n's routing reads both the same way
 * (`extractValue`), and the field's check (shared/checks.ts `id`) checks the `<id>` pattern either way.
 */

/**
 * The "By ID" modes' check in the editor: `ID_PATTERN` without anchors (the editor wraps mode
 * validation regexes in `^...$` itself), or nothing. n8n checks an empty value against the regex
 * too, so a fresh field showed "Not a … ID" beside "required"; an empty value is the required
 * check's to report (and the node's check refuses it before sending).
 */
export const ID_MODE_REGEX = `(?:${ID_PATTERN.source.replace(/^\^/, '').replace(/\$$/, '')})?`;

export interface LocatorSettings {
	displayName: string;
	name: string;
	description: string;
	/** the list-search method of "From List" */
	searchListMethod: string;
	/** "From List" placeholder, e.g. 'Select an integration...' */
	listPlaceholder: string;
	/** more type options of "From List" (e.g. a slow-load notice) */
	listTypeOptions?: Omit<INodePropertyModeTypeOptions, 'searchListMethod'>;
	/** names the thing in the "By ID" error message, e.g. 'integration' */
	what: string;
	/** hint under "By ID": where the ID comes from */
	idHint: string;
}

/**
 * A resource locator with "From List" (`searchListMethod` called with the typed text and, when the
 * user scrolls, the token it returned) and "By ID" (an `<id>`, checked by the editor as the user
 * types). Its default is an empty "From List" value.
 */
export function locatorProperty(settings: LocatorSettings): INodeProperties {
	return {
		displayName: settings.displayName,
		name: settings.name,
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		description: settings.description,
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				placeholder: settings.listPlaceholder,
				typeOptions: {
					searchListMethod: settings.searchListMethod,
					searchable: true,
					...settings.listTypeOptions,
				},
			},
			{
				displayName: 'By ID',
				name: 'id',
				type: 'string',
				placeholder: `e.g. ${ID_PLACEHOLDER}`,
				hint: settings.idHint,
				validation: [
					{
						type: 'regex',
						properties: {
							regex: ID_MODE_REGEX,
							errorMessage: `The ${settings.what} ID ${ID_RULE}; to find it by its name, choose From List`,
						},
					},
				],
			},
		],
	};
}

/** Case-insensitive "contains" over the given texts; an empty filter matches everything. */
export function textMatcher(filter: string | undefined): (...texts: unknown[]) => boolean {
	const needle = (filter ?? '').trim().toLowerCase();
	return (...texts) =>
		needle === '' ||
		texts.some(
			(text) =>
				(typeof text === 'string' || typeof text === 'number') &&
				String(text).toLowerCase().includes(needle),
		);
}

/**
 * For phone numbers and channel chat ids: a typed number may carry +, spaces, dashes or brackets
 * ("+55 (11) 99999-8888"), so its digits are compared with the digits of each text. Matches
 * nothing unless the filter looks like a number of at least 3 digits.
 */
export function phoneMatcher(filter: string | undefined): (...texts: unknown[]) => boolean {
	const needle = (filter ?? '').trim();
	const digits = /^[+\d\s().-]+$/.test(needle) ? needle.replace(/\D/g, '') : '';
	return (...texts) =>
		digits.length >= 3 &&
		texts.some(
			(text) =>
				(typeof text === 'string' || typeof text === 'number') &&
				String(text).replace(/\D/g, '').includes(digits),
		);
}

/** The first argument that is a non-empty string (numbers are turned into text). */
export function firstText(...values: unknown[]): string | undefined {
	for (const value of values) {
		if (typeof value === 'string' && value.trim() !== '') return value.trim();
		if (typeof value === 'number' && Number.isFinite(value)) return String(value);
	}
	return undefined;
}
