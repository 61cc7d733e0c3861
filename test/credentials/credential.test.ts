import { ConversationInboxApi } from '../../credentials/ConversationInboxApi.credentials';
import { sendCredentialTestRequest } from '../helpers/credential-tester';
import { useSandbox } from '../helpers/node-runner';

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
		expect(result).toEqual({ ok: true });
		expect(sandbox.requests).toHaveLength(1);
		expect(sandbox.requests[0]).toMatchObject({ method: 'GET', path: '/v2/user/list', status: 200 });
		expect(sandbox.requests[0].headers.authorization).toBe(`Bearer ${sandbox.token}`);
	});

	test('a trailing slash on the Base URL is stripped', async () => {
		const { sandbox } = ctx;
		const result = await sendCredentialTestRequest({ baseUrl: `${sandbox.baseUrl}//`, apiToken: sandbox.token });
		expect(result).toEqual({ ok: true });
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
});
