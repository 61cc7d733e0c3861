/* eslint-disable -- development tooling, not shipped: n8n's node rules (eslint.config.mjs, n8n-node lint) are for nodes/ and credentials/ */
/**
 * Once per e2e run, before any test file: build and pack the package, and provision every n8n
 * version the run selects (N8N_E2E_VERSIONS, default "2,1"). Cold, provisioning is the slow part
 * (several minutes per version); warm, the provisioning script only checks its cache.
 * Also install Chromium for the browser checks, which run on every version (scripts/install-chromium.sh).
 * The results reach the test files through process.env (they run after this, in this process or
 * in workers forked from it).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { browserCheckEnabled, installChromium } from './harness/browser';
import { buildPackage, packPackage } from './harness/package';
import { provisionN8n, selectedMajors } from './harness/provision';

export default async function globalSetup(): Promise<void> {
	const started = Date.now();
	const majors = selectedMajors();
	process.stderr.write(`\n[e2e] n8n versions: ${majors.join(', ')}\n[e2e] building and packing the package\n`);
	buildPackage();
	const packDir = mkdtempSync(join(tmpdir(), 'n8n-e2e-pack-'));
	const packed = packPackage(packDir);
	process.env.E2E_PACK_DIR = packDir;
	process.env.E2E_PACKED = JSON.stringify(packed);
	for (const major of majors) {
		const install = await provisionN8n(major);
		process.env[`E2E_N8N_${major}`] = JSON.stringify(install);
	}
	// The browser checks (suites/browser.ts, browser-trigger.ts) run on both n8n versions: Debian's
	// Chromium, installed once by scripts/install-chromium.sh (a no-op when /usr/bin/chromium exists).
	// E2E_BROWSER=0 skips both.
	if (majors.length > 0 && browserCheckEnabled()) installChromium();
	process.stderr.write(`[e2e] setup done in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
}
