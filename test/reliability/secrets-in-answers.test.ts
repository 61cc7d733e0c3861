/* eslint-disable -- development tooling, not shipped: n8n's node rules (eslint.config.mjs, n8n-node lint) are for nodes/ and credentials/ */
/**
 * The token never reaches an output item, whatever a success answer echoes (DESIGN.md; errors.ts
 * `withoutSecrets`), now that the check walks the answer instead of writing it out as JSON (issue
 * 37): a token deep in a list page, in a string or in a key, is redacted; an answer without it is
 * handed on as it came (not copied).
 */
import { withoutSecrets } from '../../nodes/shared/errors';
import { secretsOf } from '../../nodes/shared/transport';
import { jsonOf, runNode, useSandbox } from '../helpers/node-runner';
import { DEMO } from '../sandbox';
import { dumpEverything } from './helpers';

const ctx = useSandbox();

describe('a success answer that echoes the token', () => {
	test('a chat name holding the token, on the second page of a walk: [redacted] there, every other chat as it came', async () => {
		const { sandbox } = ctx;
		sandbox.reset({ chats: 6000, messagesPerChat: 1 });
		const chats = sandbox.state.chatsIn('attendance');
		expect(chats.length).toBeGreaterThan(1000);
		const echoing = chats[chats.length - 1];
		echoing.name = `Echo of Bearer ${sandbox.token} here`;

		const out = jsonOf(await runNode(sandbox, { parameters: { resource: 'chat', operation: 'getAll', returnAll: true } }));

		expect(sandbox.requests).toHaveLength(2);
		expect(out).toHaveLength(chats.length);
		expect(JSON.stringify(out).includes(sandbox.token)).toBe(false);
		expect(out.find((chat) => chat.id === echoing.id)?.name).toBe('Echo of Bearer [redacted] here');
		expect(out.filter((chat) => String(chat.name).includes('[redacted]'))).toHaveLength(1);
	});
});

describe('withoutSecrets', () => {
	const TOKEN = 'tok-123456789';

	test('the token only in a key deep in a list: a copy without it', () => {
		const body = { success: true, response: { chats: [{ id: 1 }, { id: 2, meta: { [`h-${TOKEN}`]: 'x' } }] } };
		const out = withoutSecrets(body, [TOKEN]);
		expect(JSON.stringify(out)).toBe(JSON.stringify({ success: true, response: { chats: [{ id: 1 }, { id: 2, meta: { 'h-[redacted]': 'x' } }] } }));
		// The answer itself is left as it came.
		expect(JSON.stringify(body).includes(TOKEN)).toBe(true);
	});

	test('the token only in a string in lists within an object: a copy without it', () => {
		const body = { success: true, deep: { a: { b: [[1, `${TOKEN}!`]] } } };
		expect(JSON.stringify(withoutSecrets(body, [TOKEN]))).toBe(JSON.stringify({ success: true, deep: { a: { b: [[1, '[redacted]!']] } } }));
	});

	test('no token anywhere (a number holding its digits is no text): the answer itself, not a copy', () => {
		const body = { success: true, data: { contacts: [{ phone: '5511999990000', n: 123456789 }], total: 1 } };
		expect(withoutSecrets(body, ['123456789'])).toBe(body);
		expect(withoutSecrets(body, [TOKEN])).toBe(body);
	});

	test('bytes are handed on as they came; a nesting 100 000 levels deep is walked without overflowing the stack', () => {
		const bytes = Buffer.from(TOKEN);
		expect(withoutSecrets(bytes, [TOKEN])).toBe(bytes);
		let deep: unknown = [TOKEN];
		for (let i = 0; i < 100_000; i++) deep = { next: deep };
		const out = withoutSecrets(deep, [TOKEN]);
		let at = out as { next?: unknown };
		while (at.next !== undefined) at = at.next as { next?: unknown };
		expect(at).toEqual(['[redacted]']);
	});
});

