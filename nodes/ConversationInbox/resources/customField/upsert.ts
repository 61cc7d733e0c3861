import type { IDataObject, INodeProperties } from 'n8n-workflow';

import type { Check, Subject } from '../../../shared/checks';
import { describeValue, invalid, isAbsent, missing, numberFix, parseJsonValue, phone } from '../../../shared/checks';
import type { Field } from '../../helpers/fields';
import { additionalFields, body, CLEARING_VALUE, idHint, PHONE_NUMBER, PHONE_NUMBER_V1, WHERE_TO_FIND } from '../../helpers/fields';
import { defineOperation } from '../../helpers/operation';
import type { Unwrap } from '../../helpers/output';
import { pick } from '../../helpers/output';
import type { Rule } from '../../helpers/prepare';
import { readTarget, subject, writeTarget } from '../../helpers/prepare';

/**
 * What a typed value is sent as: Text (the default), Number, Boolean or JSON; or Clear, the one way
 * to empty a field (an empty Value is refused: DESIGN.md, "Clearing is explicit").
 */
const VALUE_TYPES = [
	{ name: 'Text', value: 'text', description: 'Sent as text, exactly as given (e.g. 0123456789 stays text)' },
	{ name: 'Number', value: 'number', description: 'Sent as a JSON number, e.g. 42 or 3.5' },
	{ name: 'Boolean', value: 'boolean', description: 'Sent as true or false' },
	{ name: 'JSON', value: 'json', description: 'Parsed as JSON: an object, a list, a number, true/false, null or "text"' },
	{ name: 'Clear (No Value)', value: 'clear', description: "Removes the contact's value of this field: sends no value (null). Value is not used." },
];
const CLEAR = 'clear';
const NUMBER = /^\s*-?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\s*$/;

/**
 * The value of one template-field input. A value an expression produced keeps its type (an object,
 * a list, a number, a boolean, null); text is sent as text unless the Value Type says otherwise, so
 * "São Paulo", "0123456789" or "true" mapped from an item arrive as the text they are.
 */
function typedValue(at: Subject, entry: IDataObject, index: number): unknown {
	const value = { ...at, label: `Value of input ${index + 1}` };
	const raw = entry.value;
	const type = entry.valueType ?? 'text';
	if (type === CLEAR) return CLEARING_VALUE.single;
	// Empty never clears (a beginner's empty Value wiped the contact's field): say how to clear.
	if (isAbsent(raw)) {
		throw missing(
			value,
			`type a value, or set Value Type of input ${index + 1} to Clear (No Value) to remove the contact's value`,
			`An empty value is not sent: it would overwrite the contact's value. Type the value, or choose Value Type Clear (No Value) for input ${index + 1} to remove it.`,
		);
	}
	if (typeof raw !== 'string') return raw;
	switch (type) {
		case 'text':
			return raw;
		case 'number':
			if (!NUMBER.test(raw)) throw invalid(value, 'must be a number (Value Type Number)', describeValue(raw), numberFix(raw));
			return Number(raw);
		case 'boolean':
			if (raw.trim() !== 'true' && raw.trim() !== 'false') {
				throw invalid(
					value,
					'must be true or false (Value Type Boolean)',
					describeValue(raw),
					'Write true or false, or choose Value Type Text to send the word as text.',
				);
			}
			return raw.trim() === 'true';
		case 'json':
			return parseJsonValue(value, raw);
		default:
			throw invalid(
				{ ...at, label: `Value Type of input ${index + 1}` },
				`must be one of ${VALUE_TYPES.map((t) => t.value).join(', ')}`,
				describeValue(type),
				'Choose the Value Type from the list.',
			);
	}
}

/** The value of one template-field entry, as the version's form gives it. */
export type EntryValue = (at: Subject, entry: IDataObject, index: number) => unknown;

/** The template-field entries of the form, each as `{sourceType: 'TEMPLATE_FIELD', templateFieldId, valueJson}`. */
const templateFieldInputs = (valueOf: EntryValue): Check => (value, at) => {
	let raw = value;
	if (raw && typeof raw === 'object' && !Array.isArray(raw)) raw = (raw as IDataObject).templateField;
	return (Array.isArray(raw) ? raw : []).map((entry: IDataObject, index) => {
		const templateFieldId =
			typeof entry?.templateFieldId === 'string' ? entry.templateFieldId.trim() : entry?.templateFieldId;
		if (typeof templateFieldId !== 'string' || templateFieldId === '') {
			throw invalid(
				{ ...at, label: `Template Field ID of input ${index + 1}` },
				'a value is required',
				describeValue(templateFieldId),
				`Fill in the Template Field ID of input ${index + 1}, or remove the input.`,
			);
		}
		return {
			sourceType: 'TEMPLATE_FIELD',
			templateFieldId,
			valueJson: valueOf(at, entry ?? {}, index) as IDataObject[string],
		};
	});
};

/** The Template Field Inputs list: a Template Field ID and the version's value parameters per entry. */
export function templateFieldInputsField(values: INodeProperties[], valueOf: EntryValue): Field {
	return body(
	{
		displayName: 'Template Field Inputs',
		name: 'inputs',
		type: 'fixedCollection',
		placeholder: 'Add Template Field',
		typeOptions: { multipleValues: true },
		default: {},
		description: 'Values of fields defined by a custom-field template',
		options: [
			{
				displayName: 'Template Field',
				name: 'templateField',
				values: [
					{
						displayName: 'Template Field ID',
						name: 'templateFieldId',
						type: 'string',
						default: '',
						placeholder: 'e.g. clx2v8k1h0000abcd1234efgh',
						description: 'ID of the field in its custom-field template',
						hint: idHint(WHERE_TO_FIND.templateField),
					},
					...values,
				],
			},
		],
	},
	templateFieldInputs(valueOf),
	);
}

