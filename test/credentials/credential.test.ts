/* eslint-disable -- development tooling, not shipped: a local web server stands in for a website and another service */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { ConversationInboxApi } from '../../credentials/ConversationInboxApi.credentials';
import { sendCredentialTestRequest, successBodyVerdict } from '../helpers/credential-tester';
import { useSandbox } from '../helpers/node-runner';

/** A local HTTP server answering every request 200 with `body` (a stand-in for a website or another service). */
async function serving(contentType: string, body: string): Promise<{ url: string; close: () => Promise<void> }> {
	const server: Server = createServer((_request, response) => {
		response.writeHead(200, { 'Content-Type': contentType });
		response.end(body);
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return { url: `http://127.0.0.1:${port}`, close: async () => await new Promise<void>((resolve) => server.close(() => resolve())) };
}

/**
 * The credential's test REQUEST, sent through n8n-core's RoutingNode. What n8n's "Test" button then
 * shows for each outcome (the rule message for 401/404, the bare code when unreachable) is n8n's
 * CredentialsTester: test/e2e/suites/package.ts runs it through n8n's REST endpoint.
 */
describe('conversationInboxApi credential', () => {
	const ctx = useSandbox();

	test('the test request succeeds with the right token and calls GET /v2/user/list with Bearer auth', async () => {
		const { sandbox } = ctx;
		const result = await sendCredentialTestRequest({ baseUrl: sandbox.baseUrl, apiToken: sandbox.token });
		expect(result).toMatchObject({ ok: true });
		expect(sandbox.requests).toHaveLength(1);
		expect(sandbox.requests[0]).toMatchObject({ method: 'GET', path: '/v2/user/list', status: 200 });
		expect(sandbox.requests[0].headers.authorization).toBe(`Bearer ${sandbox.token}`);
	});

	test('a trailing slash on the Base URL is stripped', async () => {
		const { sandbox } = ctx;
		const result = await sendCredentialTestRequest({ baseUrl: `${sandbox.baseUrl}//`, apiToken: sandbox.token });
		expect(result).toMatchObject({ ok: true });
		expect(sandbox.requests[0].path).toBe('/v2/user/list');
	});

	test('a wrong token: the request carries it and the API answers 401 (the message n8n shows: e2e)', async () => {
		const { sandbox } = ctx;
		const result = await sendCredentialTestRequest({ baseUrl: sandbox.baseUrl, apiToken: 'not-the-token' });
		expect(result.ok).toBe(false);
		// (n8n-core asks a second time after a 401; each request carried the wrong token and got 401)
		expect(sandbox.requests.length).toBeGreaterThanOrEqual(1);
		for (const request of sandbox.requests) {
			expect([request.path, request.status, request.headers.authorization]).toEqual(['/v2/user/list', 401, 'Bearer not-the-token']);
		}
	});

	test('the token field is a password field with a hint where the token comes from; authentication is Bearer, other headers kept', async () => {
		const credential = new ConversationInboxApi();
		const token = credential.properties.find((property) => property.name === 'apiToken');
		expect(token?.typeOptions?.password).toBe(true);
		// Where the token comes from, under the field (n8n's credential modal shows `hint` there; the
		// description is only the label's tooltip).
		expect(token?.hint).toMatch(/^The company API token from the platform's API settings/);
		// A function (issue 16: n8n resolves a generic block's expression for every request).
		const authenticate = credential.authenticate;
		if (typeof authenticate !== 'function') throw new Error('authenticate is not a function');
		const options = await authenticate(
			{ baseUrl: 'http://127.0.0.1/v2', apiToken: 'tok-123' },
			{ url: '/user/list', headers: { 'x-extra': 'kept' } },
		);
		expect(options).toEqual({ url: '/user/list', headers: { 'x-extra': 'kept', Authorization: 'Bearer tok-123' } });
	});

	// Issue 43, row 1: the test passes only when the API itself answered (DESIGN.md, "True where it is said").
	describe('a 2xx that is not the API fails, naming what answered and the address to use', () => {
		test('the API: no rule objects', async () => {
			const result = await sendCredentialTestRequest({ baseUrl: ctx.sandbox.baseUrl, apiToken: ctx.sandbox.token });
			expect(result.ok && successBodyVerdict(result.json)).toBeUndefined();
		});

		test('a web page (n8n\'s own editor answers every path with its page)', async () => {
			const site = await serving('text/html; charset=utf-8', '<!DOCTYPE html><html><head><title>n8n.io - Workflow Automation</title></head><body></body></html>');
			try {
				const result = await sendCredentialTestRequest({ baseUrl: `${site.url}/v2`, apiToken: 'token-123456' });
				expect(result.ok).toBe(true);
				expect(result.ok && successBodyVerdict(result.json)).toBe(
					"A web page answered, not the Conversation Inbox API: this Base URL is a website's address (or a proxy or login page answers in the API's place). Use the API's address, ending in /v2, e.g. https://api.example.com/v2.",
				);
			} finally {
				await site.close();
			}
		});

		test('another service\'s JSON', async () => {
			const service = await serving('application/json', JSON.stringify({ status: 'ok', users: [] }));
			try {
				const result = await sendCredentialTestRequest({ baseUrl: `${service.url}/v2`, apiToken: 'token-123456' });
				expect(result.ok && successBodyVerdict(result.json)).toBe(
					'Another service answered, not the Conversation Inbox API (its answer has no "success", which every answer of the API has). Use the API\'s address, ending in /v2, e.g. https://api.example.com/v2.',
				);
			} finally {
				await service.close();
			}
		});

		test('"success": false under HTTP 200', async () => {
			const refusing = await serving('application/json', JSON.stringify({ success: false, message: 'Erro ao enviar mensagem' }));
			try {
				const result = await sendCredentialTestRequest({ baseUrl: `${refusing.url}/v2`, apiToken: 'token-123456' });
				expect(result.ok && successBodyVerdict(result.json)).toBe('The API answered that the request did not succeed ("success": false). Check the API token, then test again.');
			} finally {
				await refusing.close();
			}
		});
	});
});
