/* eslint-disable -- development tooling, not shipped: n8n's node rules (eslint.config.mjs, n8n-node lint) are for nodes/ and credentials/ */
/**
 * Which n8n versions the harness knows, and how to get one installed: scripts/provision-n8n.sh
 * installs it into a cache outside the repo (idempotent, fast when already there) and prints
 * where the Node binary and n8n's bin script are.
 */
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

import { Progress, runWithProgress } from './progress';
import type { ProgressOptions } from './progress';

export const REPO_ROOT = resolve(__dirname, '../../..');
export const PACKAGE_NAME = 'n8n-nodes-conversation-inbox';

/** n8n release line → exact version the provisioning script installs. */
export const N8N_VERSIONS = { '2': '2.41.1', '1': '1.123.81' } as const;
export type N8nMajor = keyof typeof N8N_VERSIONS;

export interface N8nInstall {
	major: N8nMajor;
	version: string;
	/** the Node binary n8n runs on (Node 24 for 2.x, the machine's Node 20 for 1.x) */
	node: string;
	/** node_modules/n8n/bin/n8n */
	bin: string;
}

export function cacheDir(env: NodeJS.ProcessEnv = process.env): string {
	return env.N8N_CACHE_DIR || join(homedir(), '.cache', 'n8n-nodes-conversation-inbox');
}

export function isMajor(value: string): value is N8nMajor {
	return Object.prototype.hasOwnProperty.call(N8N_VERSIONS, value);
}

/**
 * The versions the e2e suite runs on: N8N_E2E_VERSIONS, comma-separated majors in order
 * (default "2,1"). Unknown entries are an error, not silently skipped.
 */
export function selectedMajors(value: string | undefined = process.env.N8N_E2E_VERSIONS): N8nMajor[] {
	const raw = (value ?? '2,1').split(',').map((v) => v.trim()).filter(Boolean);
	const majors: N8nMajor[] = [];
	for (const entry of raw) {
		const major = entry.split('.')[0];
		if (!isMajor(major)) {
			throw new Error(`N8N_E2E_VERSIONS: unknown n8n version "${entry}"; known: ${Object.entries(N8N_VERSIONS).map(([m, v]) => `${m} (${v})`).join(', ')}`);
		}
		if (!majors.includes(major)) majors.push(major);
	}
	if (majors.length === 0) throw new Error('N8N_E2E_VERSIONS selects no n8n version');
	return majors;
}

const PROVISION_TAG = 'provision-n8n';

/**
 * Runs scripts/provision-n8n.sh for one version and returns the install. Its steps go to our
 * stderr with a progress line (what it does, the time elapsed, at least every 10 s) and, at the
 * end, how long it took. Throws with the script's own message when it fails.
 */
export async function provisionN8n(
	major: N8nMajor,
	env: NodeJS.ProcessEnv = process.env,
	progressOptions: Omit<ProgressOptions, 'tag'> = {},
): Promise<N8nInstall> {
	const script = join(REPO_ROOT, 'scripts', 'provision-n8n.sh');
	const version = N8N_VERSIONS[major];
	const progress = new Progress({ ...progressOptions, tag: PROVISION_TAG });
	progress.step(`provisioning n8n ${version}`);
	let result;
	try {
		result = await runWithProgress('bash', [script, major], { cwd: REPO_ROOT, env, progress, tag: PROVISION_TAG });
	} catch (error) {
		progress.abandon();
		throw error;
	}
	if (result.status !== 0) {
		progress.abandon();
		throw new Error(`scripts/provision-n8n.sh ${major} failed (exit ${result.status}); see its output above`);
	}
	progress.finish(`n8n ${version} ready`);
	const line = result.stdout.split('\n').find((l) => l.startsWith(`n8n ${version}:`));
	const match = line && /node=(\S+) bin=(\S+)/.exec(line);
	if (!match) throw new Error(`scripts/provision-n8n.sh ${major} printed no install line:\n${result.stdout}`);
	return { major, version, node: match[1], bin: match[2] };
}
