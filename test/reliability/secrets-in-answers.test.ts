/**
 * The token never reaches an output item, whatever a success answer echoes (DESIGN.md; errors.ts
 * `withoutSecrets`), now that the check walks the answer instead of writing it out as JSON (issue
 * 37): a token deep in a list page, in a string or in a key, is redacted; an answer without it is
 * handed on as it came (not copied).
 */
import { withoutSecrets } from '../../nodes/shared/errors';
import { jsonOf, runNode, useSandbox } from '../helpers/node-runner';

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
