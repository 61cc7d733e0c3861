/* eslint-disable -- development tooling, not shipped: n8n's node rules (eslint.config.mjs, n8n-node lint) are for nodes/ and credentials/ */
/**
 * n8n with our package, set up the way a newcomer would end up with it: an owner, an API key, and
 * a Conversation Inbox credential pointing at an API (the sandbox, or a real one). Used by the e2e
 * tests and by `npm run dev` (scripts/dev.ts).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { N8nClient, type CredentialRecord, type Owner } from './n8n-client';
import { N8nProcess, type N8nStartOptions } from './n8n-process';
import { installIntoUserFolder, type PackedPackage } from './package';
import type { N8nInstall } from './provision';
import { CREDENTIAL_TYPE } from './workflows';

/** The documented demo login of `npm run dev` (n8n wants 8+ characters, a digit and a capital). */
export const DEMO_OWNER: Owner = {
	email: 'demo@example.com',
	password: 'Demo-Passw0rd',
	firstName: 'Demo',
	lastName: 'User',
};

export interface ApiTarget {
	/** ends in /v2 */
	baseUrl: string;
	apiToken: string;
}

export interface N8nStack {
	n8n: N8nProcess;
	client: N8nClient;
	apiKey: string;
	credential: CredentialRecord;
	userFolder: string;
	/**
	 * Restarts n8n: the same process set-up (user folder with its database, port, environment)
	 * stopped and started again, as an operator restarts it; `n8n` is the new process afterwards.
	 * Active workflows are activated again by n8n at start. The client signs in again. A stack of
	 * one n8n process only (queue mode's stacks have none).
	 */
	restart?(): Promise<void>;
	/** Stops n8n; removes the user folder when the stack created it (unless E2E_KEEP_USER_FOLDER=1). */
	stop(): Promise<void>;
}

export interface StackOptions {
	install: N8nInstall;
	packed: PackedPackage;
	api: ApiTarget;
	/** default: a new temporary folder, removed by stop() */
	userFolder?: string;
	/** name prefix of that temporary folder (default n8n-e2e-<major>-) */
	folderPrefix?: string;
	owner?: Owner;
	credentialName?: string;
	port?: number;
	logLevel?: N8nStartOptions['logLevel'];
	echo?: NodeJS.WritableStream;
	nodeArgs?: N8nStartOptions['nodeArgs'];
	/** extra environment for n8n (the bench's --expression-engine) */
	env?: N8nStartOptions['env'];
}

export async function startN8nStack(options: StackOptions): Promise<N8nStack> {
	const ownFolder = options.userFolder === undefined;
	const userFolder = options.userFolder ?? mkdtempSync(join(tmpdir(), options.folderPrefix ?? `n8n-e2e-${options.install.major}-`));
	const cleanup = (): void => {
		if (ownFolder && process.env.E2E_KEEP_USER_FOLDER !== '1') rmSync(userFolder, { recursive: true, force: true });
	};
	let n8n: N8nProcess | undefined;
	try {
		installIntoUserFolder(userFolder, options.packed);
		const startOptions = {
			install: options.install,
			userFolder,
			logLevel: options.logLevel ?? 'debug',
			echo: options.echo,
			nodeArgs: options.nodeArgs,
			env: options.env,
		} satisfies Omit<N8nStartOptions, 'port'>;
		n8n = await N8nProcess.start({ ...startOptions, port: options.port });
		const client = new N8nClient(n8n.url, options.install.major);
		const owner = options.owner ?? DEMO_OWNER;
		if (await client.ownerIsSetUp()) await client.login(owner.email, owner.password);
		else await client.setupOwner(owner);
		const apiKey = await client.createApiKey(`conversation-inbox ${new Date().toISOString()}`);
		const credential = await client.createCredential({
			name: options.credentialName ?? 'Conversation Inbox account',
			type: CREDENTIAL_TYPE,
			data: { baseUrl: options.api.baseUrl, apiToken: options.api.apiToken },
		});
		let current = n8n;
		return {
			get n8n(): N8nProcess {
				return current;
			},
			client,
			apiKey,
			credential,
			userFolder,
			async restart() {
				const { port } = current;
				await current.stop();
				current = await N8nProcess.start({ ...startOptions, port });
				await client.login(owner.email, owner.password);
			},
			async stop() {
				await current.stop();
				cleanup();
			},
		};
	} catch (error) {
		await n8n?.stop();
		cleanup();
		throw error;
	}
}
