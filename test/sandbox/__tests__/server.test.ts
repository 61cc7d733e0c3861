import { DEMO } from '../index';
import { expectError, request, useSandbox } from './helpers';

const { api, sandbox } = useSandbox();

describe('authentication', () => {
	it('401 without a token, with a wrong token and with another scheme; the token is never echoed', async () => {
		const noToken = await api().call('GET', '/user/list', { token: null });
		expectError(noToken, 401, 'Authorization');
		const wrong = await api().call('GET', '/user/list', { token: 'not-the-token' });
		expectError(wrong, 401, 'invalid API token');
		expect(wrong.text).not.toContain('not-the-token');
		const basic = await api().call('GET', '/user/list', { token: null, headers: { authorization: `Basic ${sandbox().token}` } });
		expectError(basic, 401, 'Bearer');
		expect(sandbox().requests.map((r) => r.status)).toEqual([401, 401, 401]);
	});

	it('401 comes before validation and changes nothing', async () => {
		expectError(await api().call('POST', '/tag/create', { body: { name: 'Sneaky' }, token: 'x' }), 401);
		expect(sandbox().state.tagByName('Sneaky')).toBeUndefined();
	});

	it('accepts a custom token', async () => {
		const { startSandbox } = await import('../index');
		const other = await startSandbox({ token: 'other-token', quiet: true });
		try {
			expect((await request(`${other.baseUrl}/user/list`, 'GET', {}, 'other-token')).status).toBe(200);
			expect((await request(`${other.baseUrl}/user/list`, 'GET', {}, 'sandbox-token')).status).toBe(401);
		} finally {
			await other.close();
		}
	});
});

describe('routing and bodies', () => {
	it('404 with the error body for unknown paths, 405 for a wrong method', async () => {
		expectError(await api().get('/tag/nope'), 404, 'unknown endpoint GET /v2/tag/nope');
		expectError(await request(`${sandbox().url}/v1/tag/create`, 'POST', { body: {} }), 404, 'unknown path');
		expectError(await api().get('/tag/create'), 405, 'GET is not allowed');
	});

	it('400 when the body is not JSON or not an object', async () => {
		expectError(await api().call('POST', '/tag/create', { raw: '{name: "x"' }), 400, 'request body must be valid JSON');
		expectError(await api().call('POST', '/tag/create', { raw: '["x"]' }), 400, 'request body must be a JSON object');
	});

	it('tolerates a trailing slash', async () => {
		expect((await api().get('/user/list/')).status).toBe(200);
	});

	it('records every /v2 request (path without query, query, headers, body, status), not control calls', async () => {
		await api().get('/tag/list-contacts', { tagId: DEMO.tags.vip.id, limit: 2 });
		await api().post('/tag/create', { name: 'Recorded' });
		await api().control('GET', '/health');
		const log = sandbox().requests;
		expect(log).toHaveLength(2);
		expect(log[0]).toMatchObject({ method: 'GET', path: '/v2/tag/list-contacts', query: { tagId: DEMO.tags.vip.id, limit: '2' }, status: 200, body: undefined });
		expect(log[0].headers.authorization).toBe(`Bearer ${sandbox().token}`);
		expect(log[1]).toMatchObject({ method: 'POST', path: '/v2/tag/create', query: {}, body: { name: 'Recorded' }, status: 200 });
		// Sequence numbers, not clock readings: the second call was sent after the first was answered.
		expect(log[0].answeredSeq).toBeGreaterThan(log[0].seq);
		expect(log[1].seq).toBeGreaterThan(log[0].answeredSeq!);
		const viaHttp = await api().control('GET', '/requests');
		expect(viaHttp.body.requests).toHaveLength(2);
		sandbox().clearRequests();
		expect(sandbox().requests).toHaveLength(0);
	});
});

