import type { IDataObject } from 'n8n-workflow';

import { additionalFields, idHint, phoneNumberParameter, toBody, WHERE_TO_FIND } from '../../helpers/fields';
import { defineOperation } from '../../helpers/operation';
import { pick } from '../../helpers/output';
import type { Rule } from '../../helpers/validation';
import {
	bodyField,
	describeValue,
	invalid,
	missing,
	parseJsonValue,
	readField,
	text,
	writeField,
} from '../../helpers/validation';

const inputs = bodyField('inputs', 'Template Field Inputs');
const extraFieldInputs = { key: 'extraFieldInputs', label: 'Extra Field Inputs' };

/**
 * `inputs` of the API: the template-field entries of the form (each becomes
 * `{sourceType: 'TEMPLATE_FIELD', templateFieldId, valueJson}`), then the extra-field entries given
 * as raw JSON, whose shape the spec does not show and which are sent as they are.
 */
const buildInputs: Rule = (ctx) => {
	let raw = readField(ctx, inputs);
	if (raw && typeof raw === 'object' && !Array.isArray(raw)) raw = (raw as IDataObject).templateField;
	const entries: IDataObject[] = [];
	(Array.isArray(raw) ? raw : []).forEach((entry: IDataObject, index) => {
		const position = `entry ${index + 1}`;
		const templateFieldId =
			typeof entry?.templateFieldId === 'string' ? entry.templateFieldId.trim() : entry?.templateFieldId;
		if (typeof templateFieldId !== 'string' || templateFieldId === '') {
			throw invalid(ctx, inputs, `${position} needs a Template Field ID (templateFieldId)`, describeValue(templateFieldId));
		}
		const valueJson = parseJsonValue(
			ctx,
			{ key: `inputs[${index}].valueJson`, label: `Value (JSON) of ${position}` },
			entry.valueJson === undefined ? 'null' : entry.valueJson,
		);
		entries.push({
			sourceType: 'TEMPLATE_FIELD',
			templateFieldId,
			valueJson: valueJson as IDataObject[string],
		});
	});

	const additionalFields = (ctx.fn.getNodeParameter('additionalFields', {}) ?? {}) as IDataObject;
	const extraRaw = additionalFields.extraFieldInputs;
	if (extraRaw !== undefined && extraRaw !== null && extraRaw !== '') {
		let extra = parseJsonValue(ctx, extraFieldInputs, extraRaw);
		if (extra && typeof extra === 'object' && !Array.isArray(extra)) extra = [extra];
		if (!Array.isArray(extra) || extra.some((e) => !e || typeof e !== 'object' || Array.isArray(e))) {
			throw invalid(
				ctx,
				extraFieldInputs,
				'must be a JSON list of objects, like [{"key": "plan", "valueJson": "gold"}]',
				describeValue(extra),
			);
		}
		entries.push(...(extra as IDataObject[]));
	}

	if (entries.length === 0) {
		throw missing(ctx, inputs, 'add at least one template field input or extra field input');
	}
	writeField(ctx, inputs, entries);
};

export const upsert = defineOperation({
	resource: 'customField',
	operation: 'upsert',
	name: 'Create or Update',
	action: "Create or update a contact's custom fields",
	description:
		'Set the values of custom fields of a contact, found by phone number: fields of a custom-field template (by template field ID, value as JSON) and extra fields (raw JSON). Returns { customFields }.',
	method: 'POST',
	path: '/inbox/upsert-custom-fields-by-phone-number',
	fields: [
		phoneNumberParameter({
			description:
				'Phone number of the contact: country code, area code and number (e.g. 5511999998888 for +55 11 99999-8888)',
			routing: toBody('phoneNumber'),
		}),
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
						{
							displayName: 'Value (JSON)',
							name: 'valueJson',
							type: 'json',
							default: '""',
							description:
								'The value as JSON: text in double quotes ("Gold"), a number (42), true/false, a list or an object',
						},
					],
				},
			],
			routing: toBody('inputs'),
		},
		additionalFields([
			{
				displayName: 'Extra Field Inputs (JSON)',
				name: 'extraFieldInputs',
				type: 'json',
				default: '[]',
				description:
					'Inputs for extra fields (fields not from a template), as a JSON list of objects sent as they are after the template field inputs. Their shape is not documented by the API.',
			},
		]),
	],
	rules: [text(bodyField('phoneNumber', 'Phone Number'), { required: true, trim: true }), buildInputs],
	// One item: { customFields: [...] }
	output: { kind: 'single', unwrap: pick('response') },
});
