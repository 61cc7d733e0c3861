/* eslint-disable -- development tooling, not shipped: n8n's node rules (eslint.config.mjs, n8n-node lint) are for nodes/ and credentials/ */
import { inspect } from 'node:util';

import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { DEMO, DEFAULT_ERROR_MESSAGE } from '../sandbox';
import { jsonOf, runNode, runNodeError, useSandbox } from '../helpers/node-runner';

const TOKEN = 'tok_Very-Secret-Token-4242';
const ctx = useSandbox({ token: TOKEN });

const createTag = (name: string) => ({ resource: 'tag', operation: 'create', name });

/** Everything reachable from a value, as text: the token must not be in there. */
const dump = (value: unknown): string =>
	inspect(value, { depth: Infinity, showHidden: true, getters: true, maxStringLength: Infinity });

describe('API errors become NodeApiError: headline, HTTP status, the API message verbatim, hint', () => {
	test('400: request error', async () => {
		const error = await runNodeError(ctx.sandbox, {
			parameters: {
				resource: 'template',
				operation: 'getAll',
				integrationId: DEMO.integrations.whatsapp.id,
				returnAll: true,
			},
		});
		expect(error).toBeInstanceOf(NodeApiError);
		expect(error.message).toBe('The API rejected the request as invalid (HTTP 400): Integration: integration c06bcd5a83f4cf3dda1721ed8 is not an official-channel integration; only official channels have provider templates');
		expect(error.httpCode).toBe('400');
		// The API's message appears once: in the message, not again in the description (issue 12).
		expect(error.description).not.toContain('is not an official-channel integration');
		expect(error.description).toContain('GET /provider-template/list answered HTTP 400');
		expect((error.context as { itemIndex: number }).itemIndex).toBe(0);
		expect(ctx.sandbox.requests).toHaveLength(1);
	});

	test('401: wrong token; neither token appears in the error', async () => {
		const wrong = 'tok_Wrong-Token-0000';
		const error = await runNodeError(ctx.sandbox, {
			apiToken: wrong,
			parameters: createTag('Nope'),
		});
		expect(error).toBeInstanceOf(NodeApiError);
		expect(error.message).toBe('The API token was rejected (HTTP 401): invalid API token');
		expect(error.httpCode).toBe('401');
		expect(error.description).toContain('paste the company API token again');
		expect(ctx.sandbox.requests[0].headers.authorization).toBe(`Bearer ${wrong}`);
		expect(dump(error)).not.toContain(wrong);
		expect(dump(error)).not.toContain(TOKEN);
	});

	test('404: unknown automation trigger', async () => {
		const missing = 'c000000000000000000000000';
		const error = await runNodeError(ctx.sandbox, {
			parameters: { resource: 'automation', operation: 'delete', automationTriggerId: missing },
		});
		expect(error.message).toBe('The API could not find what the request names (HTTP 404): Automation Trigger ID: automation trigger c000000000000000000000000 not found');
		expect(error.httpCode).toBe('404');
		expect(error.description).toContain('No automation trigger has this ID');
		expect(error.description).not.toContain('/v2');
	});

	test('409: a tag with that name exists', async () => {
		const error = await runNodeError(ctx.sandbox, { parameters: createTag(DEMO.tags.vip.name) });
		expect(error.message).toBe('The request conflicts with existing data (HTTP 409): Name: a tag named \"VIP\" already exists');
		expect(error.httpCode).toBe('409');
		expect(error.description).toContain('A tag with this exact name already exists (names are case-sensitive). Use another name; or use the existing tag by its name: Tag Names in Tag → Remove From Contact, Tag (mode Name) in Tag → Get Contacts.');
	});

	test('success:false under HTTP 200 is an error too', async () => {
		ctx.sandbox.addFault({ path: '/tag/create', kind: 'success-false' });
		const error = await runNodeError(ctx.sandbox, { parameters: createTag('Fine') });
		expect(error).toBeInstanceOf(NodeApiError);
		expect(error.message).toBe('The API answered that the request did not succeed (HTTP 200): Erro ao enviar mensagem');
		expect(error.httpCode).toBe('200');
		expect(error.description).toContain('Portuguese for "error sending message"');
	});

	test('5xx: the API failed (a POST is not retried: see test/reliability/faults.test.ts)', async () => {
		ctx.sandbox.addFault({ path: '/tag/create', kind: 'status', status: 503 });
		const error = await runNodeError(ctx.sandbox, { parameters: createTag('Fine') });
		expect(error.message).toBe('The API failed to process the request (HTTP 503): Erro ao enviar mensagem');
		expect(error.httpCode).toBe('503');
		expect(ctx.sandbox.requests).toHaveLength(1);
	});

	test('a non-JSON answer is an error, not an item', async () => {
		ctx.sandbox.addFault({ path: '/integration/list', kind: 'non-json' });
		const error = await runNodeError(ctx.sandbox, {
			parameters: { resource: 'integration', operation: 'getAll', returnAll: true },
		});
		expect(error).toBeInstanceOf(NodeApiError);
		expect(error.description).toContain('The answer was a web page titled "502 Bad Gateway", not an answer of the API.');
	});

	test('an error on the second page fails the item: no partial list', async () => {
		// 400 is never retried (a 5xx on a GET is: test/reliability/faults.test.ts).
		ctx.sandbox.addFault({ path: '/tag/list-contacts', kind: 'status', status: 400, skip: 1 });
		const error = await runNodeError(ctx.sandbox, {
			parameters: { resource: 'tag', operation: 'getContacts', tagId: DEMO.tags.big.id, returnAll: true },
		});
		expect(error.message).toBe('The API rejected the request as invalid (HTTP 400): Erro ao enviar mensagem');
		expect(ctx.sandbox.requests).toHaveLength(2);
	});

	test('no HTTP answer: a network error naming the cause', async () => {
		const closed = `http://127.0.0.1:1/v2`;
		const error = await runNodeError(ctx.sandbox, { baseUrl: closed, parameters: createTag('A') });
		expect(error).toBeInstanceOf(NodeApiError);
		// Not n8n's generic wording for ECONNREFUSED ("The service refused the connection …").
		expect(error.message).toBe('Could not reach the API at 127.0.0.1:1 (ECONNREFUSED): nothing was sent');
		expect(error.description).toContain('POST /tag/create never reached the API, so nothing was done on the platform.');
		expect(error.description).toContain('Check the host and port of the Base URL');
		expect(dump(error)).not.toContain(TOKEN);
	});
});

