import { text, url } from '../../../shared/checks';
import { body, NAME_FIELD, requiredText, URL_FIELD } from '../../helpers/fields';
import { defineOperation } from '../../helpers/operation';
import { pick } from '../../helpers/output';

/** `{origin}/api/v1/bots/{botId}`: an origin with no path of its own, then the bot id. */
const BOT_URL_FORM = /^https?:\/\/[^/?#\s]+\/api\/v1\/bots\/[^/?#\s]+$/;

export const botIntegrationCreate = defineOperation({
	resource: 'botIntegration',
	operation: 'create',
	name: 'Create',
	action: 'Create a bot integration from a flow URL',
	description:
		'Register a bot flow by its URL so that automation triggers can run it. Returns the new bot integration; its "id" is the Automation Bot ID of Automation → Update.',
	method: 'POST',
	path: '/automation/integration-bot/create',
	fields: [
		body(requiredText({
			displayName: 'Name',
			name: 'name',
			placeholder: NAME_FIELD.placeholder,
			description: NAME_FIELD.description,
		}), text({ required: true, min: 1 })),
		body(requiredText({
			displayName: 'URL',
			name: 'url',
			placeholder: URL_FIELD.placeholder,
			description: URL_FIELD.description,
		}), url({
			required: true,
			pattern: BOT_URL_FORM,
			patternRule:
				'must have the form {origin}/api/v1/bots/{botId}, like https://bots.example.com/api/v1/bots/sales-bot',
			fix: "Give the bot server's address followed by /api/v1/bots/ and the bot's ID, as the bot server shows it.",
		})),
	],
	output: { kind: 'single', unwrap: pick('data.integrationBot') },
});
