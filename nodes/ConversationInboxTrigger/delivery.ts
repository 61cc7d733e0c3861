/**
 * Handling of one delivery: authenticity check, payload reading, the output item.
 * Pure functions over plain values so each rule can be read (and tested) on its own.
 */
import { createHash, timingSafeEqual } from 'crypto';
import type { IDataObject } from 'n8n-workflow';

import { redactSecrets } from '../shared/errors';
import type { Registration } from './registrations';
import { REGISTRATION_ID_HEADER, SECRET_HEADER } from './registrations';
import { SECRET_TAG_LENGTH, secretHash } from './secret';

// Written once, in shared/errors.ts (the action node redacts its answers with it too).
export { redactSecrets };

/**
 * Largest body (in characters, or bytes for a raw body) the trigger parses itself. n8n's own body
 * parser already refuses bodies above N8N_PAYLOAD_SIZE_MAX (16 MB by default); this bound only
 * applies when n8n hands over an unparsed body (text/plain or an unknown content type).
 */
export const MAX_RAW_BODY_LENGTH = 5 * 1024 * 1024;

export type HeaderValue = string | string[] | undefined;
export type Headers = Record<string, HeaderValue>;

function digest(value: string) {
	return createHash('sha256').update(value, 'utf8').digest();
}

/**
 * True when `provided` is exactly the node's secret. Both sides are hashed to 32 bytes first and
 * compared with `timingSafeEqual`, so the time taken depends neither on where the values differ
 * nor on the secret's length; a value of another length is just another mismatch. A header sent
 * several times (an array) is rejected.
 */
export function secretMatches(provided: HeaderValue, secret: string | undefined): boolean {
	if (typeof secret !== 'string' || secret === '') return false;
	const candidate = typeof provided === 'string' ? provided : '';
	const equal = timingSafeEqual(digest(candidate), digest(secret));
	return equal && typeof provided === 'string';
}

export type SecretCheck =
	| { ok: true }
	| { ok: false; reason: string };

/**
 * True when `provided` is the secret of one of the registrations: its hash equals the stored
 * `secretHash` (or starts with the older `secretTag`). Each comparison runs, in constant time.
 */
export function registrationMatches(provided: HeaderValue, registrations: Registration[]): boolean {
	const candidate = typeof provided === 'string' ? provided : '';
	const hash = Buffer.from(secretHash(candidate), 'hex');
	let matched = false;
	for (const registration of registrations) {
		let equal = false;
		if (registration.secretHash !== undefined) {
			equal = timingSafeEqual(hash, Buffer.from(registration.secretHash, 'hex'));
		} else if (registration.secretTag !== undefined) {
			const tag = Buffer.from(registration.secretTag, 'hex');
			equal = tag.length === SECRET_TAG_LENGTH / 2 && timingSafeEqual(hash.subarray(0, tag.length), tag);
		}
		matched = equal || matched;
	}
	return matched && candidate !== '';
}

/**
 * Checks the secret header of a delivery against every secret the node accepts: the one derived
 * from its current token, a version-1 random one if it has it, and the secret of every registration
 * it made (by hash, so a registration made under an earlier token stays accepted). Each comparison
 * runs (constant time, no early exit). The reason names the header, never a value.
 */
export function checkDeliverySecret(
	provided: HeaderValue,
	accepted: Array<string | undefined>,
	registrations: Registration[] = [],
): SecretCheck {
	const known = accepted.filter((secret): secret is string => typeof secret === 'string' && secret !== '');
	const matches = known.map((secret) => secretMatches(provided, secret));
	const registered = registrationMatches(provided, registrations);
	if (typeof provided === 'string' && (matches.includes(true) || registered)) return { ok: true };
	if (provided === undefined) return { ok: false, reason: `the ${SECRET_HEADER} header is missing` };
	if (Array.isArray(provided)) {
		return { ok: false, reason: `the ${SECRET_HEADER} header was sent more than once` };
	}
	if (known.length === 0 && registrations.length === 0) {
		return {
			ok: false,
			reason: "the node's credential could not be read (no API token), so no secret could be checked",
		};
	}
	return {
		ok: false,
		reason:
			`the ${SECRET_HEADER} header does not match this node's secret nor that of any registration it made ` +
			'(a registration of another node, or a forged request)',
	};
}

/** First value of a header, or undefined when absent or sent several times. */
export function singleHeader(headers: Headers, name: string): string | undefined {
	const value = headers[name.toLowerCase()];
	return typeof value === 'string' ? value : undefined;
}

