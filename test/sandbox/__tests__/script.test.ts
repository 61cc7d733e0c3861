/**
 * The scripted answers (script.ts): what the API does with a request and what the client gets, as
 * the test decides per request.
 */
import { SCRIPTED_TEXT } from '../script';
import { useSandbox } from './helpers';

const ctx = useSandbox();

const tagNamed = (name: string) => [...ctx.sandbox().state.tags.values()].find((tag) => tag.name === name);

describe('sandbox scripted answers', () => {
	test('not carried out: the status, body form and raw Retry-After as scripted; no tag is created', async () => {
		const sandbox = ctx.sandbox();
		sandbox.answerWith = (request) => ((request.body as { name?: string }).name === 'refused' ? { answer: { status: 429, retryAfter: '0.5', body: 'text' } } : undefined);
		const refused = await ctx.api().post('/tag/create', { name: 'refused' });
		expect(refused.status).toBe(429);
		expect(refused.headers.get('retry-after')).toBe('0.5');
		expect(refused.headers.get('content-type')).toBe('text/plain; charset=utf-8');
		expect(refused.text).toBe(SCRIPTED_TEXT.text);
		expect(tagNamed('refused')).toBeUndefined();
		expect((await ctx.api().post('/tag/create', { name: 'other' })).status).toBe(200);
		expect(sandbox.requests.map((r) => [r.status, r.carriedOut])).toEqual([
			[429, undefined],
			[200, true],
		]);
	});

	test('carried out, then the connection reset: the tag exists, the client gets no answer', async () => {
		const sandbox = ctx.sandbox();
		sandbox.answerWith = () => ({ carriedOut: true, answer: 'reset' });
		await expect(ctx.api().post('/tag/create', { name: 'lost answer' })).rejects.toThrow();
		await sandbox.waitForRequests((requests) => requests[0]?.answeredSeq !== undefined);
		expect(tagNamed('lost answer')).toBeDefined();
		expect(sandbox.requests.map((r) => [r.status, r.carriedOut])).toEqual([[0, true]]);
	});

	test('carried out, then no answer at all (hang): the tag exists; the request stays open until the client gives up, then it counts as answered with nothing', async () => {
		const sandbox = ctx.sandbox();
		sandbox.answerWith = () => ({ carriedOut: true, answer: 'hang' });
		const client = new AbortController();
		const sent = fetch(`${sandbox.baseUrl}/tag/create`, {
			method: 'POST',
			headers: { authorization: `Bearer ${sandbox.token}`, 'content-type': 'application/json' },
			body: JSON.stringify({ name: 'never answered' }),
			signal: client.signal,
		});
		// Carried out, and still open: no answer was written.
		await sandbox.waitForRequests((requests) => requests[0]?.carriedOut === true);
		expect(tagNamed('never answered')).toBeDefined();
		expect(sandbox.inFlight).toBe(1);
		expect(sandbox.requests[0].answeredSeq).toBeUndefined();
		client.abort();
		await expect(sent).rejects.toThrow();
		await sandbox.waitForRequests((requests) => requests[0]?.answeredSeq !== undefined);
		expect(sandbox.requests.map((r) => [r.status, r.carriedOut])).toEqual([[0, true]]);
		expect(sandbox.inFlight).toBe(0);
	});

	test('carried out, answered 204 / 201 with an empty body / 200 HTML: the tag exists each time', async () => {
		const sandbox = ctx.sandbox();
		const answers = { a: { status: 204 }, b: { status: 201, body: 'empty' as const }, c: { status: 200, body: 'html' as const } };
		sandbox.answerWith = (request) => ({ carriedOut: true, answer: answers[(request.body as { name: 'a' | 'b' | 'c' }).name] });
		const [a, b, c] = [await ctx.api().post('/tag/create', { name: 'a' }), await ctx.api().post('/tag/create', { name: 'b' }), await ctx.api().post('/tag/create', { name: 'c' })];
		expect([a.status, a.text, b.status, b.text, c.status]).toEqual([204, '', 201, '', 200]);
		expect(c.text).toContain(`<title>${SCRIPTED_TEXT.htmlTitle}</title>`);
		expect(['a', 'b', 'c'].map((name) => tagNamed(name) !== undefined)).toEqual([true, true, true]);
	});

	test('carried out is only what the handler accepts: a duplicate name keeps its 409', async () => {
		const sandbox = ctx.sandbox();
		expect((await ctx.api().post('/tag/create', { name: 'twice' })).status).toBe(200);
		sandbox.answerWith = () => ({ carriedOut: true, answer: { status: 204 } });
		expect((await ctx.api().post('/tag/create', { name: 'twice' })).status).toBe(409);
		expect(sandbox.requests.map((r) => [r.status, r.carriedOut])).toEqual([
			[200, true],
			[409, undefined],
		]);
	});

	test('problem+json; reset() drops the script', async () => {
		const sandbox = ctx.sandbox();
		sandbox.answerWith = () => ({ answer: { status: 503, body: 'problem', retryAfter: 'Wed, 25 Nov 2026 18:00:00 GMT' } });
		const problem = await ctx.api().post('/tag/create', { name: 'p' });
		expect([problem.status, problem.headers.get('content-type'), problem.body.title, problem.body.detail]).toEqual([503, 'application/problem+json', SCRIPTED_TEXT.problemTitle, SCRIPTED_TEXT.problemDetail]);
		expect(problem.headers.get('retry-after')).toBe('Wed, 25 Nov 2026 18:00:00 GMT');
		sandbox.reset();
		expect((await ctx.api().post('/tag/create', { name: 'p' })).status).toBe(200);
	});
});
