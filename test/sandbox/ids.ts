import { createHash } from 'node:crypto';

/**
 * Deterministic ids matching `^c[a-z0-9]{24}$`: the first 24 hex digits of a SHA-1 over the parts.
 * Seeded records derive their id from their role, so ids are the same in every run and in DEMO.
 */
export function seededId(...parts: Array<string | number>): string {
	return 'c' + createHash('sha1').update(parts.join(':')).digest('hex').slice(0, 24);
}

/** Ids for records created at run time: a per-kind counter, hashed, so runs stay reproducible. */
export class IdFactory {
	private readonly counters = new Map<string, number>();

	next(kind: string): string {
		const n = (this.counters.get(kind) ?? 0) + 1;
		this.counters.set(kind, n);
		return seededId('runtime', kind, n);
	}
}

/** Keeps only the digits of a phone number ('+55 (11) 98765-0001' → '5511987650001'). */
export function digitsOf(value: string): string {
	return value.replace(/\D+/g, '');
}

export const isLid = (value: string): boolean => value.trim().toLowerCase().endsWith('@lid');

export const contactJid = (digits: string): string => `${digits}@s.whatsapp.net`;