describe('Base URL', () => {
	test.each([`/`, `//`])('a trailing %s is stripped', async (suffix) => {
		const out = await runNode(ctx.sandbox, {
			baseUrl: `${ctx.sandbox.baseUrl}${suffix}`,
			parameters: createTag('Slash'),
		});
		expect(ctx.sandbox.requests[0].path).toBe('/v2/tag/create');
		expect(out[0].json.name).toBe('Slash');
	});

	test('one without /v2 is rejected before sending', async () => {
		const error = await runNodeError(ctx.sandbox, {
			baseUrl: ctx.sandbox.url,
			parameters: createTag('NoVersion'),
		});
		expect(error.message).toBe("The credential's Base URL must be an http(s) address ending in /v2");
		expect(String(error.description)).toContain(ctx.sandbox.url);
		expect((error.cause as Error) ?? error).toBeInstanceOf(NodeOperationError);
		expect(ctx.sandbox.requests).toHaveLength(0);
	});
});

describe('the API token never appears in output or errors', () => {
	test('not in error items, their errors, or successful output', async () => {
		const out = await runNode(ctx.sandbox, {
			continueOnFail: true,
			items: [{ name: 'Good' }, { name: DEMO.tags.vip.name }, { name: '' }],
			parameters: createTag('={{ $json.name }}'),
		});
		expect(out).toHaveLength(3);
		expect(out[1].error).toBeInstanceOf(NodeApiError);
		expect(out[2].error).toBeInstanceOf(NodeOperationError);
		expect(ctx.sandbox.requests[0].headers.authorization).toBe(`Bearer ${TOKEN}`);
		expect(dump(out)).not.toContain(TOKEN);
		expect(JSON.stringify(jsonOf(out))).not.toContain(TOKEN);
	});

	test('not in a thrown API error', async () => {
		const error = await runNodeError(ctx.sandbox, {
			parameters: { resource: 'integration', operation: 'disconnect', integrationId: 'c000000000000000000000000' },
		});
		expect(error.httpCode).toBe('404');
		expect(dump(error)).not.toContain(TOKEN);
		expect(JSON.stringify(error)).not.toContain(TOKEN);
	});
});

// Issue 12, defect 6.
describe('the API\'s default error text, hints that apply, the API message once', () => {
	test('"Erro ao enviar mensagem" is explained in English, with a hint for the operation', async () => {
		ctx.sandbox.addFault({ path: '/tag/remove-from-contact', kind: 'status', status: 400 });
		const error = await runNodeError(ctx.sandbox, {
			parameters: { resource: 'tag', operation: 'removeFromContact', phoneNumber: DEMO.contacts.alice.phoneNumber, tagNames: ['VIP'] },
		});
		expect(error.message).toBe(`The API rejected the request as invalid (HTTP 400): ${DEFAULT_ERROR_MESSAGE}`);
		expect(error.description).toContain('Portuguese for "error sending message": the API\'s generic error, it did not say what was wrong');
		expect(error.description).toContain('Check the Phone Number or LID, and that every Tag ID and exact Tag Name exists.');
	});

	test('a 404 on a mistyped tag name says what applies: no Base URL, no other companies', async () => {
		const error = await runNodeError(ctx.sandbox, {
			parameters: { resource: 'tag', operation: 'getContacts', tagName: 'vip', limit: 5 },
		});
		// The API names the field `tagName`; the panel calls it Tag (issue 43, row 4).
		expect(error.message).toMatch(/^The API could not find what the request names \(HTTP 404\): Tag: no tag named "vip"$/);
		expect(error.description).toContain('names are case-sensitive');
		expect(error.description).not.toMatch(/\/v2|compan/);
	});

	test('the API message appears once: in the message, not in the description or the error details', async () => {
		const error = await runNodeError(ctx.sandbox, { parameters: createTag(DEMO.tags.vip.name) });
		const text = 'a tag named "VIP" already exists';
		const occurrences = (value: unknown): number => JSON.stringify(value ?? '').split(text.replace(/"/g, '\\"')).length - 1;
		expect(error.message).toContain(text);
		expect(occurrences(error.description)).toBe(0);
		expect(occurrences((error as unknown as { errorResponse?: unknown }).errorResponse)).toBe(0);
		expect(occurrences((error as unknown as { context?: unknown }).context)).toBe(0);
	});
});

