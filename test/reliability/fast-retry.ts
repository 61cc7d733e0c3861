/**
 * The test-only substitute of the retry policy's defaults. Every reliability test file starts with
 *
 *   jest.mock('../../nodes/shared/retry', () => jest.requireActual('./fast-retry').fastRetryModule());
 *
 * which keeps the real retry code, the real attempt count and the real Retry-After handling (the
 * 60 s cap included) and shortens only the exponential backoff (1 s, 2 s → 20 ms, 40 ms), so a
 * test of GET retries takes milliseconds. Nothing in the shipped node can reach this: the node has
 * no parameter for the policy, and the shipped `DEFAULT_RETRY_POLICY` is frozen.
 */
import type { RetryPolicy } from '../../nodes/shared/retry';

export const FAST_BACKOFF: Pick<RetryPolicy, 'baseDelayMs' | 'maxDelayMs'> = {
	baseDelayMs: 20,
	maxDelayMs: 80,
};

/**
 * `overrides`: a file that needs a shorter ceiling too (`maxRetryAfterMs`: the longest Retry-After
 * the node waits, and how long an API may accept nothing before the node stops sending, pace.ts)
 * says so here, e.g. security.test.ts, whose every-request-refused case would otherwise take that minute.
 */
export function fastRetryModule(overrides: Partial<RetryPolicy> = {}): Record<string, unknown> {
	const actual = jest.requireActual('../../nodes/shared/retry') as Record<string, unknown> & {
		DEFAULT_RETRY_POLICY: RetryPolicy;
	};
	return {
		...actual,
		REAL_DEFAULT_RETRY_POLICY: actual.DEFAULT_RETRY_POLICY,
		DEFAULT_RETRY_POLICY: Object.freeze({ ...actual.DEFAULT_RETRY_POLICY, ...FAST_BACKOFF, ...overrides }),
	};
}
