/* eslint-disable -- development tooling, not shipped: n8n's node rules (eslint.config.mjs, n8n-node lint) are for nodes/ and credentials/ */
/**
 * The editor's push connection to n8n main: a WebSocket to `/rest/push?pushRef=<id>` (n8n's default
 * push backend), with the login cookie and an Origin equal to the host (n8n refuses another origin in
 * production mode). Execution events of a manual run, and "test webhook received", reach the
 * editor only this way: in queue mode a worker relays them through Redis to main, which sends them
 * to the connection of the run's pushRef.
 *
 * A minimal client (RFC 6455, client side: text and binary messages, fragments, ping → pong, close),
 * because the test process runs on Node 20, which has no WebSocket of its own, and the project adds no
 * dependency for its tests.
 */
import { randomBytes } from 'node:crypto';
import { request } from 'node:http';
import type { Socket } from 'node:net';

export interface PushMessage {
	type: string;
	data: Record<string, unknown>;
}

export class PushConnection {
	readonly messages: PushMessage[] = [];
	private buffer = Buffer.alloc(0);
	private fragments: Buffer[] = [];
	private waiters: Array<() => void> = [];

	private constructor(private readonly socket: Socket) {
		socket.on('data', (chunk: Buffer) => {
			this.buffer = Buffer.concat([this.buffer, chunk]);
			this.readFrames();
		});
		socket.on('error', () => undefined);
	}

	/** Opens the connection; resolves once n8n accepted the upgrade. */
	static async open(baseUrl: string, pushRef: string, cookie: string): Promise<PushConnection> {
		const url = new URL(`/rest/push?pushRef=${encodeURIComponent(pushRef)}`, baseUrl);
		return await new Promise((resolve, reject) => {
			const req = request(url, {
				headers: {
					connection: 'Upgrade',
					upgrade: 'websocket',
					'sec-websocket-version': '13',
					'sec-websocket-key': randomBytes(16).toString('base64'),
					origin: url.origin,
					cookie,
				},
			});
			req.on('upgrade', (_res, socket, head) => {
				const connection = new PushConnection(socket);
				if (head.length) socket.emit('data', head);
				resolve(connection);
			});
			req.on('response', (res) => reject(new Error(`n8n refused the push connection: HTTP ${res.statusCode}`)));
			req.on('error', reject);
			req.end();
		});
	}

	/** Resolves with the first message (received so far or later) that `match` accepts. */
	async waitFor(description: string, match: (message: PushMessage) => boolean, timeoutMs = 60_000): Promise<PushMessage> {
		const deadline = Date.now() + timeoutMs;
		for (;;) {
			const found = this.messages.find(match);
			if (found) return found;
			const left = deadline - Date.now();
			if (left <= 0) throw new Error(`no push message "${description}" within ${timeoutMs} ms; received: ${this.messages.map((m) => m.type).join(', ')}`);
			await new Promise<void>((resolve) => {
				const timer = setTimeout(resolve, Math.min(left, 1000));
				this.waiters.push(() => {
					clearTimeout(timer);
					resolve();
				});
			});
		}
	}

	close(): void {
		this.socket.destroy();
	}

	private readFrames(): void {
		for (;;) {
			const b = this.buffer;
			if (b.length < 2) return;
			let length = b[1] & 0x7f;
			let offset = 2;
			if (length === 126) {
				if (b.length < 4) return;
				length = b.readUInt16BE(2);
				offset = 4;
			} else if (length === 127) {
				if (b.length < 10) return;
				length = Number(b.readBigUInt64BE(2));
				offset = 10;
			}
			if (b.length < offset + length) return;
			const fin = (b[0] & 0x80) !== 0;
			const opcode = b[0] & 0x0f;
			const payload = b.subarray(offset, offset + length);
			this.buffer = b.subarray(offset + length);
			if (opcode === 0x9) this.send(0xa, payload);
			else if (opcode === 0x8) this.socket.end();
			else if (opcode === 0x0 || opcode === 0x1 || opcode === 0x2) {
				this.fragments.push(Buffer.from(payload));
				if (fin) this.deliver(Buffer.concat(this.fragments.splice(0)).toString('utf8'));
			}
		}
	}

	private deliver(text: string): void {
		try {
			this.messages.push(JSON.parse(text) as PushMessage);
		} catch {
			this.messages.push({ type: 'unparsed', data: { text } });
		}
		for (const wake of this.waiters.splice(0)) wake();
	}

	/** A client frame (masked, as RFC 6455 requires of clients). */
	private send(opcode: number, payload: Buffer): void {
		const mask = randomBytes(4);
		const masked = Buffer.from(payload.map((byte, i) => byte ^ mask[i % 4]));
		this.socket.write(Buffer.concat([Buffer.from([0x80 | opcode, 0x80 | payload.length]), mask, masked]));
	}
}