/**
 * Request headers without the secret header, and without the registration's identity (the
 * trigger's bookkeeping, issue 42: the item of a saved version-1 or 2 node stays what it was).
 * Names are lower-case in Node.
 */
export function publicHeaders(headers: Headers): IDataObject {
	const copy: IDataObject = {};
	for (const [name, value] of Object.entries(headers)) {
		const lower = name.toLowerCase();
		if (lower === SECRET_HEADER || lower === REGISTRATION_ID_HEADER) continue;
		if (value !== undefined) copy[name] = value;
	}
	return copy;
}

export type PayloadResult =
	| { ok: true; payload: unknown; source: 'body' | 'query' }
	| { ok: false; statusCode: 400 | 413 | 415; message: string };

function isPlainObject(value: unknown): value is IDataObject {
	return !!value && typeof value === 'object' && !Array.isArray(value) && !(value instanceof Uint8Array);
}

function parseText(text: string): PayloadResult | undefined {
	if (text.length > MAX_RAW_BODY_LENGTH) {
		return {
			ok: false,
			statusCode: 413,
			message: `The body is larger than ${MAX_RAW_BODY_LENGTH} characters`,
		};
	}
	if (text.trim() === '') return undefined;
	try {
		return { ok: true, payload: JSON.parse(text) as unknown, source: 'body' };
	} catch {
		return { ok: false, statusCode: 400, message: 'The body is not valid JSON' };
	}
}

/**
 * Bytes 0x80-0x9F of windows-1252, the encoding WHATWG (and TextDecoder) gives the labels
 * iso-8859-1, latin1 and windows-1252: Node's TextDecoder reads them as C1 controls (“ as U+0093).
 */
const WINDOWS_1252_80_9F =
	'\u20ac\u0081\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\u008d\u017d\u008f' +
	'\u0090\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\u009d\u017e\u0178';

/** `bytes` read in `charset`; throws for a charset TextDecoder does not know. */
function decode(bytes: Uint8Array, charset: string): string {
	const decoder = new TextDecoder(charset);
	const text = decoder.decode(bytes);
	if (decoder.encoding !== 'windows-1252') return text;
	return text.replace(/[\u0080-\u009f]/g, (char) => WINDOWS_1252_80_9F[char.charCodeAt(0) - 0x80]);
}

/** The charset a Content-Type header declares, UTF-8 when it declares none. */
function charsetOf(contentType: unknown): string {
	const declared = typeof contentType === 'string' ? /;\s*charset="?([^";\s]+)/i.exec(contentType) : null;
	return declared ? declared[1] : 'utf-8';
}

/**
 * The delivered payload. Rules, in order:
 * - a body n8n already parsed (JSON, form) that is not empty is the payload;
 * - a text body (text/plain, or the raw bytes of an unknown content type, read in the charset its
 *   Content-Type declares, as n8n 3.2 reads bodies) is parsed as JSON: invalid JSON → 400, longer
 *   than MAX_RAW_BODY_LENGTH → 413, a charset no decoder knows → 415 (no execution in each case);
 * - otherwise (GET, or an empty body) the query string is the payload.
 */
export function readPayload(body: unknown, rawBody: unknown, query: unknown, contentType?: unknown): PayloadResult {
	if (Array.isArray(body) || (isPlainObject(body) && Object.keys(body).length > 0)) {
		return { ok: true, payload: body, source: 'body' };
	}
	if (typeof body === 'string') {
		const parsed = parseText(body);
		if (parsed) return parsed;
	} else if (rawBody instanceof Uint8Array && rawBody.byteLength > 0) {
		if (rawBody.byteLength > MAX_RAW_BODY_LENGTH) {
			return {
				ok: false,
				statusCode: 413,
				message: `The body is larger than ${MAX_RAW_BODY_LENGTH} bytes`,
			};
		}
		const charset = charsetOf(contentType);
		let text: string;
		try {
			text = decode(rawBody, charset);
		} catch {
			return { ok: false, statusCode: 415, message: `The body's charset "${charset}" is not one the trigger can read` };
		}
		const parsed = parseText(text);
		if (parsed) return parsed;
	}
	return { ok: true, payload: isPlainObject(query) ? query : {}, source: 'query' };
}

/** A string field of the payload (top level), if present. */
export function payloadField(payload: unknown, ...names: string[]): string | undefined {
	if (!isPlainObject(payload)) return undefined;
	for (const name of names) {
		const value = payload[name];
		if (typeof value === 'string' && value !== '') return value;
	}
	return undefined;
}

