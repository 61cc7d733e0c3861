/**
 * The one allowance of the 0.1.0 contract (fixtures.ts `endOfListProbes`), on the saved workflows
 * themselves and literal reads: the end-of-list read after the requests 0.1.0 sent is allowed only
 * when the walk had more to look for (Return All, or a Limit above what came), never once the Limit
 * was reached.
 */
import { actionFixtures, endOfListProbes, listedIn } from './fixtures';

const fixture = (name: string) => {
	const found = actionFixtures().find((f) => f.name === name);
	if (!found) throw new Error(`no fixture ${name}`);
	return found;
};

/** message.getAll: Limit 3, one page asked (offset 0, limit 3) in 0.1.0. */
const MESSAGES_LIMIT_3 = fixture('message.getAll');
/** message.getAll.return-all: Return All, one page asked (offset 0, limit 1000). */
const MESSAGES_ALL = fixture('message.getAll.return-all');
const MESSAGES = '/v2/inbox/find-messages-from-inbox';
const CHAT = 'cf2b10780f6ba6c865d65dccb';

const probe = (offset: string, limit: string, status = 200) => ({ method: 'GET', path: MESSAGES, query: { chatInternalId: CHAT, offset, limit }, status });

describe('endOfListProbes: the end-of-list read is allowed only while the walk had more to look for', () => {
	test('the saved workflows are the ones described here', () => {
		expect(MESSAGES_LIMIT_3.node.parameters).toMatchObject({ resource: 'message', limit: 3 });
		expect(MESSAGES_LIMIT_3.requests).toEqual([{ method: 'GET', path: MESSAGES, query: { chatInternalId: CHAT, offset: '0', limit: '3' } }]);
		expect(MESSAGES_ALL.node.parameters).toMatchObject({ resource: 'message', returnAll: true });
	});

	test('Limit 3 and 3 came: a further read is refused (the Limit was reached)', () => {
		expect(endOfListProbes(MESSAGES_LIMIT_3, [probe('3', '3')], 3)).toEqual([`GET ${MESSAGES} {"chatInternalId":"${CHAT}","offset":"3","limit":"3"}`]);
		expect(endOfListProbes(MESSAGES_LIMIT_3, [probe('3', '1')], 3)).toHaveLength(1);
	});

	test('Limit 3 and 2 came (a short page): one further read is allowed', () => {
		expect(endOfListProbes(MESSAGES_LIMIT_3, [probe('2', '1')], 2)).toEqual([]);
	});

	test('Return All: one further read is allowed whatever came, but not two, not a larger page, not a refused one', () => {
		expect(endOfListProbes(MESSAGES_ALL, [probe('1000', '1000')], 1000)).toEqual([]);
		expect(endOfListProbes(MESSAGES_ALL, [probe('40', '1000'), probe('80', '1000')], 40)).toHaveLength(1);
		expect(endOfListProbes(MESSAGES_ALL, [probe('40', '1001')], 40)).toHaveLength(1);
		expect(endOfListProbes(MESSAGES_ALL, [probe('40', '1000', 429)], 40)).toHaveLength(1);
	});

	test('what came is counted at the list the spec names', () => {
		expect(listedIn(MESSAGES, { success: true, response: { messages: [{}, {}, {}] } })).toBe(3);
		expect(listedIn('/v2/inbox/find-all-chats', { success: true, response: { chats: [{}] } })).toBe(1);
		expect(listedIn(MESSAGES, { success: true, data: { messages: [{}] } })).toBe(0);
	});
});
