/**
 * The sandbox's rate limit (rateLimit.ts): a token bucket per API token, 429 with Retry-After beyond
 * it. Manual refill (perSecond 0) decides what is accepted, so nothing here depends on the clock but
 * the one test of the refill rate, which fixes the clock it passes to the limiter.
 */
import { RateLimiter } from '../rateLimit';
import { apiClient, useSandbox } from './helpers';

/** A second credential on the same API, so that "a bucket per token" can be seen. */
const SECOND_TOKEN = 'second-sandbox-token';
const ctx = useSandbox({ otherTokens: [SECOND_TOKEN] });

describe('sandbox rate limit', () => {
	test('none by default: a burst of 30 is accepted', async () => {
		const api = ctx.api();
		const replies = await Promise.all(Array.from({ length: 30 }, () => api.get('/user/list')));
		expect(replies.map((r) => r.status)).toEqual(replies.map(() => 200));
	});

	test('a burst of 3: the 4th request gets 429 with Retry-After and the error body; a refill lets one more through', async () => {
		const sandbox = ctx.sandbox();
		const api = ctx.api();
		sandbox.setRateLimit({ perSecond: 0, burst: 3 });
		const statuses: number[] = [];
		for (let i = 0; i < 4; i++) statuses.push((await api.get('/user/list')).status);
		expect(statuses).toEqual([200, 200, 200, 429]);
		const refused = await api.get('/user/list');
		expect(refused.status).toBe(429);
		expect(refused.headers.get('retry-after')).toBe('1');
		expect(refused.body).toEqual({ success: false, message: 'Too many requests, retry later' });
		sandbox.rateLimit.refill(1);
		expect((await api.get('/user/list')).status).toBe(200);
		expect((await api.get('/user/list')).status).toBe(429);
		expect(sandbox.rateLimit.refused).toBe(3);
		expect(sandbox.requests.filter((r) => r.status === 429)).toHaveLength(3);
	});

	test('"no Retry-After": the 429 comes without the header', async () => {
		const sandbox = ctx.sandbox();
		sandbox.setRateLimit({ perSecond: 0, burst: 1, retryAfter: false });
		const api = ctx.api();
		expect((await api.get('/user/list')).status).toBe(200);
		const refused = await api.get('/user/list');
		expect(refused.status).toBe(429);
		expect(refused.headers.get('retry-after')).toBeNull();
	});

	test('a bucket per token: a second token is accepted while the first one is refused, and each is refused once its own bucket is empty', async () => {
		const sandbox = ctx.sandbox();
		sandbox.setRateLimit({ perSecond: 0, burst: 2 });
		const api = apiClient(sandbox);
		const first = async (): Promise<number> => (await api.get('/user/list')).status;
		const second = async (): Promise<number> => (await api.call('GET', '/user/list', { token: SECOND_TOKEN })).status;
		expect([await first(), await first(), await first()]).toEqual([200, 200, 429]);
		expect([await second(), await second(), await second()]).toEqual([200, 200, 429]);
		expect(await first()).toBe(429);
		expect(sandbox.rateLimit.refused).toBe(3);
	});

	test('auth before the limit: a wrong token is refused as unauthorized (401) every time, even once the limit would refuse it, and takes no token', async () => {
		const sandbox = ctx.sandbox();
		sandbox.setRateLimit({ perSecond: 0, burst: 1 });
		const api = apiClient(sandbox);
		const wrong = async (): Promise<number> => (await api.call('GET', '/user/list', { token: 'another-token' })).status;
		expect([await wrong(), await wrong(), await wrong()]).toEqual([401, 401, 401]);
		expect(sandbox.rateLimit.refused).toBe(0);
		expect((await api.get('/user/list')).status).toBe(200);
		// The bucket now empty, a wrong token still hears that it is wrong, not to slow down.
		expect(await wrong()).toBe(401);
		expect((await api.get('/user/list')).status).toBe(429);
	});

	test('reset() goes back to the limit given at start (none here)', async () => {
		const sandbox = ctx.sandbox();
		sandbox.setRateLimit({ perSecond: 0, burst: 1 });
		sandbox.reset();
		expect(sandbox.rateLimit.current).toBeUndefined();
		const api = ctx.api();
		const replies = await Promise.all(Array.from({ length: 5 }, () => api.get('/user/list')));
		expect(replies.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
	});

	test('refill rate: 10 a second, bucket of 2; Retry-After is the whole seconds until the next token', () => {
		const limiter = new RateLimiter({ perSecond: 10, burst: 2 });
		const at = 1_000_000;
		expect([limiter.take('k', at), limiter.take('k', at), limiter.take('k', at)]).toEqual([undefined, undefined, { 'retry-after': '1' }]);
		// 100 ms later one token is back; another key has its own full bucket.
		expect(limiter.take('k', at + 100)).toBeUndefined();
		expect(limiter.take('k', at + 100)).toEqual({ 'retry-after': '1' });
		expect([limiter.take('other', at), limiter.take('other', at)]).toEqual([undefined, undefined]);
		// A quiet second refills to the bucket's size, not beyond.
		expect([limiter.take('k', at + 2000), limiter.take('k', at + 2000), limiter.take('k', at + 2000)]).toEqual([undefined, undefined, { 'retry-after': '1' }]);
		const slow = new RateLimiter({ perSecond: 0.25, burst: 1 });
		expect([slow.take('k', at), slow.take('k', at)]).toEqual([undefined, { 'retry-after': '4' }]);
	});

	test('bad settings are refused', () => {
		const sandbox = ctx.sandbox();
		expect(() => sandbox.setRateLimit({ perSecond: -1 })).toThrow('rateLimit.perSecond must be a number >= 0');
		expect(() => sandbox.setRateLimit({ perSecond: 5, burst: 0 })).toThrow('rateLimit.burst must be an integer >= 1');
	});
});
