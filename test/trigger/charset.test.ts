/**
 * A delivery whose body declares a charset other than UTF-8 (n8n 3.2 decodes webhook bodies in their
 * declared charset; DESIGN.md "n8n 3.x and verification"). n8n parses JSON, form and text bodies
 * itself; a body of another content type reaches the trigger as raw bytes (every body for a
 * version-1 node, which n8n reads but does not parse), and the trigger reads those in the charset the
 * Content-Type declares, UTF-8 when it declares none. Through n8n-core's WebhookContext and the
 * stand-in for n8n's webhook endpoint, with the headers the sandbox holds for the registration.
 */
import type { IDataObject } from 'n8n-workflow';

import type { EndpointCall } from '../helpers/trigger-harness';
import { activatedTrigger, headersOf, sandboxAndEndpoint, triggerParameters, webhooksFor, WHATSAPP } from './setup';

const fixture = sandboxAndEndpoint();
let url: string;
let headers: Record<string, string>;

beforeAll(async () => {
	const instance = await activatedTrigger(fixture, triggerParameters({ events: ['MESSAGE_RECEIVED'] }), 1);
	url = instance.webhookUrl();
	headers = headersOf(webhooksFor(fixture.sandbox, url).find((webhook) => webhook.type === 'MESSAGE_RECEIVED')!);
});

const TEXT = 'São Paulo: “atenção”, 50 € à vista';
const payloadJson = JSON.stringify({ event: 'MESSAGE_RECEIVED', integrationId: WHATSAPP, data: { message: { text: TEXT } } });

async function deliver(contentType: string, body: Uint8Array): Promise<{ status: number; text: string; call: EndpointCall }> {
	const before = fixture.endpoint.calls.length;
	const response = await fetch(url, { method: 'POST', headers: { ...headers, 'content-type': contentType }, body });
	const text = await response.text();
	const [call] = (await fixture.endpoint.waitForCalls(before + 1)).slice(before);
	return { status: response.status, text, call };
}

const messageText = (call: EndpointCall): unknown => (((call.items?.[0].json.body as IDataObject).data as IDataObject).message as IDataObject).text;

/** windows-1252 bytes of the payload: Latin-1, and €, “, ” at 0x80, 0x93, 0x94 (WHATWG reads "iso-8859-1" as windows-1252). */
function windows1252(text: string): Uint8Array {
	const high: Record<string, number> = { '€': 0x80, '“': 0x93, '”': 0x94 };
	return Uint8Array.from([...text].map((char) => high[char] ?? char.charCodeAt(0)));
}

test.each([
	['application/octet-stream; charset=iso-8859-1', windows1252(payloadJson)],
	['application/octet-stream;charset=ISO-8859-1', windows1252(payloadJson)],
	['application/vnd.inbox+json; charset="windows-1252"', windows1252(payloadJson)],
	['application/octet-stream; charset=UTF-16LE', new Uint8Array(Buffer.from(payloadJson, 'utf16le'))],
	['application/octet-stream', new Uint8Array(Buffer.from(payloadJson, 'utf8'))],
	['application/octet-stream; charset=utf-8', new Uint8Array(Buffer.from(`\ufeff${payloadJson}`, 'utf8'))],
])('a raw body sent as %s is read in that charset', async (contentType, body) => {
	const { status, call } = await deliver(contentType, body);
	expect(status).toBe(200);
	expect(call.items).toHaveLength(1);
	expect(messageText(call)).toBe(TEXT);
});

test('UTF-8 text keeps its C1 control characters (only windows-1252 bytes 0x80-0x9F are remapped)', async () => {
	const text = 'tab\u0093stop';
	const body = JSON.stringify({ event: 'MESSAGE_RECEIVED', integrationId: WHATSAPP, data: { message: { text } } });
	const { status, call } = await deliver('application/octet-stream; charset=utf-8', new Uint8Array(Buffer.from(body, 'utf8')));
	expect(status).toBe(200);
	expect(messageText(call)).toBe(text);
});

test('a charset the trigger cannot decode is refused with 415, naming it; nothing runs', async () => {
	const { status, text, call } = await deliver('application/octet-stream; charset=x-unknown-8', new Uint8Array(Buffer.from(payloadJson, 'utf8')));
	expect(status).toBe(415);
	expect(JSON.parse(text)).toEqual({ success: false, message: 'The body\'s charset "x-unknown-8" is not one the trigger can read' });
	expect(call.items).toBeUndefined();
});
