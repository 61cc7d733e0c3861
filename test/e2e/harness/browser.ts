/* eslint-disable -- development tooling, not shipped: n8n's node rules (eslint.config.mjs, n8n-node lint) are for nodes/ and credentials/ */
/**
 * A headless Chromium for the browser check (suites/browser.ts): Debian's `/usr/bin/chromium`
 * (installed by scripts/install-chromium.sh, which the e2e global setup runs when n8n 2.x is
 * selected) driven by playwright-core. Nothing is downloaded: playwright-core brings no browser,
 * and the flags below turn off Chromium's own background traffic (updates, sync, QUIC probes).
 *
 * Every launch gets a fresh user-data dir in the temp folder; close() closes the browser, removes
 * the dir, and kills (by pid) any Chromium process still using that dir, so nothing outlives a run.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import type { BrowserContext, Page } from 'playwright-core';

import { REPO_ROOT } from './provision';

export const CHROMIUM_PATH = process.env.E2E_CHROMIUM || '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
	'--headless',
	'--no-sandbox',
	'--disable-gpu',
	'--disable-quic',
	'--no-first-run',
	'--disable-background-networking',
	'--disable-component-update',
	'--disable-sync',
];
/** Where the screenshots go (gitignored: test-output/). */
export const SCREENSHOT_DIR = join(REPO_ROOT, 'test-output', 'screenshots');

/** False when E2E_BROWSER=0 (the browser check is then skipped and Chromium not installed). */
export function browserCheckEnabled(env: NodeJS.ProcessEnv = process.env): boolean {
	return env.E2E_BROWSER !== '0';
}

export interface BrowserSession {
	context: BrowserContext;
	userDataDir: string;
	/** A new tab (each check uses its own, so an unsaved change never blocks the next one). */
	newPage(): Promise<Page>;
	/** Saves a full-window screenshot as test-output/screenshots/[<subdir>/]<name>.png; returns its path. */
	screenshot(page: Page, name: string): Promise<string>;
	close(): Promise<void>;
}

/** Pids of live processes whose command line mentions `needle` (Linux: /proc). */
export function processesMentioning(needle: string): number[] {
	const pids: number[] = [];
	for (const entry of readdirSync('/proc')) {
		if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
		try {
			const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
			if (stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z')) continue;
			if (readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes(needle)) pids.push(Number(entry));
		} catch {
			// the process ended while we looked
		}
	}
	return pids;
}

const withTimeout = async <T>(promise: Promise<T>, ms: number, what: string): Promise<T> => {
	let timer: NodeJS.Timeout | undefined;
	try {
		return await Promise.race([
			promise,
			new Promise<T>((_, reject) => {
				timer = setTimeout(() => reject(new Error(`${what} took more than ${ms} ms`)), ms);
			}),
		]);
	} finally {
		if (timer) clearTimeout(timer);
	}
};

/** `screenshotSubdir`: a folder of SCREENSHOT_DIR for this session's pictures (one per n8n version). */
export async function launchBrowser(options: { actionTimeoutMs?: number; screenshotSubdir?: string } = {}): Promise<BrowserSession> {
	// Required here, not at the top: the other e2e suites do not need playwright-core.
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const { chromium, selectors } = require('playwright-core') as typeof import('playwright-core');
	// n8n's editor marks its elements with data-test-id (not Playwright's default data-testid).
	selectors.setTestIdAttribute('data-test-id');
	const screenshotDir = options.screenshotSubdir ? join(SCREENSHOT_DIR, options.screenshotSubdir) : SCREENSHOT_DIR;
	mkdirSync(screenshotDir, { recursive: true });
	const userDataDir = mkdtempSync(join(tmpdir(), 'n8n-e2e-chromium-'));
	let context: BrowserContext;
	try {
		context = await chromium.launchPersistentContext(userDataDir, {
			executablePath: CHROMIUM_PATH,
			headless: true,
			args: CHROMIUM_ARGS,
			viewport: { width: 1440, height: 900 },
			colorScheme: 'light',
			locale: 'en-US',
			timeout: 30_000,
		});
	} catch (error) {
		killLeftovers(userDataDir);
		rmSync(userDataDir, { recursive: true, force: true });
		throw new Error(`could not start Chromium at ${CHROMIUM_PATH} (run scripts/install-chromium.sh): ${(error as Error).message}`);
	}
	context.setDefaultTimeout(options.actionTimeoutMs ?? 20_000);
	context.setDefaultNavigationTimeout(30_000);
	// The first tab Chromium opens by itself is not used.
	for (const page of context.pages()) await page.close();

	return {
		context,
		userDataDir,
		async newPage() {
			return await context.newPage();
		},
		async screenshot(page, name) {
			const path = join(screenshotDir, `${name}.png`);
			await page.screenshot({ path, timeout: 15_000 });
			return path;
		},
		async close() {
			try {
				await withTimeout(context.close(), 15_000, 'closing Chromium');
			} catch {
				// killed below
			}
			killLeftovers(userDataDir);
			rmSync(userDataDir, { recursive: true, force: true });
		},
	};
}

function killLeftovers(userDataDir: string): void {
	for (const pid of processesMentioning(userDataDir)) {
		try {
			process.kill(pid, 'SIGKILL');
		} catch {
			// already gone
		}
	}
}

/** Runs scripts/install-chromium.sh (a no-op when /usr/bin/chromium exists); throws when it fails. */
export function installChromium(): void {
	const result = spawnSync('bash', [join(REPO_ROOT, 'scripts', 'install-chromium.sh')], {
		cwd: REPO_ROOT,
		stdio: ['ignore', 2, 'inherit'],
		timeout: 600_000,
	});
	if (result.error) throw result.error;
	if (result.status !== 0) {
		throw new Error(`scripts/install-chromium.sh failed (exit ${result.status}); set E2E_BROWSER=0 to skip the browser check`);
	}
}
