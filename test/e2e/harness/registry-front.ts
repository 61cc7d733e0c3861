/* eslint-disable -- development tooling, not shipped: n8n's node rules (eslint.config.mjs, n8n-node lint) are for nodes/ and credentials/ */
/**
 * The public npm registry's name, for the processes the test starts and no others, leading to the
 * local test registry (registry.ts). n8n's community-packages service uses
 * https://registry.npmjs.org without a licence, and any other registry only with the licensed
 * feature `feat:communityNodes:customRegistry`, which n8n's E2E hook can switch on for main but not
 * for queue workers (they serve no REST). So the n8n processes keep n8n's default registry, and:
 *
 *   - each runs in its own mount namespace (`unshare --mount`, root only) where /etc/hosts is a
 *     bind-mounted copy that maps registry.npmjs.org to a loopback address of its own (127.x.y.z):
 *     n8n's fetches and its npm child processes resolve the name through /etc/hosts;
 *   - on that address, port 443, a small TLS front (this file) with a certificate for
 *     registry.npmjs.org from a throw-away CA made with openssl here proxies every request to the
 *     local registry, saying `Host: registry.npmjs.org` and `X-Forwarded-Proto: https` so that the
 *     tarball URLs it hands out lead back through the front;
 *   - the CA is trusted by those processes alone: NODE_EXTRA_CA_CERTS (n8n's own fetches and npm,
 *     both Node) and npm_config_cafile (npm); TLS checks stay on;
 *   - npm's cache is a folder of its own, so every package npm installs is fetched, not replayed.
 *
 * Nothing in n8n changes and nothing outside these processes sees the mapping (a private mount
 * namespace: the bind mount does not propagate back). The front logs every request it answers,
 * which is how the test counts what npm and n8n fetched.
 */
import { spawnSync } from 'node:child_process';
import { randomInt } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { createServer, type Server } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const PUBLIC_REGISTRY_HOST = 'registry.npmjs.org';

export interface FrontRequest {
	method: string;
	/** path and query, e.g. /n8n-nodes-conversation-inbox/-/n8n-nodes-conversation-inbox-0.1.0.tgz */
	path: string;
	status: number;
	/** npm sends its command (`pack`, `install`, `view`, `outdated`) in the npm-command header */
	npmCommand?: string;
	userAgent?: string;
	at: number;
}

export interface RegistryFront {
	/** the loopback address registry.npmjs.org resolves to inside the namespace */
	readonly address: string;
	/** the throw-away CA's certificate (PEM) */
	readonly caFile: string;
	/** the hosts file bind-mounted over /etc/hosts */
	readonly hostsFile: string;
	/** every request answered so far, in order */
	readonly requests: FrontRequest[];
	/** environment for the processes that use the front (the CA, npm's own cache) */
	readonly env: Record<string, string>;
	/** the command prefix that starts a process in its own mount namespace with the hosts file */
	readonly launcher: string[];
	/** requests for a package's tarball (GET …/-/<name>-<version>.tgz), optionally since index `from` */
	tarballs(from?: number): FrontRequest[];
	stop(): Promise<void>;
}

function run(command: string, args: string[], cwd: string): string {
	const result = spawnSync(command, args, { cwd, encoding: 'utf8' });
	if (result.error) throw result.error;
	if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed (exit ${result.status}):\n${result.stdout}${result.stderr}`);
	return result.stdout;
}

/** A CA and a server certificate for registry.npmjs.org signed by it, valid for one day. */
function makeCertificates(folder: string): { ca: string; key: string; cert: string } {
	const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
	run('openssl', ['req', '-x509', ...ec, '-keyout', 'ca.key', '-out', 'ca.pem', '-days', '1', '-subj', '/CN=n8n-nodes-conversation-inbox e2e throw-away CA', '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign'], folder);
	run('openssl', ['req', ...ec, '-keyout', 'server.key', '-out', 'server.csr', '-subj', `/CN=${PUBLIC_REGISTRY_HOST}`], folder);
	writeFileSync(join(folder, 'server.ext'), `basicConstraints=CA:FALSE\nkeyUsage=digitalSignature\nextendedKeyUsage=serverAuth\nsubjectAltName=DNS:${PUBLIC_REGISTRY_HOST}\n`);
	run('openssl', ['x509', '-req', '-in', 'server.csr', '-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial', '-out', 'server.pem', '-days', '1', '-extfile', 'server.ext'], folder);
	return { ca: join(folder, 'ca.pem'), key: join(folder, 'server.key'), cert: join(folder, 'server.pem') };
}

/** The machine's /etc/hosts without any line for registry.npmjs.org, plus ours. */
function hostsFileFor(address: string): string {
	const current = readFileSync('/etc/hosts', 'utf8')
		.split('\n')
		.filter((line) => !line.replace(/#.*/, '').split(/\s+/).slice(1).includes(PUBLIC_REGISTRY_HOST));
	return `${current.join('\n').trimEnd()}\n# n8n-nodes-conversation-inbox e2e: the test registry's TLS front\n${address} ${PUBLIC_REGISTRY_HOST}\n`;
}

