/**
 * Errors in the panel's words, and the phone number rule of Remove From Contact (issue 36, points 5
 * and 6; DESIGN.md, "The editor" and "Enforce the spec's rules"), through n8n-core's RoutingNode
 * against the sandbox: a field is named as the panel shows it ("Tag Names, value 2"), never by its
 * place on the wire (`tagNames[1]`); a value that is neither a phone number nor a LID is refused
 * where the spec says "a phone number or a contact LID", and nothing is sent.
 */
import { inPanelWords } from '../../nodes/shared/errors';
import { runNode, runNodeError, useSandbox } from '../helpers/node-runner';
import { VALID } from '../reliability/operations';
import { DEMO } from '../sandbox';

const ctx = useSandbox();

const VIP = DEMO.tags.vip;
const ALICE = DEMO.contacts.alice.phoneNumber;
const WIRE_PATH = /[A-Za-z]+\[\d+\]/;

describe('errors name fields as the panel does', () => {
	test('a tag name the API does not know: "Tag Names, value 2", not tagNames[1]', async () => {
		const error = await runNodeError(ctx.sandbox, {
			parameters: { ...VALID.tagRemove, tagIds: [], tagNames: [VIP.name, 'No such tag'] },
		});
		expect(ctx.sandbox.requests).toHaveLength(1);
		expect(error.message).toBe('The API could not find what the request names (HTTP 404): Tag Names, value 2: no tag named "No such tag"');
		expect(`${error.message} ${String(error.description)}`).not.toMatch(WIRE_PATH);
	});

	test('a value the node refuses: "Tag Names, value 2", and nothing is sent', async () => {
		const error = await runNodeError(ctx.sandbox, {
			parameters: { ...VALID.tagRemove, tagIds: [], tagNames: [VIP.name, 'y'.repeat(256)] },
		});
		expect(error.message).toBe('Invalid Tag Names, value 2: must be 1-255 characters, got 256 characters');
		expect(ctx.sandbox.requests).toHaveLength(0);
	});

	test('the API\'s other wire names: a list entry and a field at the start of a sentence; other words stay', () => {
		const labels = { tagIds: 'Tag IDs', tagNames: 'Tag Names', phoneNumber: 'Phone Number', name: 'Name' };
		expect(inPanelWords('tagIds[0] must be an id; phoneNumber is required', labels)).toBe('Tag IDs, value 1 must be an id; Phone Number is required');
		expect(inPanelWords('tagNames[12]: no tag named "name"', labels)).toBe('Tag Names, value 13: no tag named "name"');
		expect(inPanelWords('name: a tag named "VIP" already exists', labels)).toBe('Name: a tag named "VIP" already exists');
		// Not a field of this operation, or not at a sentence's start: as the API wrote it.
		expect(inPanelWords('chatType: unknown; the name is taken; xtagIds[0]', labels)).toBe('chatType: unknown; the name is taken; xtagIds[0]');
	});

	// Issue 43, row 4.
	test('a camelCase name is never English: replaced wherever it stands, as a whole word only', () => {
		const labels = { tagName: 'Tag', tagId: 'Tag', integrationId: 'Integration' };
		expect(inPanelWords('tagName: no tag named "vip"', labels)).toBe('Tag: no tag named "vip"');
		expect(inPanelWords('tag not found (tagId cec2e4a8d6b79afc07c3c2df0)', labels)).toBe('tag not found (Tag cec2e4a8d6b79afc07c3c2df0)');
		expect(inPanelWords('unknown integrationId, expected an ID', labels)).toBe('unknown Integration, expected an ID');
		// Part of a longer name, or a path: left as it is.
		expect(inPanelWords('tagNameX and data.tagName and tagName2 and tagName_b', labels)).toBe('tagNameX and data.tagName and tagName2 and tagName_b');
		// A plain word stays a plain word in a sentence.
		expect(inPanelWords('the name is taken; name: too long', { name: 'Name' })).toBe('the name is taken; Name: too long');
	});

	test('several names of one field in a list are named once: the list keeps its "and" or "or"', () => {
		const stop = { chatInternalId: 'Chat', chatId: 'Chat', phoneNumber: 'Chat', integrationId: 'Integration' };
		expect(inPanelWords('no chat matches the given chatInternalId, chatId, phoneNumber and integrationId', stop)).toBe('no chat matches the given Chat and Integration');
		expect(inPanelWords('give chatInternalId, chatId or phoneNumber', stop)).toBe('give Chat');
		expect(inPanelWords('give chatInternalId, integrationId, chatId or phoneNumber', stop)).toBe('give Chat or Integration');
		expect(inPanelWords('chatInternalId and chatId, and integrationId', stop)).toBe('Chat and Integration');
		// Three different fields: the list as the API wrote it.
		const v1 = { chatInternalId: 'Chat', chatId: 'Channel Chat ID', phoneNumber: 'Phone Number', integrationId: 'Integration' };
		expect(inPanelWords('no chat matches the given chatInternalId, chatId, phoneNumber and integrationId', v1)).toBe(
			'no chat matches the given Chat, Channel Chat ID, Phone Number and Integration',
		);
		// Labels without the API's names in a list are left alone (nothing repeats).
		expect(inPanelWords('Chat and Chat', {})).toBe('Chat and Chat');
	});
});

