import type { IDataObject, INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import type { Check } from '../../shared/checks';
import { oneOf } from '../../shared/checks';
import { ID_PLACEHOLDER } from '../../shared/constants';
import { chatLocatorProperty } from '../../shared/chatLocator';
import { integrationLocatorProperty } from '../../shared/integrationLocator';

/**
 * The fields of an operation. A field that carries one API value is declared once, with the check
 * its value must pass: `body(property, check)` / `query(property, check)` derive where the value
 * travels (the parameter's name, or the API's name given as `key`) and the name errors use (its
 * display name), so a rule can never point at another field than the one it checks.
 */

export type Location = 'body' | 'qs';

/** Where a field's value travels, under which name, and the name the panel shows. */
export interface Target {
	in: Location;
	key: string;
	label: string;
}

/** A field sent to the API, with its check. */
export interface SentField extends Target {
	check: Check;
	/** inside a collection (or shown only for some values of another field): checked only when sent */
	optional: boolean;
	/**
	 * Added but left empty: refused, with what to do instead (the message's reason, the description's
	 * fix). Empty never clears a setting; clearing is chosen in words (Fields to Clear; DESIGN.md,
	 * "Clearing is explicit").
	 */
	whenEmpty?: { reason: string; fix: string };
	/** required when another field's value asks for it (checked first, so its reason is the one shown) */
	requiredWhen?: RequiredWhen;
	/** where prepare.ts reads the value: the parameter's name, or `<collection>.<name>` */
	parameter: string;
	/** the collection holding it: read only when the user added it */
	collection?: string;
	/** a resource locator's value is read without its mode */
	extractValue: boolean;
	/** the field's own display rules (beyond resource and operation): read only while they show it */
	shownWhen?: INodeProperties['displayOptions'];
}

/** E.g. Specific Message is required when Trigger Type is RECEIVE_SPECIFIC_MESSAGE. */
export interface RequiredWhen {
	/** reads the request being prepared (the other field's value) */
	condition: (request: { body?: unknown; qs?: IDataObject }) => boolean;
	reason: string;
}

/** A parameter of the panel and, when it carries an API value, how that value is sent. */
export interface Field {
	property: INodeProperties;
	/** the fields it carries: itself, or a collection's added fields */
	sent: SentField[];
	/** the collection's "Fields to Clear" entry, when it has one */
	clearing?: Clearing;
}

/** What an operation lists as fields: checked fields, or plain parameters (no API value of their own). */
export type FieldSpec = Field | INodeProperties;

export function asField(spec: FieldSpec): Field {
	return 'property' in spec ? spec : { property: spec, sent: [] };
}

/**
 * The value is read by prepare.ts (`readSentFields`), once per item, as n8n's `routing.send` read it:
 * n8n's engine reads a property with `routing` twice more per item (for the request and again for
 * the Base URL), an expression evaluation each time (docs/performance.md).
 */
function sentField(location: Location, property: INodeProperties, check: Check, options: SendOptions): Field {
	const key = options.key ?? property.name;
	const target: SentField = {
		in: location,
		key,
		label: property.displayName,
		check,
		optional: false,
		parameter: property.name,
		extractValue: property.extractValue !== undefined || property.type === 'resourceLocator',
	};
	if (property.displayOptions) target.shownWhen = property.displayOptions;
	if (options.requiredWhen) target.requiredWhen = options.requiredWhen;
	return { property, sent: [target] };
}

interface SendOptions {
	/** the API's name (wireNames.ts), when it is not the parameter's name */
	key?: string;
	requiredWhen?: RequiredWhen;
}

/** A field whose value travels in the JSON body. */
export const body = (property: INodeProperties, check: Check, options: SendOptions = {}): Field =>
	sentField('body', property, check, options);

/** A field whose value travels in the query string. */
export const query = (property: INodeProperties, check: Check, options: SendOptions = {}): Field =>
	sentField('qs', property, check, options);

/** Where a field is sent, for the rules that relate several fields (e.g. at least one of them). */
export function targetOf(field: Field): Target {
	const [sent] = field.sent;
	return { in: sent.in, key: sent.key, label: sent.label };
}

/**
 * The texts of the Name and URL fields, each one property shared by the operations that have it
 * (helpers/sharing.ts), so each text speaks for all of them.
 */
export const NAME_FIELD = {
	placeholder: 'e.g. VIP Customer',
	description:
		'Name as shown in the platform: of the tag (1-255 characters, unique in the company; names are case-sensitive), or of the bot integration',
} as const;
export const URL_FIELD = {
	placeholder: 'e.g. https://example.com/hooks/inbox',
	description:
		"Absolute http(s) address. A webhook's: the address the API calls for each event. A bot integration's: the bot flow's address, {origin}/api/v1/bots/{botId} (the bot server's address, then /api/v1/bots/ and the bot's ID).",
} as const;

/** A required text field. */
export function requiredText(
	options: Pick<INodeProperties, 'displayName' | 'name' | 'placeholder' | 'description'>,
): INodeProperties {
	return { type: 'string', required: true, default: '', ...options };
}

/** A field choosing one value of its `options` (an API enum), checked against that same list. */
export function choice(
	location: Location,
	property: Pick<INodeProperties, 'displayName' | 'name' | 'default' | 'description' | 'required' | 'noDataExpression'> & {
		options: INodePropertyOptions[];
	},
	options: SendOptions & { required?: boolean } = {},
): Field {
	const check = oneOf(property.options, { required: options.required });
	return sentField(location, { type: 'options', ...property }, check, options);
}

export const LID_EXAMPLE = '123456789012345@lid';

/**
 * The Chat picker of Message → Get Many (node version 2): required there, so n8n marks it when
 * empty. Version 1 shares its Chat with Stop in Chat (CHAT_V1), where it is one of three ways to
 * find the chat; version 2's Stop in Chat finds it with one picker of its own (stopInChat.ts).
 */
export const CHAT: INodeProperties = chatLocatorProperty({
	description: 'The chat whose messages to list: pick it from the list or give its internal ID',
	required: true,
});

/**
 * Version 1's Chat, one property for Stop in Chat and Message → Get Many (helpers/sharing.ts), as
 * saved workflows read it: not marked required (Stop in Chat takes it as one of three
 * alternatives), so its texts name no operation; Message → Get Many's check refuses an empty chat
 * before anything is sent.
 */
export const CHAT_V1: INodeProperties = chatLocatorProperty({
	description: 'The chat: pick it from the list or give its internal ID',
});

/**
 * The Integration picker of the operations that act on one integration: one property for all of
 * them (helpers/sharing.ts), so one text. Template → Get Many keeps its own (n8n's display rules
 * cannot show one property for it and not for Integration → Get Many).
 */
export const INTEGRATION: INodeProperties = integrationLocatorProperty({
	description: 'The channel integration (messaging line): pick it from the list or give its ID',
});

/** What every Phone Number says of its form (the check is shared/checks.ts `phone`). */
const PHONE_TEXTS = {
	displayName: 'Phone Number',
	name: 'phoneNumber',
	type: 'string',
	default: '',
	placeholder: 'e.g. 5511999998888',
	description: "The contact's phone number with country and area code, 8-30 characters, e.g. 5511999998888 or +55 11 99999-8888",
	hint: 'With country and area code: 5511987650001 and +55 11 98765-0001 both work.',
} as const;

/**
 * The contact's Phone Number (node version 2): one property for every operation that takes one
 * (helpers/sharing.ts: n8n evaluates each property of the node per item, so six fields named
 * phoneNumber evaluated a mapped number twelve times). Every one of them requires it, so n8n marks
 * it when empty (version 2's Stop in Chat finds its chat with a picker of its own); its texts hold
 * for each (Remove From Contact's notice adds that a LID works there too).
 */
export const PHONE_NUMBER: INodeProperties = { ...PHONE_TEXTS, required: true };

/**
 * Version 1's Phone Number, as saved workflows read it: shared with Stop in Chat, where it is one of
 * three ways to find the chat, so not marked required; each operation's check refuses an empty
 * number before anything is sent.
 */
export const PHONE_NUMBER_V1: INodeProperties = { ...PHONE_TEXTS };
export const GROUP_JID_EXAMPLE = '120363025246125486@g.us';
export const CHANNEL_CHAT_ID_EXAMPLE = '5511999998888@s.whatsapp.net';
const ID_HINT = `An ID looks like ${ID_PLACEHOLDER}: "c" followed by 24 lowercase letters or digits`;

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
		'The API cannot list custom-field templates: Custom Field → Get with Simplify off, on a contact that uses the template, shows its fields with their "id" and "key"; or copy the ID from the platform.',
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

/**
 * Return All and Limit, shared by every list operation (helpers/sharing.ts), so their texts hold for
 * each of them; how each list is read is said by its own notice above them (options.ts `listNotice`).
 */
export function returnAllAndLimit(): INodeProperties[] {
	return [
		{
			displayName: 'Return All',
			name: 'returnAll',
			type: 'boolean',
			default: false,
			description: 'Whether to return all results or only up to a given limit',
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

/**
 * A collection parameter of optional fields behind an "Add …" button; each field it holds is
 * checked only when the user added it.
 */
function optionalCollection(displayName: string, name: string, placeholder: string, fields: FieldSpec[]): Field {
	const inner = fields.map(asField);
	return {
		property: { displayName, name, type: 'collection', placeholder, default: {}, options: inner.map((f) => f.property) },
		sent: inner.flatMap((f) =>
			f.sent.map((sent) => ({ ...sent, optional: true, parameter: `${name}.${sent.parameter}`, collection: name })),
		),
	};
}

/** A field n8n sends only while its displayOptions show it: checked only when it is sent. */
export function sentWhenShown(field: Field): Field {
	return { ...field, sent: field.sent.map((sent) => ({ ...sent, optional: true })) };
}

/**
 * What the API is sent to clear a setting: no value (null) for a single value, an empty list for a
 * list. The spec shows no clearing; this is our assumption (README → Assumptions about the API).
 */
export const CLEARING_VALUE = { single: null, list: [] } as const;

/** A setting that Fields to Clear can clear, and what clearing it sends. */
export interface ClearableField {
	field: Field;
	clearWith: keyof typeof CLEARING_VALUE;
	/** what to give instead of nothing, e.g. 'an ID' */
	give: string;
	/** what clearing it means for the user, e.g. 'the trigger then runs a system automation' */
	effect: string;
}

/** The Fields to Clear entry of an Update Fields collection (applied by prepare.ts). */
export interface Clearing {
	/** the collection's parameter name, e.g. 'updateFields' */
	collection: string;
	/** the entry's parameter name and display name */
	name: string;
	label: string;
	/** option value (the field's key) → where it is sent, and the value that clears it */
	fields: Array<{ value: string; target: Target; clearWith: unknown }>;
}

const FIELDS_TO_CLEAR = { name: 'fieldsToClear', label: 'Fields to Clear' } as const;

/** The Fields to Clear option: every clearable field in words, and what clearing it sends. */
function fieldsToClearProperty(clearable: ClearableField[]): INodeProperties {
	return {
		displayName: FIELDS_TO_CLEAR.label,
		name: FIELDS_TO_CLEAR.name,
		type: 'multiOptions',
		default: [],
		description:
			'Settings to remove from the trigger. Leaving a field empty never clears it (an empty field is refused); choose here what to clear.',
		options: clearable.map(({ field, clearWith, effect }) => {
			const [sent] = field.sent;
			const sends = clearWith === 'list' ? 'an empty list' : 'no value (null)';
			return { name: sent.label, value: sent.key, description: `Sends ${sends}: ${effect}` };
		}),
	};
}

/** The "Additional Fields" collection of an operation: optional fields behind "Add Field". */
export const additionalFields = (fields: FieldSpec[]): Field =>
	optionalCollection('Additional Fields', 'additionalFields', 'Add Field', fields);

/**
 * The "Update Fields" collection of an Update operation: each field is sent only when the user adds
 * it (a partial update; DESIGN.md, "Update operations are partial"). A field added and left empty is
 * refused before sending; the `clearable` ones are cleared by choosing them under Fields to Clear
 * (DESIGN.md, "Clearing is explicit").
 */
export function updateFields(fields: FieldSpec[], clearable: ClearableField[] = []): Field {
	const collection = optionalCollection('Update Fields', 'updateFields', 'Add Field', fields);
	const give = new Map(clearable.map(({ field, give }) => [field.sent[0].key, give]));
	const sent = collection.sent.map((field) => ({
		...field,
		whenEmpty: give.has(field.key)
			? {
					reason: `add ${give.get(field.key)}, or choose ${field.label} under ${FIELDS_TO_CLEAR.label} to remove it`,
					fix: `An empty field is not sent and clears nothing. To remove the setting, take ${field.label} out of Update Fields and choose it under ${FIELDS_TO_CLEAR.label}.`,
				}
			: {
					reason: `add a value, or remove ${field.label} from Update Fields`,
					fix: `Fill in ${field.label}, or remove it from Update Fields to keep the trigger's current value.`,
				},
	}));
	if (clearable.length === 0) return { ...collection, sent };
	const options = [...(collection.property.options as INodeProperties[]), fieldsToClearProperty(clearable)];
	return {
		property: { ...collection.property, options },
		sent,
		clearing: {
			collection: collection.property.name,
			...FIELDS_TO_CLEAR,
			fields: clearable.map(({ field, clearWith }) => {
				const [target] = field.sent;
				return { value: target.key, target: { in: target.in, key: target.key, label: target.label }, clearWith: CLEARING_VALUE[clearWith] };
			}),
		},
	};
}

/** The "Filters" collection of a list operation: optional filters behind "Add Filter". */
export const filters = (fields: FieldSpec[]): Field =>
	optionalCollection('Filters', 'filters', 'Add Filter', fields);