describe('faults', () => {
	it('status 429 answers with Retry-After and changes no state', async () => {
		sandbox().addFault({ path: '/v2/tag/create', kind: 'status', status: 429, retryAfterSeconds: 7 });
		const r = await api().post('/tag/create', { name: 'Throttled' });
		expectError(r, 429);
		expect(r.headers.get('retry-after')).toBe('7');
		expect(sandbox().state.tagByName('Throttled')).toBeUndefined();
		expect(sandbox().requests[0]).toMatchObject({ path: '/v2/tag/create', status: 429, body: { name: 'Throttled' } });
		// times defaults to 1: the next call goes through
		expect((await api().post('/tag/create', { name: 'Throttled' })).status).toBe(200);
	});

	it.each([500, 502, 503])('status %i answers the error body', async (status) => {
		sandbox().addFault({ kind: 'status', status });
		const r = await api().get('/user/list');
		expect(r.status).toBe(status);
		expect(r.body).toEqual({ success: false, message: 'Erro ao enviar mensagem' });
		expect(r.headers.get('retry-after')).toBeNull();
	});

	it('slow delays the answer, then handles the request normally', async () => {
		sandbox().addFault({ kind: 'slow', delayMs: 150, path: '/tag/create' });
		const started = Date.now();
		const r = await api().post('/tag/create', { name: 'Slow' });
		expect(Date.now() - started).toBeGreaterThanOrEqual(140);
		expect(r.status).toBe(200);
		expect(sandbox().state.tagByName('Slow')).toBeDefined();
	});

	it('non-json answers 200 with an HTML page', async () => {
		sandbox().addFault({ kind: 'non-json', method: 'GET' });
		const r = await api().get('/user/list');
		expect(r.status).toBe(200);
		expect(r.headers.get('content-type')).toContain('text/html');
		expect(() => JSON.parse(r.text)).toThrow();
	});

	it('success-false answers HTTP 200 with success:false and changes no state', async () => {
		sandbox().addFault({ kind: 'success-false', path: '/v2/tag/create' });
		const r = await api().post('/tag/create', { name: 'Nope' });
		expect(r.status).toBe(200);
		expect(r.body).toEqual({ success: false, message: 'Erro ao enviar mensagem' });
		expect(sandbox().state.tagByName('Nope')).toBeUndefined();
	});

	it('reset destroys the connection', async () => {
		sandbox().addFault({ kind: 'reset' });
		await expect(api().get('/user/list')).rejects.toThrow();
		expect(sandbox().requests[0]).toMatchObject({ path: '/v2/user/list', status: 0 });
		expect((await api().get('/user/list')).status).toBe(200);
	});

	it('reset-after handles the request (the write is done), then destroys the connection', async () => {
		sandbox().addFault({ kind: 'reset-after', method: 'POST', path: '/tag/create' });
		await expect(api().post('/tag/create', { name: 'Done but unanswered' })).rejects.toThrow();
		expect(sandbox().requests[0]).toMatchObject({ path: '/v2/tag/create', status: 0 });
		expect(sandbox().state.tagByName('Done but unanswered')).toBeDefined();
		// Once only: the same name is now refused as a duplicate, answered as usual.
		expect((await api().post('/tag/create', { name: 'Done but unanswered' })).status).toBe(409);
	});

	it('matches method and path, honours skip and times, and clears', async () => {
		sandbox().addFault({ method: 'POST', path: '/tag/create', kind: 'status', status: 503, skip: 1, times: 2 });
		const statuses: number[] = [];
		await api().get('/tag/list-contacts', { tagId: DEMO.tags.vip.id });
		for (let i = 0; i < 4; i++) statuses.push((await api().post('/tag/create', { name: `t${i}` })).status);
		expect(statuses).toEqual([200, 503, 503, 200]);
		expect(sandbox().state.tagByName('t1')).toBeUndefined();
		sandbox().addFault({ kind: 'status', status: 500, times: Infinity });
		for (let i = 0; i < 3; i++) expect((await api().get('/user/list')).status).toBe(500);
		sandbox().clearFaults();
		expect((await api().get('/user/list')).status).toBe(200);
	});

	it('every: n affects every n-th matching request after the skipped ones (a storm)', async () => {
		sandbox().addFault({ path: '/user/list', kind: 'status', status: 429, retryAfterSeconds: 0, skip: 1, every: 2, times: 3 });
		const statuses: number[] = [];
		for (let i = 0; i < 9; i++) statuses.push((await api().get('/user/list')).status);
		expect(statuses).toEqual([200, 429, 200, 429, 200, 429, 200, 200, 200]);
		expectError(await api().control('POST', '/faults', { kind: 'status', every: 0 }), 400, 'fault.every must be an integer');
	});

	it('query limits a fault to requests with exactly those query values (one page of a list)', async () => {
		sandbox().addFault({ path: '/tag/list-contacts', query: { offset: '100' }, kind: 'status', status: 503, times: Infinity });
		const page = (offset: number) => api().get('/tag/list-contacts', { tagId: DEMO.tags.big.id, offset, limit: 100 });
		expect((await page(0)).status).toBe(200);
		expect((await page(100)).status).toBe(503);
		expect((await page(1000)).status).toBe(200);
		expect((await page(100)).status).toBe(503);
		expectError(await api().control('POST', '/faults', { kind: 'status', query: { offset: 1 } }), 400, 'fault.query must be an object of strings');
	});

	it('can be set over HTTP, one or many, all-or-nothing', async () => {
		const bad = await api().control('POST', '/faults', [{ kind: 'status', status: 500 }, { kind: 'explode' }]);
		expectError(bad, 400, 'faults[1].kind must be one of status, slow, non-json, success-false, reset');
		expect((await api().control('GET', '/faults')).body.faults).toEqual([]);
		expectError(await api().control('POST', '/faults', { kind: 'status', status: 200 }), 400, 'fault.status must be an integer between 400 and 599');
		const ok = await api().control('POST', '/faults', [{ kind: 'status', status: 502, path: '/user/list', times: 'Infinity' }]);
		expect(ok.body.faults[0].fault).toMatchObject({ path: '/v2/user/list', times: 'Infinity' });
		expect((await api().get('/user/list')).status).toBe(502);
		expect((await api().get('/user/list')).status).toBe(502);
		await api().control('DELETE', '/faults');
		expect((await api().get('/user/list')).status).toBe(200);
	});
});