describe('Remove From Contact: a phone number or a contact LID, nothing else', () => {
	test.each(['Alice phone', 'Alice phone 5511', 'call 5511987650001', '5511987650001 ext'])('"%s" is refused before sending', async (typed) => {
		const error = await runNodeError(ctx.sandbox, { parameters: { ...VALID.tagRemove, phoneNumber: typed } });
		expect(error.message).toBe(
			`Invalid Phone Number: must be a phone number with country and area code (at least 8 digits, with an optional +, spaces, dashes, dots or parentheses), or a contact LID ending in @lid, like 123456789012345@lid, got "${typed}"`,
		);
		expect(ctx.sandbox.requests).toHaveLength(0);
	});

	test('fewer than 8 digits in 8 characters or more is refused too', async () => {
		const error = await runNodeError(ctx.sandbox, { parameters: { ...VALID.tagRemove, phoneNumber: '+55 (11) 9' } });
		expect(error.message).toMatch(/^Invalid Phone Number: must be a phone number with country and area code \(at least 8 digits/);
		expect(ctx.sandbox.requests).toHaveLength(0);
	});

	test.each([ALICE, '+55 11 98765-0001', '+55 (11) 98765.0001', DEMO.contacts.lid.lid])('"%s" is sent exactly as typed', async (typed) => {
		await runNode(ctx.sandbox, { parameters: { ...VALID.tagRemove, phoneNumber: typed }, continueOnFail: true });
		expect(ctx.sandbox.requests.map((request) => (request.body as { phoneNumber: string }).phoneNumber)).toEqual([typed]);
	});

	test('where the spec says "any format" (Stop in Chat), a number in any form, a LID or a JID is sent; a name is not', async () => {
		const stop = (value: string) => ({ resource: 'automation', operation: 'stopInChat', chat: { __rl: true, mode: 'phoneNumber', value } });
		for (const typed of ['+55 (11) 98765-0001', DEMO.contacts.lid.lid, '5511987650001@s.whatsapp.net']) {
			await runNode(ctx.sandbox, { parameters: stop(typed), continueOnFail: true });
		}
		expect(ctx.sandbox.requests.map((request) => (request.body as { phoneNumber: string }).phoneNumber)).toEqual(['+55 (11) 98765-0001', DEMO.contacts.lid.lid, '5511987650001@s.whatsapp.net']);
		const error = await runNodeError(ctx.sandbox, { parameters: stop('Alice phone') });
		expect(error.message).toMatch(/^Invalid Chat \(Phone\): must be a phone number with country and area code/);
		expect(ctx.sandbox.requests).toHaveLength(3);
	});
});
