import { ConversationInboxApi } from '../../credentials/ConversationInboxApi.credentials';
import { testCredential } from '../helpers/credential-tester';
import { useSandbox } from '../helpers/node-runner';

describe('conversationInboxApi credential', () => {
	const ctx = useSandbox();

	test('the test request succeeds with the right token and calls GET /v2/user/list with Bearer auth', async () => {
		const { sandbox } = ctx;
		const result = await testCredential({ baseUrl: sandbox.baseUrl, apiToken: sandbox.token });
		expect(result).toEqual({ status: 'OK', message: 'Connection successful!' });
		expect(sandbox.requests).toHaveLength(1);
		expect(sandbox.requests[0]).toMatchObject({ method: 'GET', path: '/v2/user/list', status: 200 });
		expect(sandbox.requests[0].headers.authorization).toBe(`Bearer ${sandbox.token}`);
	});

	test('a trailing slash on the Base URL is stripped', async () => {
		const { sandbox } = ctx;
		const result = await testCredential({ baseUrl: `${sandbox.baseUrl}//`, apiToken: sandbox.token });
		expect(result.status).toBe('OK');
		expect(sandbox.requests[0].path).toBe('/v2/user/list');
	});

	test('a wrong token fails with the readable 401 message, not a generic one', async () => {
		const { sandbox } = ctx;
		const result = await testCredential({ baseUrl: sandbox.baseUrl, apiToken: 'not-the-token' });
		expect(result.status).toBe('Error');
		expect(result.message).toContain('API token was rejected (HTTP 401)');
		expect(result.message).not.toContain('not-the-token');
		expect(sandbox.requests[0].status).toBe(401);
	});

	test('a Base URL without /v2 fails with the 404 hint about /v2', async () => {
		const { sandbox } = ctx;
		const result = await testCredential({ baseUrl: sandbox.url, apiToken: sandbox.token });
		expect(result.status).toBe('Error');
		expect(result.message).toContain('ends in /v2');
	});

	test('an unreachable API fails with the connection error code', async () => {
		const result = await testCredential({ baseUrl: 'http://127.0.0.1:1/v2', apiToken: 'x' });
		expect(result).toEqual({ status: 'Error', message: 'ECONNREFUSED' });
	});

	test('the token field is a password field and authentication is Bearer, other headers kept', async () => {
		const credential = new ConversationInboxApi();
		const token = credential.properties.find((property) => property.name === 'apiToken');
		expect(token?.typeOptions?.password).toBe(true);
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