/** True when this process may make a mount namespace and bind-mount a file in it (root, or CAP_SYS_ADMIN). */
export function canUseMountNamespace(): boolean {
	if (process.getuid?.() !== 0) return false;
	const probe = spawnSync('unshare', ['--mount', '--', 'sh', '-c', 'mount --bind /etc/hosts /etc/hosts'], { stdio: 'ignore' });
	return probe.status === 0;
}

async function listen(server: Server, address: string): Promise<void> {
	await new Promise<void>((resolve, reject) => {
		const onError = (error: Error): void => reject(error);
		server.once('error', onError);
		server.listen(443, address, () => {
			server.removeListener('error', onError);
			resolve();
		});
	});
}

/**
 * Starts the front for the registry at `upstream` (http://127.0.0.1:<port>/). Port 443 on an
 * address of 127.0.0.0/8 picked at random (another run on the machine may hold another).
 */
export async function startRegistryFront(upstream: string): Promise<RegistryFront> {
	const folder = mkdtempSync(join(tmpdir(), 'n8n-e2e-registry-front-'));
	const upstreamUrl = new URL(upstream);
	const requests: FrontRequest[] = [];
	try {
		const { ca, key, cert } = makeCertificates(folder);
		const server = createServer({ key: readFileSync(key), cert: readFileSync(cert) }, (req, res) => {
			const entry: FrontRequest = {
				method: req.method ?? 'GET',
				path: req.url ?? '/',
				status: 0,
				npmCommand: req.headers['npm-command'] as string | undefined,
				userAgent: req.headers['user-agent'],
				at: Date.now(),
			};
			requests.push(entry);
			const forward = httpRequest(
				{
					host: upstreamUrl.hostname,
					port: upstreamUrl.port,
					method: req.method,
					path: req.url,
					headers: { ...req.headers, host: PUBLIC_REGISTRY_HOST, 'x-forwarded-proto': 'https' },
				},
				(answer) => {
					entry.status = answer.statusCode ?? 0;
					res.writeHead(entry.status, answer.headers);
					answer.pipe(res);
				},
			);
			forward.on('error', (error) => {
				entry.status = 502;
				if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
				res.end(`registry front: the test registry did not answer (${error.message})\n`);
			});
			req.pipe(forward);
		});
		let address = '';
		for (let attempt = 0; ; attempt++) {
			// 127.0.0.1 stays clear: everything else listens there.
			address = `127.${randomInt(1, 255)}.${randomInt(0, 256)}.${randomInt(1, 255)}`;
			try {
				await listen(server, address);
				break;
			} catch (error) {
				if (attempt >= 5) throw error;
			}
		}
		const hostsFile = join(folder, 'hosts');
		writeFileSync(hostsFile, hostsFileFor(address));
		const npmCache = join(folder, 'npm-cache');
		return {
			address,
			caFile: ca,
			hostsFile,
			requests,
			env: { NODE_EXTRA_CA_CERTS: ca, npm_config_cafile: ca, npm_config_cache: npmCache },
			// unshare makes the mount namespace (private propagation by default), sh bind-mounts the
			// hosts file in it and then becomes the process itself (exec): same pid, same group.
			launcher: ['unshare', '--mount', '--', 'sh', '-c', 'mount --bind "$0" /etc/hosts && exec "$@"', hostsFile],
			tarballs: (from = 0) => requests.slice(from).filter((r) => r.method === 'GET' && /\/-\/[^/]+\.tgz$/.test(r.path)),
			async stop() {
				server.closeAllConnections();
				await new Promise<void>((resolve) => server.close(() => resolve()));
				rmSync(folder, { recursive: true, force: true });
			},
		};
	} catch (error) {
		rmSync(folder, { recursive: true, force: true });
		throw error;
	}
}
