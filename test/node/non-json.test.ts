/**
 * Answers that are not JSON (issue 29, DESIGN.md "Reading the API's answers"): a text body is the
 * API's message (its first 300 characters), problem details give their title and detail, a web page
 * is named as a web page (its title), pointing at the Base URL or a proxy and never at the inputs.
 * Through n8n-core's RoutingNode against the sandbox's body shapes (test/sandbox/shapes.ts).
 */
import { NodeApiError } from 'n8n-workflow';

import { runNodeError, useSandbox } from '../helpers/node-runner';
import { VALID } from '../reliability/operations';
import { PROBLEM_TITLE, PROXY_PAGE_TITLE } from '../sandbox';

const ctx = useSandbox();
const UPSERT = '/inbox/upsert-custom-fields-by-phone-number';

describe('answers that are not JSON', () => {
	test('a 400 in text/plain: the text is the message (not "The API sent no message")', async () => {
		ctx.sandbox.setVariants({ shapes: { [UPSERT]: 'textPlain' } });
		ctx.sandbox.addFault({ kind: 'status', status: 400, path: UPSERT, message: 'phoneNumber must be in E.164 format' });
		const error = await runNodeError(ctx.sandbox, { parameters: VALID.customFieldUpsert });
		expect(error).toBeInstanceOf(NodeApiError);
		expect(error.message).toBe('The API rejected the request as invalid (HTTP 400): phoneNumber must be in E.164 format');
		expect(String(error.description)).not.toContain('The API sent no message');
		expect(String(error.description)).toContain('The answer was not JSON (text/plain).');
	});

	test('a long text: its first 300 characters, then …', async () => {
		const text = `${'a'.repeat(299)}bc${'d'.repeat(100)}`;
		ctx.sandbox.setVariants({ shapes: { '/tag/create': 'textPlain' } });
		ctx.sandbox.addFault({ kind: 'status', status: 400, path: '/tag/create', message: text });
		const error = await runNodeError(ctx.sandbox, { parameters: VALID.tagCreate });
		expect(error.message).toBe(`The API rejected the request as invalid (HTTP 400): ${'a'.repeat(299)}b…`);
	});

	test('application/problem+json: its title and detail', async () => {
		ctx.sandbox.setVariants({ shapes: { '/tag/create': 'problemJson' } });
		ctx.sandbox.addFault({ kind: 'status', status: 422, path: '/tag/create', message: 'name is too long' });
		const error = await runNodeError(ctx.sandbox, { parameters: VALID.tagCreate });
		expect(PROBLEM_TITLE).toBe('Request rejected');
		expect(error.message).toBe('The API returned an unexpected status (HTTP 422): Request rejected: name is too long');
	});

	test('a 200 text/html sign-in page of a proxy to Tag → Create: a web page, the Base URL or a proxy, whether done unknown; no hint about the Name', async () => {
		ctx.sandbox.setVariants({ shapes: { '/tag/create': 'htmlPage' } });
		ctx.sandbox.addFault({ kind: 'success-false', path: '/tag/create' });
		const error = await runNodeError(ctx.sandbox, { parameters: VALID.tagCreate });
		expect(PROXY_PAGE_TITLE).toBe('Sign in - Corporate Proxy');
		expect(error.message).toBe('The answer was a web page, not the API (HTTP 200): "Sign in - Corporate Proxy"');
		const description = String(error.description);
		expect(description).toContain('The answer was a web page titled "Sign in - Corporate Proxy", not an answer of the API.');
		expect(description).toContain('Check that the Base URL in the credential points at the API (ending in /v2), not at a web page; a proxy, firewall or login page');
		expect(description).toContain('The node cannot tell whether this POST was carried out');
		expect(description).not.toContain('Check the Name');
		expect(description).not.toContain('1-255');
	});

	test('a 409 web page: no hint of the operation about its inputs ("a tag with this name already exists")', async () => {
		ctx.sandbox.setVariants({ shapes: { '/tag/create': 'htmlPage' } });
		ctx.sandbox.addFault({ kind: 'status', status: 409, path: '/tag/create' });
		const error = await runNodeError(ctx.sandbox, { parameters: VALID.tagCreate });
		expect(error.message).toBe('The answer was a web page, not the API (HTTP 409): "Sign in - Corporate Proxy"');
		expect(String(error.description)).not.toContain('A tag with this name already exists');
		// A refusal: nothing says it may have been done.
		expect(String(error.description)).not.toContain('cannot tell');
	});

	test('the API\'s default text as text/plain: its meaning, no hint about the Name', async () => {
		ctx.sandbox.setVariants({ shapes: { '/tag/create': 'textPlain' } });
		ctx.sandbox.addFault({ kind: 'status', status: 400, path: '/tag/create' });
		const error = await runNodeError(ctx.sandbox, { parameters: VALID.tagCreate });
		expect(error.message).toBe('The API rejected the request as invalid (HTTP 400): Erro ao enviar mensagem');
		expect(String(error.description)).toContain('Portuguese for "error sending message"');
		expect(String(error.description)).not.toContain('Check the Name');
	});
});