/**
 * Issue 42, Build 7 (row 5): the token never leaves in any form. The credential holds the token with
 * spaces around it (pasted so); HTTP drops the spaces, the API accepts the bare token and echoes it,
 * in the forms below. The forms are computed here from the token (Node's encoders), not by the node.
 */
describe('the token in every form an API can echo it', () => {
	const TOKEN = 'tok_Sec7et+Zq9/Val=ue&42';
	const form = (text: string): string => Buffer.from(text).toString('base64');
	const FORMS: Record<string, string> = {
		'the token': TOKEN,
		'URL-encoded': encodeURIComponent(TOKEN),
		'URL-encoded, lower-case hex': encodeURIComponent(TOKEN).replace(/%[0-9A-F]{2}/g, (hex) => hex.toLowerCase()),
		'base64': form(TOKEN),
		'base64url': Buffer.from(TOKEN).toString('base64url'),
		'base64 of "Bearer <token>"': form(`Bearer ${TOKEN}`),
		'base64 of "user:<token>" (Basic)': form(`user:${TOKEN}`),
		'base64 of "ab<token>"': form(`ab${TOKEN}`),
	};
	/** What must never be in anything the node gives back. */
	const NEVER = Object.values(FORMS);
	const leaks = (text: string): string[] => NEVER.filter((secret) => text.includes(secret));
	const echo = { success: true, data: { removedTags: [], debug: { headers: { 'x-api-key': TOKEN, authorization: '{authorization}' }, nested: [{ deep: { deeper: [FORMS] } }], [`key-${TOKEN}`]: 1 } } };

	const sandboxWith = useSandbox({ token: TOKEN });
	const removal = { resource: 'tag', operation: 'removeFromContact', phoneNumber: '5511987650001', tagIds: [DEMO.tags.vip.id] };

	test.each([
		['spaces around', ` ${TOKEN} `],
		['a trailing space', `${TOKEN} `],
		['a tab and a newline', `\t${TOKEN}\n`],
	])('a credential token with %s: the trimmed token is sent; a 2xx answer echoing it in every form gives an item without any', async (_label, stored) => {
		const { sandbox } = sandboxWith;
		sandbox.addFault({ path: '/tag/remove-from-contact', kind: 'json', body: echo, times: Infinity });
		const out = jsonOf(await runNode(sandbox, { parameters: removal, apiToken: stored }));
		expect(sandbox.requests.map((request) => request.headers.authorization)).toEqual([`Bearer ${TOKEN}`]);
		expect(out).toHaveLength(1);
		expect(leaks(JSON.stringify(out))).toEqual([]);
		expect(JSON.stringify(out)).toContain('[redacted]');
	});

	test('an error answer echoing the token in every form (message and body): the error carries none of them', async () => {
		const { sandbox } = sandboxWith;
		const message = `denied for ${Object.values(FORMS).join(' | ')} ({authorization})`;
		sandbox.addFault({ path: '/tag/remove-from-contact', kind: 'status', status: 400, message, times: Infinity });
		const thrown = await runNode(sandbox, { parameters: removal, apiToken: ` ${TOKEN} ` }).then(
			() => undefined,
			(error: unknown) => error,
		);
		expect(thrown).toBeInstanceOf(Error);
		expect(leaks(dumpEverything(thrown))).toEqual([]);
		expect(String((thrown as Error).message)).toContain('denied for [redacted]');
	});
});

describe("the secrets of a credential, worked out once per credential object (transport.ts secretsOf)", () => {
	test('the same forms for the same object and token; a token changed on the object gives the new token\'s forms, not the old', () => {
		const credentials = { baseUrl: 'https://api.example.com/v2', apiToken: ' first-token-0123456789 ' };
		const first = secretsOf(credentials);
		expect(first).toContain('first-token-0123456789');
		expect(secretsOf(credentials)).toBe(first);
		credentials.apiToken = 'second-token-9876543210';
		const second = secretsOf(credentials);
		expect(second).toContain('second-token-9876543210');
		expect(second.join(' ')).not.toContain('first-token');
		expect(secretsOf({ baseUrl: 'https://api.example.com/v2' })).toEqual([]);
	});
});
