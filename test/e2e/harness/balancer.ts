/* eslint-disable -- development tooling, not shipped: n8n's node rules (eslint.config.mjs, n8n-node lint) are for nodes/ and credentials/ */
/**
 * The load balancer n8n's queue-mode docs put in front of the processes: production webhooks
 * (`/webhook/…`) go to the webhook processor, everything else (editor, REST, and the test webhooks
 * `/webhook-test/…`, which only main serves) to main. Plain HTTP proxying on 127.0.0.1, in the test
 * process; `routed` counts the requests per target, so a test can see where a delivery went.
 */
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Balancer {
	/** http://127.0.0.1:<port> */
	url: string;
	/** requests proxied so far, by target and path */
	routed: Array<{ target: 'main' | 'webhook'; method: string; path: string; status?: number }>;
	close(): Promise<void>;
}

export async function startBalancer(targets: { main: () => string; webhook: () => string }): Promise<Balancer> {
	const routed: Balancer['routed'] = [];
	const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
		const path = req.url ?? '/';
		const target = path.startsWith('/webhook/') ? 'webhook' : 'main';
		const entry: Balancer['routed'][number] = { target, method: req.method ?? 'GET', path };
		routed.push(entry);
		const upstream = new URL(path, target === 'webhook' ? targets.webhook() : targets.main());
		const forward = request(upstream, { method: req.method, headers: { ...req.headers, host: upstream.host } }, (answer) => {
			entry.status = answer.statusCode;
			res.writeHead(answer.statusCode ?? 502, answer.headers);
			answer.pipe(res);
		});
		forward.on('error', (error) => {
			entry.status = 502;
			if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
			res.end(`balancer: ${error.message}`);
		});
		req.pipe(forward);
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}`,
		routed,
		close: async () => {
			server.closeAllConnections();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}