describe('holds (a test decides when a request goes on)', () => {
	it('holds matching requests until released, lets the others through, and records arrival and answer in sequence', async () => {
		const hold = sandbox().hold({ path: '/tag/list-contacts', query: { offset: '100' } });
		const page = (offset: number) => api().get('/tag/list-contacts', { tagId: DEMO.tags.big.id, offset, limit: 100 });
		const held = page(100);
		const [first] = await hold.waitFor(1);
		expect(first).toMatchObject({ path: '/v2/tag/list-contacts', query: { offset: '100' }, status: 0 });
		expect(first.answeredSeq).toBeUndefined();
		// Another page is not held: it is answered while page 100 waits.
		expect((await page(0)).status).toBe(200);
		const other = sandbox().requests[1];
		expect(other.seq).toBeGreaterThan(first.seq);
		expect(sandbox().inFlight).toBe(1);
		hold.release();
		expect((await held).status).toBe(200);
		expect(first.answeredSeq).toBeGreaterThan(other.answeredSeq!);
		// Released holds hold nothing more.
		expect((await page(100)).status).toBe(200);
		expect(hold.held).toHaveLength(1);
	});

	it('skip lets the first N through; a fault applies to a held request once released', async () => {
		const hold = sandbox().hold({ path: '/user/list', skip: 1 });
		sandbox().addFault({ path: '/user/list', kind: 'status', status: 503, skip: 1 });
		expect((await api().get('/user/list')).status).toBe(200);
		const second = api().get('/user/list');
		await hold.waitFor(1);
		hold.release();
		expect((await second).status).toBe(503);
	});

	it('over HTTP: create, wait for N held, list, release; wait for N requests; reset releases every hold', async () => {
		const created = await api().control('POST', '/holds', { path: '/user/list' });
		expect(created.body.hold).toMatchObject({ id: expect.any(Number), filter: { path: '/v2/user/list' } });
		const call = api().get('/user/list');
		expect((await api().control('POST', '/holds/wait', { id: created.body.hold.id, count: 1 })).body.held).toBe(1);
		expect((await api().control('GET', '/holds')).body.holds).toEqual([{ id: created.body.hold.id, filter: { path: '/v2/user/list' }, held: 1, released: false }]);
		expect((await api().control('POST', '/requests/wait', { count: 1 })).body.requests).toBe(1);
		await api().control('POST', '/holds/release', { id: created.body.hold.id });
		expect((await call).status).toBe(200);
		expectError(await api().control('POST', '/holds/release', { id: 999 }), 404, 'no hold with id 999');
		expectError(await api().control('POST', '/holds', { query: { offset: 1 } }), 400, 'hold.query must be an object of strings');

		sandbox().hold({ path: '/user/list' });
		const pending = api().get('/user/list');
		await sandbox().waitForRequests((requests) => requests.some((r) => r.path === '/v2/user/list' && r.status === 0));
		sandbox().reset();
		expect((await pending).status).toBe(200);
		expect((await api().control('GET', '/holds')).body.holds).toEqual([]);
	});

	it('waitForRequests rejects with the count reached when it is not met in time', async () => {
		await expect(sandbox().waitForRequests(1, 20)).rejects.toThrow('waitForRequests: not reached after 20 ms (0 requests recorded)');
	});
});

