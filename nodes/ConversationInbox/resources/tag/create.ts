import { text } from '../../../shared/checks';
import { COLOR_PATTERN, NAME_MAX_LENGTH } from '../../../shared/constants';
import { additionalFields, body, NAME_FIELD, requiredText } from '../../helpers/fields';
import { defineOperation } from '../../helpers/operation';
import { pick } from '../../helpers/output';

export const tagCreate = defineOperation({
	resource: 'tag',
	operation: 'create',
	name: 'Create',
	action: 'Create a tag with a unique name',
	description:
		'Create a tag with a unique name (case-sensitive, 1-255 characters) and an optional #RRGGBB colour. Fails with HTTP 409 when a tag with that name exists. Returns the tag with its ID.',
	method: 'POST',
	path: '/tag/create',
	fields: [
		body(requiredText({
			displayName: 'Name',
			name: 'name',
			placeholder: NAME_FIELD.placeholder,
			description: NAME_FIELD.description,
		}), text({ required: true, min: 1, max: NAME_MAX_LENGTH })),
		additionalFields([
			body({
				displayName: 'Color',
				name: 'color',
				type: 'color',
				default: '#000000',
				placeholder: '#RRGGBB',
				description:
					'Colour of the tag as # and six hex digits, e.g. #1A73E8. The API uses #000000 when it is not set.',
			}, text({
				trim: true,
				pattern: COLOR_PATTERN,
				patternRule: 'must be # followed by six hex digits, like #1A73E8',
				fix: 'Pick the colour with the colour picker, or type # and six hex digits (a short form like #f00 is written #ff0000).',
			})),
		]),
	],
	errors: {
		byStatus: {
			409: 'A tag with this exact name already exists (names are case-sensitive). Use another name; or use the existing tag by its name: Tag Names in Tag → Remove From Contact, Tag (mode Name) in Tag → Get Contacts.',
		},
		noReason: 'Check the Name (1-255 characters, unique in the company) and the Color (# and six hex digits).',
	},
	output: { kind: 'single', unwrap: pick('data.tag') },
});