const inputs = templateFieldInputsField(
	[
		{
			displayName: 'Value Type',
			name: 'valueType',
			type: 'options',
			options: VALUE_TYPES,
			default: 'text',
			description:
				'How a typed value is sent, or Clear to remove the value. A value from an expression keeps its own type (text stays text, a number, an object or a list stays as it is).',
		},
		{
			displayName: 'Value',
			name: 'value',
			type: 'string',
			default: '',
			placeholder: 'e.g. Gold',
			description: 'The value of the field, sent as the Value Type says. An empty value is refused: to remove the value, choose Value Type Clear (No Value).',
			displayOptions: { hide: { valueType: [CLEAR] } },
		},
	],
	typedValue,
);

/** Where the entries travel (both versions). */
const INPUTS = { in: 'body', key: 'inputs', label: 'Template Field Inputs' } as const;

/**
 * `inputs` of the API: the template-field entries, then the extra-field entries given as raw JSON,
 * whose shape the spec does not show and which are sent as they are (README → Assumptions:
 * `{sourceType: "EXTRA_FIELD", key, label?, valueJson}`). At least one entry.
 */
export const withExtraInputs: Rule = (ctx) => {
	const target = INPUTS;
	const entries = [...((readTarget(ctx, target) as IDataObject[] | undefined) ?? [])];
	const additional = (ctx.fn.getNodeParameter('additionalFields', {}) ?? {}) as IDataObject;
	const extraRaw = additional.extraFieldInputs;
	if (extraRaw !== undefined && extraRaw !== null && extraRaw !== '') {
		const at = subject(ctx, 'Extra Field Inputs');
		let extra = parseJsonValue(at, extraRaw);
		if (extra && typeof extra === 'object' && !Array.isArray(extra)) extra = [extra];
		if (!Array.isArray(extra) || extra.some((e) => !e || typeof e !== 'object' || Array.isArray(e))) {
			throw invalid(
				at,
				`must be a JSON list of objects, like ${EXTRA_FIELD_EXAMPLE}`,
				describeValue(extra),
				'Write each extra field as an object in a list: [ {…}, {…} ], even for one field.',
			);
		}
		entries.push(...(extra as IDataObject[]));
	}
	if (entries.length === 0) {
		throw missing(subject(ctx, target.label), 'add at least one template field input or extra field input');
	}
	writeTarget(ctx, target, entries);
};

/** The assumed extra-field shape (the spec does not show it; README → Assumptions). */
export const EXTRA_FIELD_EXAMPLE = '[{"sourceType": "EXTRA_FIELD", "key": "plan", "valueJson": "gold"}]';

/** What both versions of the operation share: everything but the value of a template field, and the output. */
export const UPSERT = {
	resource: 'customField',
	operation: 'upsert',
	name: 'Create or Update',
	action: "Create or update a contact's custom fields",
	method: 'POST',
	path: '/inbox/upsert-custom-fields-by-phone-number',
	/** The Phone Number of a version (its property; the check is the same). */
	phoneNumber: (version: 1 | 2) => body(version === 1 ? PHONE_NUMBER_V1 : PHONE_NUMBER, phone({ required: true, form: 'number' })),
	extraFieldInputs: additionalFields([
		{
			displayName: 'Extra Field Inputs (JSON)',
			name: 'extraFieldInputs',
			type: 'json',
			default: '[]',
			description: `Inputs for extra fields (fields not from a template), as a JSON list of objects sent as they are after the template field inputs. The API does not document their shape; the node assumes ${EXTRA_FIELD_EXAMPLE}.`,
		},
	]),
	rules: [withExtraInputs],
	assumption: `The API does not document the shape of extra-field inputs; they are sent exactly as given under Extra Field Inputs (the node assumes ${EXTRA_FIELD_EXAMPLE}). If the API's message names a field of them, write them in the shape the API expects.`,
} as const;

/**
 * Whose fields they are: the answer does not name the contact, so the item carries the phone
 * number it was given (with 5 contacts in, 5 items that say which is which).
 */
const withPhoneNumber: Unwrap = (answer, request) => {
	const { phoneNumber } = (request.body ?? {}) as IDataObject;
	return pick('response')(answer, request).map((json) => ({ phoneNumber, ...json }));
};

/**
 * Version 2 (version 1, as released in 0.1.0, is upsert.v1.ts): each value with its Value Type,
 * an empty value refused, Clear (No Value) to remove one, and the phone number in the output.
 */
export const customFieldUpsert = defineOperation({
	...UPSERT,
	description:
		'Set the values of custom fields of a contact, found by phone number: fields of a custom-field template (by template field ID, a value of the chosen type, or Clear) and extra fields (raw JSON). Returns { phoneNumber, customFields }.',
	fields: [UPSERT.phoneNumber(2), inputs, UPSERT.extraFieldInputs],
	rules: [...UPSERT.rules],
	versions: [2],
	// One item: { phoneNumber, customFields: [...] }
	output: { kind: 'single', unwrap: withPhoneNumber },
});