describe('variants (answering as an API that differs from the node\'s assumptions)', () => {
	it('are set over HTTP or in code, change how requests are read, and are cleared by reset', async () => {
		const page = () => api().get('/inbox/find-all-chats', { skip: 2, take: 3, offset: 0, limit: 50 });
		const attendance = sandbox().state.chatsIn('attendance').map((chat) => chat.id);
		expect((await page()).body.response.chats.map((chat: { id: string }) => chat.id)).toEqual(attendance);
		const set = await api().control('POST', '/variants', { pagingNames: { offset: 'skip', limit: 'take' } });
		expect(set.body.variants).toEqual({ pagingNames: { offset: 'skip', limit: 'take' } });
		// Now skip/take are read and offset/limit ignored.
		expect((await page()).body.response.chats.map((chat: { id: string }) => chat.id)).toEqual(attendance.slice(2, 5));
		sandbox().setVariants({ renamed: { '/group/get-invite-url': { groupJid: 'jid' } } });
		expectError(await api().get('/group/get-invite-url', { integrationId: DEMO.integrations.whatsapp.id, groupJid: DEMO.group.jid }), 400, 'groupJid: unknown field (this API calls it jid)');
		expect((await api().get('/group/get-invite-url', { integrationId: DEMO.integrations.whatsapp.id, jid: DEMO.group.jid })).status).toBe(200);
		expectError(await api().control('POST', '/variants', { pageSizeCap: 0 }), 400, 'variants.pageSizeCap must be an integer >= 1');
		sandbox().reset();
		expect((await api().control('GET', '/variants')).body.variants).toEqual({});
	});
});

