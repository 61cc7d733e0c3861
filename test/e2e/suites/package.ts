/* eslint-disable -- development tooling, not shipped: n8n's node rules (eslint.config.mjs, n8n-node lint) are for nodes/ and credentials/ */
/**
 * n8n loads the package as a community package, with no errors, and its credential test works.
 */
import { existsSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';

import { importAndActivate, runWebhookWorkflow, type E2EContext } from '../harness/context';
import { processGroupMembers } from '../harness/n8n-process';
import { PACKAGE_NAME } from '../harness/provision';
import { ACTION_NODE_TYPE, chainWorkflow, CREDENTIAL_TYPE, TRIGGER_NODE_TYPE } from '../harness/workflows';

/**
 * Log lines at level error or warn. n8n prints "<ISO time> | <level> | <message>" when its output is
 * not a terminal ("<time>   <level>   <message>" in colour on one).
 */
export function problemLines(log: string): string[] {
	return log.split('\n').filter((line) => /\|\s*(error|warn)\s*\|/.test(line) || /^\S+\s+(error|warn)\s/.test(line) || /\bError:/.test(line));
}

export function packageSuite(ctx: () => E2EContext): void {
	const major = (): string => ctx().major;
	describe('the package in n8n', () => {
		test('is installed in the user folder as a community package and its node types are offered', async () => {
			const { stack, client } = ctx();
			const installed = join(stack.userFolder, '.n8n', 'nodes', 'node_modules', PACKAGE_NAME);
			expect(existsSync(join(installed, 'dist', 'nodes', 'ConversationInbox', 'ConversationInbox.node.js'))).toBe(true);
			// npm pack ships dist/ only (plus package.json, index.js, README when present).
			expect(existsSync(join(installed, 'nodes'))).toBe(false);
			expect(existsSync(join(installed, 'test'))).toBe(false);

			const nodeTypes = await client.nodeTypeNames();
			expect(nodeTypes).toEqual(expect.arrayContaining([ACTION_NODE_TYPE, TRIGGER_NODE_TYPE]));
			// Loaded from the community-package folder, not as a custom extension.
			expect(nodeTypes.filter((name) => name.startsWith('CUSTOM.'))).toEqual([]);
			expect(await client.credentialTypeNames()).toContain(CREDENTIAL_TYPE);
		});

		test("n8n's start-up log shows the package loaded and has no error (and no warning but n8n's own)", () => {
			const startup = ctx().stack.n8n.startupLog();
			expect(startup).toMatch(new RegExp(`Loaded all credentials and nodes from ${PACKAGE_NAME} .*"credentials":1,"nodes":2`));
			// n8n's own warnings at every start: the migration notice, an empty deprecation notice, and
			// (2.x) no Python for its Python task runner on this machine; on a busy machine, its own
			// SQLite health check ("Database ping failed (1): Database connection timed out").
			// A line that names our package is never one of n8n's own.
			const expected = [
				/Migrations in progress, please do NOT stop the process/,
				/\|\s*warn\s*\|\s*$/,
				/Failed to start Python task runner in internal mode/,
				/\|\s*warn\s*\|\s*Database ping failed \(\d+\): Database connection timed out/,
			];
			const ours = (line: string): boolean => /conversation-?inbox|conversationInbox/i.test(line);
			expect(problemLines(startup).filter((line) => ours(line) || !expected.some((re) => re.test(line)))).toEqual([]);
			// Nothing about our package later either (the tests' own 404 probes are n8n's, not ours).
			const later = problemLines(ctx().stack.n8n.log()).filter((line) => /conversation-?inbox|conversationInbox/i.test(line));
			expect(later).toEqual([]);
			expect(ctx().stack.n8n.log()).not.toMatch(/Skipping package|Failed to load package|failed to load package metadata/);
		});
	});

	test('n8n runs in a process group of its own (with any task runner it forks), which stop() ends', () => {
		const { n8n } = ctx().stack;
		const members = processGroupMembers(n8n.pid);
		expect(members.map((m) => m.pid)).toContain(n8n.pid);
		// Every member is n8n or a process it forked (the 2.x JavaScript task runner).
		for (const member of members) expect(member.command).toMatch(/n8n\/bin\/n8n start|@n8n\/task-runner/);
		if (ctx().major === '2') expect(members.some((m) => m.command.includes('@n8n/task-runner'))).toBe(true);
	});

	describe('the credential', () => {
		test("n8n's credential test passes with the sandbox token", async () => {
			const { client, stack, sandbox } = ctx();
			sandbox.clearRequests();
			const result = await client.testCredential(stack.credential, { baseUrl: sandbox.baseUrl, apiToken: sandbox.token });
			expect(result).toEqual({ status: 'OK', message: expect.any(String) });
			// It really asked the API, with the bearer token.
			expect(sandbox.requests.map((r) => [r.method, r.path, r.status])).toEqual([['GET', '/v2/user/list', 200]]);
			expect(sandbox.requests[0].headers.authorization).toBe(`Bearer ${sandbox.token}`);
		});

		test('fails for a wrong token, with our message and without the token', async () => {
			const { client, stack, sandbox } = ctx();
			sandbox.clearRequests();
			const wrong = 'wrong-token-1234567890';
			const result = await client.testCredential(stack.credential, { baseUrl: sandbox.baseUrl, apiToken: wrong });
			expect(result.status).toBe('Error');
			// 2.x shows the credential's rule message; 1.x applies the rules only to some failures
			// and shows its generic 401 text instead.
			expect(result.message).toMatch(major() === '2' ? /token was rejected \(HTTP 401\)/ : /token was rejected \(HTTP 401\)|Authorization failed/);
			expect(result.message).not.toContain(wrong);
			// (n8n may ask more than once; every request carried the wrong token and got 401.)
			expect(sandbox.requests.length).toBeGreaterThanOrEqual(1);
			for (const request of sandbox.requests) {
				expect([request.path, request.status, request.headers.authorization]).toEqual(['/v2/user/list', 401, `Bearer ${wrong}`]);
			}
		});

		test('fails for a base URL without /v2, pointing at the URL', async () => {
			const { client, stack, sandbox } = ctx();
			sandbox.clearRequests();
			const result = await client.testCredential(stack.credential, { baseUrl: sandbox.url, apiToken: sandbox.token });
			expect(result.status).toBe('Error');
			expect(result.message).toMatch(major() === '2' ? /not found at this Base URL \(HTTP 404\)/ : /not found at this Base URL \(HTTP 404\)|could not be found/);
			// The request went to <url>/user/list, outside /v2 (the sandbox records /v2 requests only).
			expect(sandbox.requests).toEqual([]);
		});

		// Issue 43, row 1: a 2xx that is not the API fails the test, naming what answered and the address to use.
		test('n8n\'s own editor as the Base URL (a web page answers every path): fails, naming a web page and the address to use', async () => {
			const { client, stack } = ctx();
			const result = await client.testCredential(stack.credential, { baseUrl: `${stack.n8n.url}/v2`, apiToken: 'editor-url-token-123456' });
			expect(result).toEqual({
				status: 'Error',
				message: "A web page answered, not the Conversation Inbox API: this Base URL is a website's address (or a proxy or login page answers in the API's place). Use the API's address, ending in /v2, e.g. https://api.example.com/v2.",
			});
		});

		test('another service\'s JSON at the Base URL: fails, naming another service and the address to use', async () => {
			const { client, stack } = ctx();
			const server = createHttpServer((_request, response) => {
				response.writeHead(200, { 'Content-Type': 'application/json' });
				response.end(JSON.stringify({ status: 'ok', users: [] }));
			});
			await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
			try {
				const { port } = server.address() as AddressInfo;
				const result = await client.testCredential(stack.credential, { baseUrl: `http://127.0.0.1:${port}/v2`, apiToken: 'json-service-token-123456' });
				expect(result).toEqual({
					status: 'Error',
					message: 'Another service answered, not the Conversation Inbox API (its answer has no "success", which every answer of the API has). Use the API\'s address, ending in /v2, e.g. https://api.example.com/v2.',
				});
			} finally {
				await new Promise<void>((resolve) => server.close(() => resolve()));
			}
		});

		test('a Base URL without http(s)://: n8n\'s credential test shows its own words for a declarative test (2.x: the bare code, 1.x "Invalid URL")', async () => {
			const { client, stack, sandbox } = ctx();
			const result = await client.testCredential(stack.credential, { baseUrl: sandbox.baseUrl.replace(/^https?:\/\//, ''), apiToken: sandbox.token });
			// As with a refused connection (below): n8n words a failure without an answer itself, 2.x
			// with the error's code (issue 43, row 11: what the declarative test can and cannot word).
			console.log(`[e2e n8n ${major()}] credential test, Base URL without scheme: ${JSON.stringify(result)}`);
			expect(result).toEqual({ status: 'Error', message: major() === '2' ? 'ERR_INVALID_URL' : 'Invalid URL' });
		});

		test('an unreachable Base URL: n8n\'s credential test shows its own words (2.x: the bare code) for a declarative test', async () => {
			const { client, stack } = ctx();
			const port = await closedPort();
			const result = await client.testCredential(stack.credential, { baseUrl: `http://127.0.0.1:${port}/v2`, apiToken: 'unreachable-token-123456' });
			// n8n's CredentialsTester answers `error.cause.code` for a declarative test (1.x, which drops
			// the cause, its generic wording): our words cannot reach this panel (a node credentialTest
			// method could, but n8n offers it only the deprecated helpers.request, which n8n's
			// verification lint forbids). The node's own message: below.
			expect(result).toEqual({ status: 'Error', message: major() === '2' ? 'ECONNREFUSED' : 'The service refused the connection - perhaps it is offline' });
		});

		test('the node with an unreachable Base URL: n8n shows "Could not reach the API at <host> (ECONNREFUSED): nothing was sent"', async () => {
			const { client } = ctx();
			const port = await closedPort();
			const unreachable = await client.createCredential({ name: `Unreachable ${port}`, type: CREDENTIAL_TYPE, data: { baseUrl: `http://127.0.0.1:${port}/v2`, apiToken: 'unreachable-token-123456' } });
			const definition = chainWorkflow(`e2e unreachable ${port}`, `e2e-unreachable-${port}`, [{ name: 'Create Tag', parameters: { resource: 'tag', operation: 'create', name: 'Unreachable' } }], unreachable);
			const workflow = await importAndActivate(ctx(), definition);
			try {
				const { execution } = await runWebhookWorkflow(ctx(), workflow, {}, false);
				expect(execution.status).toBe('error');
				const error = execution.data.resultData.error as { message?: string; description?: string } | undefined;
				expect(error?.message).toBe(`Could not reach the API at 127.0.0.1:${port} (ECONNREFUSED): nothing was sent`);
				// a POST that reached nothing is sent again like a read
				expect(error?.description).toContain('Gave up after 3 attempts.');
			} finally {
				await client.deactivate(workflow.id);
			}
		});
	});
}

/** A local port nothing listens on (bound once, then released). */
async function closedPort(): Promise<number> {
	const server = createServer();
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	await new Promise<void>((resolve) => server.close(() => resolve()));
	return port;
}
