import type { IDataObject } from 'n8n-workflow';

import { parseJsonValue } from '../../../shared/checks';
import { defineOperation } from '../../helpers/operation';
import { pick } from '../../helpers/output';
import type { EntryValue } from './upsert';
import { templateFieldInputsField, UPSERT } from './upsert';

/** 0.1.0's value of an entry: Value (JSON), parsed; an entry without one sends null. */
const jsonValue: EntryValue = (at, entry: IDataObject, index) =>
	parseJsonValue({ ...at, label: `Value (JSON) of input ${index + 1}` }, entry.valueJson === undefined ? 'null' : entry.valueJson);

/**
 * Custom Field → Create or Update as released in 0.1.0 (node version 1): each template field's
 * value is typed as JSON under Value (JSON), default `""`. Frozen: the parameters and the request
 * are those of 0.1.0, which the fixtures under test/fixtures/0.1.0 guard. Version 2 (upsert.ts)
 * takes a value with its Value Type, refuses an empty one and clears only when asked.
 */
export const customFieldUpsertV1 = defineOperation({
	...UPSERT,
	description:
		'Set the values of custom fields of a contact, found by phone number: fields of a custom-field template (by template field ID, value as JSON) and extra fields (raw JSON). Returns { customFields }.',
	fields: [
		UPSERT.phoneNumber(1),
		templateFieldInputsField(
			[
				{
					displayName: 'Value (JSON)',
					name: 'valueJson',
					type: 'json',
					default: '""',
					description:
						'The value as JSON: text in double quotes ("Gold"), a number (42), true/false, a list or an object',
				},
			],
			jsonValue,
		),
		UPSERT.extraFieldInputs,
	],
	rules: [...UPSERT.rules],
	versions: [1],
	// One item: { customFields: [...] }
	output: { kind: 'single', unwrap: pick('response') },
});