describe('latency', () => {
	it('adds the configured latency to every /v2 request, settable in code and over HTTP', async () => {
		// Lower bounds only (a busy machine can only make them larger).
		sandbox().setLatency(400);
		const started = Date.now();
		await api().get('/user/list');
		expect(Date.now() - started).toBeGreaterThanOrEqual(390);
		expect(sandbox().requests[0].answeredAt! - sandbox().requests[0].at).toBeGreaterThanOrEqual(390);
		// 0 over HTTP after 600 s in code: the next call answers at all (within the test's timeout).
		sandbox().setLatency(600_000);
		expect((await api().control('POST', '/latency', { ms: 0 })).body.latencyMs).toBe(0);
		expect((await api().get('/user/list')).status).toBe(200);
		expectError(await api().control('POST', '/latency', { ms: -5 }), 400, 'ms must be an integer');
	});

	it('counts the requests in flight (the most at once)', async () => {
		// Held until all three have arrived: three in flight whatever the machine's speed.
		const hold = sandbox().hold({ path: '/user/list' });
		const calls = Promise.all([api().get('/user/list'), api().get('/user/list'), api().get('/user/list')]);
		await hold.waitFor(3);
		expect(sandbox().inFlight).toBe(3);
		hold.release();
		await calls;
		expect(sandbox().inFlight).toBe(0);
		expect(sandbox().maxInFlight).toBe(3);
		sandbox().clearRequests();
		expect(sandbox().maxInFlight).toBe(0);
		await api().get('/user/list');
		await api().get('/user/list');
		expect(sandbox().maxInFlight).toBe(1);
		sandbox().setLatency(0);
	});
});

describe('control endpoints', () => {
	it('health, state, webhooks, reset with seed sizes', async () => {
		expect((await api().control('GET', '/health')).body).toMatchObject({ success: true, status: 'ok', baseUrl: sandbox().baseUrl });
		await api().post('/tag/create', { name: 'Temporary' });
		const state = (await api().control('GET', '/state')).body.state;
		expect(state.tags.map((t: { name: string }) => t.name)).toContain('Temporary');
		expect(state.counts.chats).toBe(sandbox().state.chats.size);
		expect((await api().control('GET', '/webhooks')).body.webhooks).toEqual([]);
		const reset = await api().control('POST', '/reset', { contactsOnBigTag: 3, templates: 7, chats: 2 });
		expect(reset.status).toBe(200);
		expect(sandbox().state.tagByName('Temporary')).toBeUndefined();
		expect(sandbox().state.tagMembers(DEMO.tags.big.id)).toHaveLength(3);
		expect(reset.body.counts.templates).toBe(7);
		expect(sandbox().requests).toHaveLength(0);
		expectError(await api().control('POST', '/reset', { chats: -1 }), 400, 'chats must be an integer between 0 and 200000');
		expectError(await api().control('POST', '/reset', '[1'), 400);
		expectError(await api().control('GET', '/nothing'), 404, 'unknown control endpoint');
	});

	it('reset keeps the start sizes it is not given new ones for', async () => {
		const { startSandbox } = await import('../index');
		const other = await startSandbox({ quiet: true, seed: { contactsOnBigTag: 5 } });
		try {
			const templates = () => other.state.templates.get(DEMO.integrations.official.id)?.list.length;
			other.reset({ templates: 3 });
			expect([other.state.tagMembers(DEMO.tags.big.id).length, templates()]).toEqual([5, 3]);
			await request(`${other.url}/_sandbox/reset`, 'POST', {});
			expect([other.state.tagMembers(DEMO.tags.big.id).length, templates()]).toEqual([5, 60]);
		} finally {
			await other.close();
		}
	});

	it('close() stops the server; a closed sandbox refuses connections', async () => {
		const { startSandbox } = await import('../index');
		const other = await startSandbox({ quiet: true, latencyMs: 5000 });
		const pending = request(`${other.baseUrl}/user/list`, 'GET', {}, other.token).then(
			() => 'answered',
			() => 'failed',
		);
		await other.waitForRequests(1);
		await other.close();
		expect(await pending).toBe('failed');
		await expect(request(`${other.baseUrl}/user/list`, 'GET', {}, other.token)).rejects.toThrow();
	});
});
