import type { INodeProperties, INodePropertyRouting } from 'n8n-workflow';

import { ID_PLACEHOLDER } from '../../shared/constants';

/** Routing that puts the parameter's value into the body / query string under its API name. */
export const toBody = (property: string): INodePropertyRouting => ({
	send: { type: 'body', property, propertyInDotNotation: false },
});
export const toQuery = (property: string): INodePropertyRouting => ({
	send: { type: 'query', property, propertyInDotNotation: false },
});

export const PHONE_PLACEHOLDER = 'e.g. 5511999998888';

/** The contact's phone number field, as every operation that takes one shows it. */
export function phoneNumberParameter(options: {
	description: string;
	routing: INodePropertyRouting;
	required?: boolean;
}): INodeProperties {
	return {
		displayName: 'Phone Number',
		name: 'phoneNumber',
		type: 'string',
		...(options.required === false ? {} : { required: true }),
		default: '',
		placeholder: PHONE_PLACEHOLDER,
		description: options.description,
		routing: options.routing,
	};
}
export const LID_EXAMPLE = '123456789012345@lid';
export const GROUP_JID_EXAMPLE = '120363025246125486@g.us';
export const CHANNEL_CHAT_ID_EXAMPLE = '5511999998888@s.whatsapp.net';
export const ID_HINT = `An ID looks like ${ID_PLACEHOLDER}: "c" followed by 24 lowercase letters or digits`;

/**
 * Where to find the IDs of things the API cannot list (so no picker can offer them). Shown as the
 * field's hint, before the ID form.
 */
export const WHERE_TO_FIND = {
	tag: 'The API cannot list tags: copy the ID from the tag in the Conversation Inbox platform, or take "id" from the output of Tag → Create.',
	automationTrigger:
		'The API cannot list automation triggers: copy the ID from the automation in the Conversation Inbox platform.',
	botIntegration:
		'The API cannot list bot flows: Bot Integration → Create returns the bot integration\'s "id", or copy it from the bot integration in the Conversation Inbox platform.',
	sector:
		'The API cannot list sectors: each integration from Integration → Get Many carries the ID of its sector in "sectorId".',
	templateField:
		'The API cannot list custom-field templates: Custom Field → Get on a contact that uses the template shows its fields with their "id" and "key", or copy the ID from the platform.',
} as const;

/** The hint of an ID field: where to find the ID, then what an ID looks like. */
export function idHint(whereToFind?: string): string {
	return whereToFind ? `${whereToFind} IDs look like ${ID_PLACEHOLDER}.` : ID_HINT;
}

/** A string parameter holding one `<id>`; `whereToFind` says where users get the ID. */
export function idParameter(
	options: Omit<INodeProperties, 'type' | 'default'> & { default?: string; whereToFind?: string },
): INodeProperties {
	const { whereToFind, ...rest } = options;
	return {
		type: 'string',
		default: '',
		placeholder: `e.g. ${ID_PLACEHOLDER}`,
		hint: idHint(whereToFind),
		...rest,
	} as INodeProperties;
}

/** A list of strings: several values, or one comma-separated text, or a list from an expression. */
export function listParameter(
	options: Omit<INodeProperties, 'type' | 'default'> & { buttonText: string },
): INodeProperties {
	const { buttonText, ...rest } = options;
	return {
		type: 'string',
		default: [],
		typeOptions: { multipleValues: true, multipleValueButtonText: buttonText },
		...rest,
	} as INodeProperties;
}

/** Return All and Limit of a list operation; `pageHint` tells how the node pages. */
export function returnAllAndLimit(pageHint: string): INodeProperties[] {
	return [
		{
			displayName: 'Return All',
			name: 'returnAll',
			type: 'boolean',
			default: false,
			description: 'Whether to return all results or only up to a given limit',
			hint: pageHint,
		},
		{
			displayName: 'Limit',
			name: 'limit',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: 50,
			description: 'Max number of results to return',
			displayOptions: { show: { returnAll: [false] } },
		},
	];
}

/** A collection parameter of optional fields behind an "Add …" button. */
function optionalCollection(
	displayName: string,
	name: string,
	placeholder: string,
	options: INodeProperties[],
): INodeProperties {
	return { displayName, name, type: 'collection', placeholder, default: {}, options };
}

/** The "Additional Fields" collection of an operation: optional fields behind "Add Field". */
export const additionalFields = (options: INodeProperties[]): INodeProperties =>
	optionalCollection('Additional Fields', 'additionalFields', 'Add Field', options);

/**
 * The "Update Fields" collection of an Update operation: each field is sent only when the user adds
 * it (a partial update; DESIGN.md, "Update operations are partial").
 */
export const updateFields = (options: INodeProperties[]): INodeProperties =>
	optionalCollection('Update Fields', 'updateFields', 'Add Field', options);

/** The "Filters" collection of a list operation: optional filters behind "Add Filter". */
export const filters = (options: INodeProperties[]): INodeProperties =>
	optionalCollection('Filters', 'filters', 'Add Filter', options);
