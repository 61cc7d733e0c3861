/* eslint-disable -- development tooling, not shipped: n8n's node rules (eslint.config.mjs, n8n-node lint) are for nodes/ and credentials/ */
/**
 * "Could not reach the API … nothing was sent" versus "may have carried out": a connection that
 * failed before the request was written (refused, unknown host) did nothing on the platform and is
 * retried like a read, for every method; a connection reset after the API read the request may
 * have done it, and a POST is then never sent again. Through n8n-core's RoutingNode over real
 * sockets on 127.0.0.1; only the backoff is shortened (fast-retry.ts).
 */
jest.mock('../../nodes/shared/retry', () => jest.requireActual('./fast-retry').fastRetryModule());

import net from 'node:net';
import type { AddressInfo } from 'node:net';

import { NodeApiError } from 'n8n-workflow';

import { networkError } from '../../nodes/shared/errors';
import { decide, DEFAULT_RETRY_POLICY, describeNetworkError, networkFailure } from '../../nodes/shared/retry';
import { useSandbox } from '../helpers/node-runner';
import { closedPort, dumpEverything, runError } from './helpers';

const ctx = useSandbox();

const TOKEN = 'unreachable-token-0123456789';
const createTag = { resource: 'tag', operation: 'create', name: 'Unreachable' };
const listUsers = { resource: 'user', operation: 'getAll', returnAll: true };

