import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { phone } from '../../../shared/checks';
import { PHONE_NUMBER, query } from '../../helpers/fields';
import type { OperationDefinition } from '../../helpers/operation';
import { defineOperation } from '../../helpers/operation';
import type { Unwrap } from '../../helpers/output';
import { pick } from '../../helpers/output';
import { WIRE } from '../../../shared/wireNames';

/** Where the answer holds the contact's custom fields: { fields: [...], assignedTemplateIds: [...] }. */
const CUSTOM_FIELDS_AT = 'response.customFields';

/** The Phone Number of a version (its property; the check is the same). */
export const phoneNumberField = (property: INodeProperties) =>
	query(property, phone({ required: true, form: 'number' }), { key: WIRE.customFieldsRead.phoneNumber });

/** What both versions share: the request and the API's shape of the answer. */
export const GET = {
	resource: 'customField',
	operation: 'get',
	name: 'Get',
	action: "Get a contact's custom fields by phone",
	method: 'GET',
	path: '/inbox/get-custom-fields-from-chat',
	wireNames: WIRE.customFieldsRead,
	// One item: { fields: [...], assignedTemplateIds: [...] }
	output: { kind: 'single', unwrap: pick(CUSTOM_FIELDS_AT) },
} satisfies Omit<OperationDefinition, 'description' | 'fields'>;

/**
 * Simplify: one item with the phone number it is for and each field's key with its value, so
 * `{{ $json.plan }}` reads the field "plan" (a field without a key is named by its label, then its
 * ID). The number is the one sent (under any name); a field whose key is "phoneNumber" does not replace it.
 */
export const simplified: Unwrap = (body, request) =>
	pick(CUSTOM_FIELDS_AT)(body, request).map((customFields) => {
		const fields = Array.isArray(customFields.fields) ? (customFields.fields as IDataObject[]) : [];
		const item: IDataObject = {};
		for (const field of fields) {
			const name = [field?.key, field?.label, field?.id].find((candidate) => typeof candidate === 'string' && candidate !== '');
			if (typeof name === 'string') item[name] = field.value as IDataObject[string];
		}
		// Under Rename Sent Fields the query names the number otherwise.
		const sentAs = request.renamed?.[WIRE.customFieldsRead.phoneNumber] ?? WIRE.customFieldsRead.phoneNumber;
		return { ...item, phoneNumber: request.qs?.[sentAs] as string };
	});

/**
 * Version 2 (version 1, as released in 0.1.0, is get.v1.ts): Simplify, on for new nodes, gives one
 * item of keys and values with the phone number; off, the API's fields with their IDs and types.
 */
export const customFieldGet = defineOperation({
	...GET,
	description:
		'Read the custom fields of a contact, found by phone number. Simplified (the default): one item with the phone number and each field\'s key and value. Otherwise one item { fields, assignedTemplateIds }: each field with its ID, key, label, type and value.',
	fields: [
		phoneNumberField(PHONE_NUMBER),
		{
			displayName: 'Simplify',
			name: 'simplify',
			type: 'boolean',
			default: true,
			description:
				'Whether to return one item with the phone number and each field\'s key with its value (e.g. plan: "Gold"), instead of the fields with their IDs, labels and types and the assigned template IDs',
		},
	],
	output: { kind: 'single', unwrap: pick(CUSTOM_FIELDS_AT), simplified: { parameter: 'simplify', unwrap: simplified } },
	versions: [2],
});
