/* eslint-disable -- development tooling, not shipped: n8n's node rules (eslint.config.mjs, n8n-node lint) are for nodes/ and credentials/ */
/**
 * The package installed the ways users install it, against a local registry (registry.ts):
 *
 * - n8n's installer, through the calls the Settings → Community Nodes page makes:
 *   `POST /rest/community-packages {name, version}` (Install), `GET` (the list, with
 *   `updateAvailable`), `PATCH {name}` (Update), `DELETE ?name=` (Uninstall). A registry other than
 *   npm's is a licensed feature (`feat:communityNodes:customRegistry`; unlicensed, n8n answers 500
 *   "Your license does not allow…"). n8n's own e2e hook turns it on without touching the installer:
 *   start n8n with `E2E_TESTS=true`, then `PATCH /rest/e2e/feature`. In that mode n8n 1.x serves no
 *   public API, so everything here goes through the editor's `/rest` calls, on both versions.
 * - by hand: `npm install <package>` in `<userFolder>/.n8n/nodes`, as the README says.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

import type { CredentialRecord, N8nClient, WorkflowDefinition, WorkflowRecord } from './n8n-client';

export const CUSTOM_REGISTRY_FEATURE = 'feat:communityNodes:customRegistry';

/** One row of Settings → Community Nodes (GET /rest/community-packages). */
export interface InstalledPackageRow {
	packageName: string;
	installedVersion: string;
	installedNodes: Array<{ name: string; type: string; latestVersion: number }>;
	updateAvailable?: string;
	failedLoading?: boolean;
}

/** n8n's environment for the installer against `registryUrl` (see the file comment). */
export function installerEnvironment(registryUrl: string): Record<string, string> {
	return { E2E_TESTS: 'true', N8N_COMMUNITY_PACKAGES_REGISTRY: registryUrl };
}

/** PATCH /rest/e2e/feature: the licence answers yes for a custom registry (until n8n restarts). */
export async function enableCustomRegistry(n8nUrl: string): Promise<void> {
	const res = await fetch(`${n8nUrl}/rest/e2e/feature`, {
		method: 'PATCH',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ feature: CUSTOM_REGISTRY_FEATURE, enabled: true }),
	});
	const text = await res.text();
	if (!res.ok) throw new Error(`PATCH /rest/e2e/feature → HTTP ${res.status}: ${text} (was n8n started with E2E_TESTS=true?)`);
}

/** The editor's calls for packages, credentials and workflows (cookie auth; no public API). */
export class EditorCalls {
	constructor(private readonly client: N8nClient) {}

	async installPackage(name: string, version?: string): Promise<InstalledPackageRow> {
		return await this.client.rest<InstalledPackageRow>('POST', '/community-packages', version ? { name, version } : { name });
	}

	async updatePackage(name: string): Promise<InstalledPackageRow> {
		return await this.client.rest<InstalledPackageRow>('PATCH', '/community-packages', { name });
	}

	async uninstallPackage(name: string): Promise<void> {
		await this.client.rest('DELETE', `/community-packages?name=${encodeURIComponent(name)}`);
	}

	async packages(): Promise<InstalledPackageRow[]> {
		return await this.client.rest<InstalledPackageRow[]>('GET', '/community-packages');
	}

	async createCredential(credential: { name: string; type: string; data: Record<string, unknown> }): Promise<CredentialRecord> {
		const created = await this.client.rest<CredentialRecord>('POST', '/credentials', credential);
		return { id: created.id, name: created.name, type: created.type };
	}

	async createWorkflow(workflow: WorkflowDefinition): Promise<WorkflowRecord & { versionId: string }> {
		return await this.client.rest<WorkflowRecord & { versionId: string }>('POST', '/workflows', {
			name: workflow.name,
			nodes: workflow.nodes,
			connections: workflow.connections,
			settings: workflow.settings ?? { executionOrder: 'v1' },
			active: false,
		});
	}

	/** The editor's Publish (2.x) / Active toggle (1.x): POST /rest/workflows/:id/activate {versionId} on both. */
	async activate(workflow: { id: string; versionId: string }): Promise<void> {
		await this.client.rest('POST', `/workflows/${workflow.id}/activate`, { versionId: workflow.versionId });
	}

	async deactivate(id: string): Promise<void> {
		await this.client.rest('POST', `/workflows/${id}/deactivate`, {});
	}

	/** How many executions of the workflow have finished with success (the Executions list, filtered). */
	async successfulExecutions(workflowId: string): Promise<number> {
		const filter = encodeURIComponent(JSON.stringify({ workflowId, status: ['success'] }));
		const page = await this.client.rest<{ results: Array<{ id: string; status: string }> }>('GET', `/executions?filter=${filter}&limit=100`);
		return page.results.filter((execution) => execution.status === 'success').length;
	}
}

/** Milliseconds `action` took, with its result. */
export async function timed<T>(action: () => Promise<T>): Promise<{ result: T; ms: number }> {
	const started = performance.now();
	const result = await action();
	return { result, ms: Math.round(performance.now() - started) };
}

/**
 * The README's By hand: `npm install <spec>` in `<userFolder>/.n8n/nodes` (created first), with the
 * registry given as npm's `--registry`. Returns npm's output and the time it took.
 */
export function installByHand(userFolder: string, spec: string, registryUrl: string): { output: string; ms: number; nodesDir: string } {
	const nodesDir = join(userFolder, '.n8n', 'nodes');
	mkdirSync(nodesDir, { recursive: true });
	const started = performance.now();
	const result = spawnSync('npm', ['install', spec, `--registry=${registryUrl}`], { cwd: nodesDir, encoding: 'utf8' });
	const ms = Math.round(performance.now() - started);
	const output = `${result.stdout}${result.stderr}`;
	if (result.status !== 0) throw new Error(`npm install ${spec} --registry=${registryUrl} failed in ${nodesDir} (exit ${result.status}):\n${output}`);
	return { output, ms, nodesDir };
}

/** Every file and folder under `dir` (relative, sorted), skipping the contents of `skip` folders' children named there. */
export function listTree(dir: string, collapse: (path: string) => boolean = () => false): string[] {
	const out: string[] = [];
	const walk = (current: string): void => {
		for (const name of readdirSync(current).sort()) {
			const path = join(current, name);
			const rel = relative(dir, path);
			const isDir = statSync(path).isDirectory();
			out.push(isDir ? `${rel}/` : rel);
			if (isDir && !collapse(rel)) walk(path);
		}
	};
	if (existsSync(dir)) walk(dir);
	return out;
}

/** The packages in a node_modules folder (scoped ones as @scope/name), npm's own dot-files left out. */
export function packagesIn(nodeModules: string): string[] {
	if (!existsSync(nodeModules)) return [];
	return readdirSync(nodeModules)
		.filter((name) => !name.startsWith('.'))
		.flatMap((name) => (name.startsWith('@') ? readdirSync(join(nodeModules, name)).map((inner) => `${name}/${inner}`) : [name]))
		.sort();
}