/** A raw TCP server that reads each request, counts it, and resets the connection without answering. */
async function resettingServer(): Promise<{ port: number; requests: string[]; close(): Promise<void> }> {
	const requests: string[] = [];
	const sockets = new Set<net.Socket>();
	const server = net.createServer((socket) => {
		sockets.add(socket);
		socket.on('error', () => undefined);
		socket.once('data', (chunk) => {
			requests.push(chunk.toString('latin1').split('\r\n')[0]);
			socket.resetAndDestroy();
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		port: (server.address() as AddressInfo).port,
		requests,
		close: async () => {
			for (const socket of sockets) socket.destroy();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}

describe('nothing was sent: the API cannot have done anything', () => {
	test('connection refused: the POST is sent again (3 attempts) and the message says nothing was sent', async () => {
		const port = await closedPort();
		const error = await runError(ctx.sandbox, { baseUrl: `http://127.0.0.1:${port}/v2`, apiToken: TOKEN, parameters: createTag });
		expect(error).toBeInstanceOf(NodeApiError);
		expect(error.message).toBe(`Could not reach the API at 127.0.0.1:${port} (ECONNREFUSED): nothing was sent`);
		expect(String(error.description)).toBe(
			`POST /tag/create never reached the API, so nothing was done on the platform. Nothing accepted the connection at 127.0.0.1:${port}. Check the host and port of the Base URL in the credential, and that the API is running and reachable from n8n. Gave up after 3 attempts.`,
		);
		expect(dumpEverything(error)).not.toContain(TOKEN);
	});

	test('an unknown host (the reserved .invalid domain): nothing was sent, named with the host', async () => {
		// .invalid never resolves (RFC 6761). Without a DNS server the lookup fails as EAI_AGAIN
		// (temporary, retried) instead of ENOTFOUND; the timeout bounds a lookup that would hang.
		const error = await runError(ctx.sandbox, {
			baseUrl: 'https://api.conversation-inbox.invalid/v2',
			apiToken: TOKEN,
			parameters: createTag,
			timeoutMs: 10_000,
		});
		expect(error).toBeInstanceOf(NodeApiError);
		expect(error.message).toMatch(/^Could not reach the API at api\.conversation-inbox\.invalid \((ENOTFOUND|EAI_AGAIN)\): nothing was sent$/);
		expect(String(error.description)).toContain('POST /tag/create never reached the API, so nothing was done on the platform.');
		expect(String(error.description)).toContain('api.conversation-inbox.invalid');
		expect(String(error.description)).not.toContain('may have carried out');
		expect(dumpEverything(error)).not.toContain(TOKEN);
	});
});

describe("n8n 1.x's error (the same failures; e2e runs them in real n8n 1.123)", () => {
	// A stand-in, named so: n8n 1.x's NodeApiError drops the cause and keeps the code as httpCode
	// and Node's message in messages (checked against n8n-core 1.123.81's httpRequest).
	const n8n1Error = (code: string, nodeMessage: string): Error =>
		Object.assign(new Error('The service refused the connection - perhaps it is offline'), { cause: undefined, httpCode: code, messages: [nodeMessage, nodeMessage] });
	const node = { id: '1', name: 'Inbox', type: 'conversationInbox', typeVersion: 1, position: [0, 0] as [number, number], parameters: {} };

	test.each([
		['ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:9', '127.0.0.1:9', true],
		['ENOTFOUND', 'getaddrinfo ENOTFOUND api.example.invalid', 'api.example.invalid', false],
		['ETIMEDOUT', 'connect ETIMEDOUT 10.0.0.1:443', '10.0.0.1:443', true],
	] as const)('%s, Node\'s message "%s": nothing was sent, at %s; a POST retried: %s', (code, nodeMessage, host, retried) => {
		const cause = n8n1Error(code, nodeMessage);
		expect(networkError(node, cause, 'POST', '/tag/create').message).toBe(`Could not reach the API at ${host} (${code}): nothing was sent`);
		const failure = networkFailure(describeNetworkError(cause));
		expect(decide(failure, { method: 'POST' }, 1, DEFAULT_RETRY_POLICY).retry).toBe(retried);
	});

	test('a reset (read ECONNRESET): retried for GET only, not "nothing was sent"', () => {
		const cause = n8n1Error('ECONNRESET', 'read ECONNRESET');
		expect(networkError(node, cause, 'POST', '/tag/create').message).not.toContain('nothing was sent');
		const failure = networkFailure(describeNetworkError(cause));
		expect([decide(failure, { method: 'GET' }, 1, DEFAULT_RETRY_POLICY).retry, decide(failure, { method: 'POST' }, 1, DEFAULT_RETRY_POLICY).retry]).toEqual([true, false]);
	});
});

describe('the request may have arrived: a POST is not sent again', () => {
	test('a raw server resets the connection after reading the POST: one request, "may have carried out"', async () => {
		const server = await resettingServer();
		try {
			const error = await runError(ctx.sandbox, { baseUrl: `http://127.0.0.1:${server.port}/v2`, apiToken: TOKEN, parameters: createTag });
			expect(error).toBeInstanceOf(NodeApiError);
			expect(error.message).not.toContain('nothing was sent');
			expect(String(error.description)).toContain('POST /tag/create got no HTTP answer (ECONNRESET)');
			expect(String(error.description)).toContain('Not retried: the API may have carried out this POST before failing (ECONNRESET)');
			expect(server.requests).toEqual(['POST /v2/tag/create HTTP/1.1']);
		} finally {
			await server.close();
		}
	});

	test('the same reset on a GET is retried: 3 requests, then the error', async () => {
		const server = await resettingServer();
		try {
			const error = await runError(ctx.sandbox, { baseUrl: `http://127.0.0.1:${server.port}/v2`, apiToken: TOKEN, parameters: listUsers });
			expect(String(error.description)).toContain('Gave up after 3 attempts.');
			expect(server.requests).toHaveLength(3);
		} finally {
			await server.close();
		}
	});

	test('the sandbox resets the POST after reading it: one request, nothing created, not "nothing was sent"', async () => {
		ctx.sandbox.addFault({ path: '/tag/create', kind: 'reset', times: Infinity });
		const error = await runError(ctx.sandbox, { parameters: createTag });
		expect(error.message).not.toContain('nothing was sent');
		expect(String(error.description)).toContain('Not retried: the API may have carried out this POST');
		expect(ctx.sandbox.requests.filter((r) => r.path === '/v2/tag/create')).toHaveLength(1);
	});
});
