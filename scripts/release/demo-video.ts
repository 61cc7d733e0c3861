/* eslint-disable -- development tooling, not shipped: n8n's node rules (eslint.config.mjs, n8n-node lint) are for nodes/ and credentials/ */
/**
 * npm run demo:video — the demo video n8n's verification asks for, recorded in one take from the
 * real editor: n8n 2.41.1 starts without the package; the owner installs it through Settings →
 * Community Nodes (n8n's own installer, from a local npm registry holding today's build:
 * test/e2e/harness/registry.ts); adds the node to a new workflow; creates the
 * credential, whose test passes against the sandbox API; runs the main operations; and publishes a
 * workflow whose trigger fires when a customer's message arrives. Captions on screen say what
 * happens (there is no voice).
 *
 * n8n runs as users run it (no E2E_TESTS, so no test-mode frame on screen) and keeps its default
 * registry, registry.npmjs.org: test/e2e/harness/registry-front.ts starts it in a mount namespace
 * of its own where that name leads to a TLS front of the local registry (as the queue-install
 * suite does). That needs root (unshare --mount and a bind mount); the script says so otherwise.
 *
 * Recorded with playwright-core's video recording on Debian's Chromium; playwright's recorder is
 * Debian's ffmpeg (linked where playwright looks for its own, in a temporary folder). Writes
 * test-output/demo/demo.webm (gitignored), the log of what it shows with the time each part starts
 * (demo.md), and a still per part (stills/). Fails when the video is 5 minutes or longer.
 *   --stills   also copies the stills into docs/screenshots/demo/ (committed)
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

import type { BrowserContext, Locator, Page } from 'playwright-core';

import { DEMO, startSandbox, type Sandbox } from '../../test/sandbox';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../test/e2e/harness/browser';
import { N8nClient } from '../../test/e2e/harness/n8n-client';
import { N8nProcess } from '../../test/e2e/harness/n8n-process';
import { buildPackage, packPackage } from '../../test/e2e/harness/package';
import { PACKAGE_NAME, provisionN8n, REPO_ROOT } from '../../test/e2e/harness/provision';
import { repackWithVersion, startRegistry, type LocalRegistry } from '../../test/e2e/harness/registry';
import { canUseMountNamespace, startRegistryFront, type RegistryFront } from '../../test/e2e/harness/registry-front';
import { DEMO_OWNER } from '../../test/e2e/harness/stack';

/** The longest a verifier accepts (one take under 5 minutes). */
export const MAX_SECONDS = 300;
/** Today's build, published to the local registry as the version after the released 0.1.0. */
const DEMO_VERSION = '0.2.0';
const OUT = join(REPO_ROOT, 'test-output', 'demo');
const STILLS_DOC = join(REPO_ROOT, 'docs', 'screenshots', 'demo');
const VIEWPORT = { width: 1280, height: 800 };
/** The customer who writes: a contact whose chat runs the demo's bot (Greet every message). */
const CUSTOMER = DEMO.contacts.botFlow;
const say = (text: string): void => void process.stderr.write(`[demo] ${text}\n`);
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** What the video shows, in order, with the second each part starts (from the script's clock). */
interface Part {
	at: number;
	caption: string;
	still?: string;
}

/**
 * playwright-core records with an ffmpeg of its own, looked up in its browsers folder; Debian's
 * ffmpeg (libvpx) does the same job. A temporary browsers folder holds only a link to it.
 */
function useDebianFfmpeg(): string {
	const ffmpeg = '/usr/bin/ffmpeg';
	if (!existsSync(ffmpeg)) throw new Error('ffmpeg is missing (Debian: apt-get install ffmpeg)');
	// The package's exports do not list browsers.json: read it beside package.json.
	const manifest = join(dirname(require.resolve('playwright-core/package.json')), 'browsers.json');
	const revision = (JSON.parse(readFileSync(manifest, 'utf8')) as { browsers: Array<{ name: string; revision: string }> }).browsers.find((b) => b.name === 'ffmpeg')!.revision;
	const folder = mkdtempSync(join(tmpdir(), 'demo-playwright-'));
	mkdirSync(join(folder, `ffmpeg-${revision}`));
	symlinkSync(ffmpeg, join(folder, `ffmpeg-${revision}`, 'ffmpeg-linux'));
	process.env.PLAYWRIGHT_BROWSERS_PATH = folder;
	return folder;
}

/** The video's length in seconds (ffprobe). */
function durationOf(file: string): number {
	const result = spawnSync('ffprobe', ['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', file], { encoding: 'utf8' });
	const seconds = Number(result.stdout.trim());
	if (result.status !== 0 || !Number.isFinite(seconds)) throw new Error(`ffprobe could not read ${file}: ${result.stderr}`);
	return seconds;
}

class Take {
	readonly parts: Part[] = [];
	private readonly started = Date.now();

	constructor(
		readonly page: Page,
		private readonly stillsDir: string,
	) {}

	get seconds(): number {
		return (Date.now() - this.started) / 1000;
	}

	/** Shows a caption at the bottom of the screen and notes it (with a still once the part is on screen). */
	async caption(text: string): Promise<void> {
		await this.show(text);
		this.parts.push({ at: Math.round(this.seconds), caption: text });
		say(`${this.seconds.toFixed(0)} s: ${text}`);
	}

	/** Shows the last caption again after a navigation (the page is new). */
	async recaption(): Promise<void> {
		const last = this.parts[this.parts.length - 1];
		if (last) await this.show(last.caption);
	}

	private async show(text: string): Promise<void> {
		await this.page.evaluate((caption) => {
			// The page's DOM (this file is compiled without the DOM library).
			type Box = { id: string; textContent: string | null; setAttribute(name: string, value: string): void };
			const doc = (globalThis as unknown as { document: { getElementById(id: string): Box | null; createElement(tag: string): Box; body: { appendChild(node: Box): void } } }).document;
			const id = 'demo-caption';
			let box = doc.getElementById(id);
			if (!box) {
				box = doc.createElement('div');
				box.id = id;
				box.setAttribute(
					'style',
					'position:fixed;left:50%;bottom:28px;transform:translateX(-50%);z-index:2147483647;max-width:86%;padding:12px 20px;' +
						'border-radius:10px;background:rgba(20,20,30,0.86);color:#fff;font:600 19px/1.35 system-ui,sans-serif;text-align:center;' +
						'box-shadow:0 4px 18px rgba(0,0,0,0.35);pointer-events:none',
				);
				doc.body.appendChild(box);
			}
			box.textContent = caption;
		}, text);
	}

	/** A still of what is on screen now, for the part last captioned. */
	async still(name: string): Promise<void> {
		const path = join(this.stillsDir, `${name}.png`);
		await this.page.screenshot({ path });
		this.parts[this.parts.length - 1].still = `${name}.png`;
	}

	/** Lets the viewer read: `ms` of the video with nothing happening. */
	async hold(ms = 1500): Promise<void> {
		await sleep(ms);
	}
}

// ---- the take -------------------------------------------------------------------------------

/** The node panel's entry for the package (one entry holds the action node and the trigger). */
async function openOurEntry(page: Page): Promise<Locator> {
	const creator = page.getByTestId('node-creator');
	await creator.waitFor({ state: 'visible' });
	await creator.getByTestId('node-creator-search-bar').fill('Conversation Inbox');
	await creator.getByTestId('node-creator-item-name').getByText('Conversation Inbox', { exact: true }).first().click();
	return creator;
}

/** Adds one of our actions after the last node (the node panel's + button, our entry, Actions). */
async function addAction(take: Take, action: string): Promise<Locator> {
	const { page } = take;
	await page.getByTestId('node-creator-plus-button').click();
	const creator = await openOurEntry(page);
	const item = creator.getByTestId('node-creator-item-name').getByText(action, { exact: true });
	// The Actions list opens collapsed or as it was left: open it only when the action is not shown.
	const category = creator.getByTestId('node-creator-category-item').filter({ hasText: /^Actions/ });
	await category.waitFor({ state: 'visible' });
	await take.hold(600);
	if (!(await item.isVisible())) await category.click();
	await item.click();
	const ndv = page.getByTestId('ndv');
	await ndv.waitFor({ state: 'visible' });
	return ndv;
}

/** Closes the node's panel. */
async function closePanel(page: Page): Promise<void> {
	await page.getByTestId('ndv-close-button').click();
	await page.getByTestId('ndv').waitFor({ state: 'hidden' });
}

async function record(take: Take, n8nUrl: string, sandbox: Sandbox): Promise<void> {
	const { page } = take;
	const url = (path: string): string => `${n8nUrl}${path}`;

	// 1. A fresh n8n 2.41.1 without the package; the owner signs in.
	await page.goto(url('/signin'));
	await take.caption('n8n 2.41.1, just started: this package is not installed');
	await page.locator('input[type="email"]').fill(DEMO_OWNER.email);
	await page.locator('input[type="password"]').fill(DEMO_OWNER.password);
	await take.hold(1200);
	await page.getByTestId('form-submit-button').click();
	await page.waitForURL((u) => !u.pathname.startsWith('/signin'), { timeout: 30_000 });

	// 2. Install through Settings → Community Nodes (n8n's installer; a local npm registry).
	await page.goto(url('/settings/community-nodes'));
	await take.caption(`Settings → Community nodes → Install ${PACKAGE_NAME} (n8n's installer, from a local npm registry)`);
	await take.hold(1200);
	await page.getByRole('button', { name: /install a community node/i }).click();
	const install = page.getByTestId('communityPackageInstall-modal');
	await install.waitFor({ state: 'visible' });
	await page.getByTestId('package-name-input').fill(PACKAGE_NAME);
	await page.getByTestId('user-agreement-checkbox').click();
	await take.hold(1000);
	await page.getByTestId('install-community-package-button').click();
	await install.waitFor({ state: 'hidden', timeout: 180_000 });
	await page.getByTestId('community-package-card').filter({ hasText: PACKAGE_NAME }).waitFor({ state: 'visible' });
	await take.caption(`Installed ${PACKAGE_NAME} ${DEMO_VERSION}: the Conversation Inbox node and its trigger`);
	await take.still('01-installed');
	await take.hold(2500);

	// 3. A workflow that starts on an inbox event: add the trigger, create the credential (its test passes).
	await page.goto(url('/workflow/new'));
	await take.caption('A new workflow: its first step is the Conversation Inbox Trigger, "On message received"');
	await page.getByTestId('canvas-add-button').click();
	const creator = await openOurEntry(page);
	await take.hold(1500);
	await creator.getByTestId('node-creator-item-name').getByText('On message received', { exact: true }).click();
	const ndv = page.getByTestId('ndv');
	await ndv.waitFor({ state: 'visible' });
	await take.hold(1000);

	await take.caption("Its credential: the account's Base URL and API token (here the sandbox API)");
	await ndv.getByTestId('node-credentials-empty-state').click();
	const credential = page.getByTestId('editCredential-modal');
	await credential.waitFor({ state: 'visible' });
	await credential.getByTestId('parameter-input-baseUrl').locator('input').fill(sandbox.baseUrl);
	await credential.getByTestId('parameter-input-apiToken').locator('input').fill(sandbox.token);
	await take.hold(1200);
	await credential.getByTestId('credential-save-button').click();
	await credential.waitFor({ state: 'hidden' });
	await ndv.getByTestId('credential-edit-button').click();
	await credential.waitFor({ state: 'visible' });
	await credential.getByRole('button', { name: /retry/i }).click();
	await credential.getByTestId('credentials-config-container-test-success').waitFor({ state: 'visible', timeout: 60_000 });
	await take.caption('The credential test passes: the API answered with this token');
	await take.still('02-credential-tested');
	await take.hold(2500);
	await credential.getByRole('button', { name: 'Close this dialog' }).click();
	await credential.waitFor({ state: 'hidden' });

	await take.caption('Integration from the list the API gives; one webhook per event is registered on activation');
	const integration = ndv.getByTestId('resource-locator-integrationId');
	await integration.getByTestId('rlc-input').click();
	await page.getByTestId('rlc-item').first().waitFor({ state: 'visible', timeout: 30_000 });
	await take.hold(1500);
	await page.getByTestId('rlc-item').filter({ hasText: 'Support WhatsApp' }).click();
	await take.hold(1200);
	await closePanel(page);
	await page.getByTestId('workflow-open-publish-modal-button').click();
	await page.getByTestId('workflowPublish-modal').waitFor({ state: 'visible' });
	await take.hold(800);
	await page.getByTestId('workflow-publish-button').click();
	await page.getByTestId('workflowPublish-modal').waitFor({ state: 'hidden', timeout: 60_000 });
	// n8n shows the trigger's activation message once the webhooks are registered.
	const published = page.getByRole('button', { name: /got it/i });
	await published.waitFor({ state: 'visible', timeout: 60_000 });
	await take.caption("Published: the trigger registered its webhook on the platform (the trigger's own message)");
	await take.hold(2500);
	await published.click();
	await page.getByTestId('workflow-active-version-indicator').waitFor({ state: 'visible', timeout: 60_000 });
	const suggestions = page.getByTestId('suggested-actions-close');
	if (await suggestions.isVisible()) await suggestions.click();

	// 4. The trigger fires: a customer writes on the platform (the sandbox sends the delivery).
	await take.caption('A customer writes on WhatsApp: the platform calls the webhook, the workflow runs');
	const deliveries = await sandbox.simulate.message({
		integrationId: DEMO.integrations.whatsapp.id,
		phoneNumber: CUSTOMER.phoneNumber,
		name: CUSTOMER.name,
		direction: 'inbound',
		text: 'Hi! Can someone help me with my order?',
	});
	if (deliveries.some((delivery) => delivery.status !== 200)) throw new Error(`a delivery was not accepted: ${JSON.stringify(deliveries)}`);
	await take.hold(1500);
	await page.goto(`${page.url().replace(/\/$/, '')}/executions`);
	await take.recaption();
	if (await suggestions.isVisible()) await suggestions.click();
	await page.getByTestId('execution-preview-label').filter({ hasText: /succeeded/i }).waitFor({ state: 'visible', timeout: 60_000 });
	await take.hold(1500);
	await page.locator('[data-test-id="canvas-node"]').last().dblclick();
	await ndv.getByTestId('output-panel').getByText('Can someone help me with my order?').first().waitFor({ state: 'visible', timeout: 30_000 });
	await take.caption('The execution: one item with the event, the message text, the phone number and the chat');
	await take.still('03-trigger-fired');
	await take.hold(2500);
	await closePanel(page);

	// 5. The main operations, one after the other in a new workflow (Execute step sends each).
	await page.goto(url('/workflow/new'));
	await take.caption('Actions: Tag → Create (the name is checked before sending), then Execute step');
	await page.getByTestId('canvas-add-button').click();
	const actions = await openOurEntry(page);
	await actions.getByTestId('node-creator-category-item').filter({ hasText: /^Actions/ }).click();
	await take.hold(800);
	await actions.getByTestId('node-creator-item-name').getByText('Create a tag with a unique name', { exact: true }).click();
	await ndv.waitFor({ state: 'visible' });
	await ndv.getByTestId('parameter-input-name').locator('input').fill('Demo VIP');
	await take.hold(1000);
	await ndv.getByTestId('node-execute-button').first().click();
	await ndv.getByTestId('output-panel').getByText('Demo VIP').first().waitFor({ state: 'visible', timeout: 60_000 });
	await take.caption('The API created the tag: its ID, name and colour');
	await take.hold(2500);
	await closePanel(page);

	await take.caption(`Automation → Stop in Chat: the bot stops in ${CUSTOMER.name}'s chat, a person takes over`);
	const stop = await addAction(take, 'Stop the bot or automation in a chat');
	// Version 2's one Chat field: its mode Phone, then the customer's number.
	const chat = stop.getByTestId('resource-locator-chat');
	await chat.getByTestId('rlc-mode-selector').click();
	await page.getByRole('option').filter({ hasText: /^Phone$/ }).click();
	await chat.getByTestId('rlc-input').fill(CUSTOMER.phoneNumber);
	await take.hold(1000);
	await stop.getByTestId('node-execute-button').first().click();
	await stop.getByTestId('output-panel').getByText(/Greet every message/).first().waitFor({ state: 'visible', timeout: 60_000 });
	await take.caption('The API stopped the bot: the chat and the automation stopped are in the output');
	await take.still('04-stop-in-chat');
	await take.hold(2500);
	await closePanel(page);

	await take.caption(`${PACKAGE_NAME}: every endpoint of the API (19 operations), checks before sending, clear errors`);
	await take.hold(2000);
}

// ---- setup ----------------------------------------------------------------------------------

async function main(): Promise<void> {
	const stills = process.argv.includes('--stills');
	if (!canUseMountNamespace()) {
		throw new Error(
			'the demo needs a mount namespace (unshare --mount and a bind mount of /etc/hosts: root, or CAP_SYS_ADMIN; in Docker --cap-add SYS_ADMIN and AppArmor unconfined), ' +
				"so that n8n's installer reaches the local registry under registry.npmjs.org (test/e2e/harness/registry-front.ts)",
		);
	}
	const install = await provisionN8n('2');
	say('building and packing the package');
	buildPackage();
	const work = mkdtempSync(join(tmpdir(), 'demo-video-'));
	const playwrightFolder = useDebianFfmpeg();
	rmSync(OUT, { recursive: true, force: true });
	const stillsDir = join(OUT, 'stills');
	mkdirSync(stillsDir, { recursive: true });
	let registry: LocalRegistry | undefined;
	let front: RegistryFront | undefined;
	let sandbox: Sandbox | undefined;
	let n8n: N8nProcess | undefined;
	let context: BrowserContext | undefined;
	try {
		const packed = packPackage(work);
		registry = await startRegistry();
		registry.publish(repackWithVersion(packed.tarball, DEMO_VERSION, join(work, 'next')));
		sandbox = await startSandbox({ quiet: true });
		const userFolder = join(work, 'n8n');
		front = await startRegistryFront(registry.url);
		say(`registry.npmjs.org → ${front.address}:443 (the local registry's TLS front) for n8n alone`);
		n8n = await N8nProcess.start({ install, userFolder, logLevel: 'info', launcher: front.launcher, env: front.env });
		const client = new N8nClient(n8n.url, '2');
		await client.setupOwner(DEMO_OWNER);

		const { chromium, selectors } = require('playwright-core') as typeof import('playwright-core');
		selectors.setTestIdAttribute('data-test-id');
		context = await chromium.launchPersistentContext(join(work, 'chromium'), {
			executablePath: CHROMIUM_PATH,
			headless: true,
			args: CHROMIUM_ARGS,
			viewport: VIEWPORT,
			colorScheme: 'light',
			locale: 'en-US',
			recordVideo: { dir: join(work, 'video'), size: VIEWPORT },
		});
		context.setDefaultTimeout(30_000);
		const page = context.pages()[0] ?? (await context.newPage());
		const take = new Take(page, stillsDir);
		await record(take, n8n.url, sandbox);
		// The package on screen is the one npm fetched from the local registry through the front.
		const fetched = front.tarballs().filter((r) => r.status === 200 && r.path.endsWith(`/-/${PACKAGE_NAME}-${DEMO_VERSION}.tgz`));
		if (fetched.length === 0) throw new Error(`n8n's installer fetched no ${PACKAGE_NAME}-${DEMO_VERSION}.tgz through the registry front; it answered: ${front.requests.map((r) => `${r.method} ${r.path} ${r.status}`).join('; ')}`);
		const video = page.video();
		await context.close();
		context = undefined;
		const recorded = await video!.path();
		const target = join(OUT, 'demo.webm');
		renameSync(recorded, target);

		const seconds = durationOf(target);
		const lines = [
			`# The demo video (${new Date().toISOString().slice(0, 10)})`,
			'',
			`\`${target.slice(REPO_ROOT.length + 1)}\`: ${seconds.toFixed(1)} s (${Math.floor(seconds / 60)} min ${Math.round(seconds % 60)} s), one take, ${VIEWPORT.width}×${VIEWPORT.height}; n8n ${install.version}, ${PACKAGE_NAME} ${DEMO_VERSION} (today's build) installed through Settings → Community Nodes from a local registry.`,
			'',
			`n8n runs as users run it, with its default registry: in n8n's own mount namespace registry.npmjs.org leads to the local registry (test/e2e/harness/registry-front.ts), where npm fetched ${front.tarballs().map((r) => r.path.replace(/^.*\/-\//, '')).join(', ') || 'no tarball'}. The API is the sandbox (test/sandbox/), the customer's message its simulation of the platform.`,
			'',
			'| at | what it shows | still |',
			'|---|---|---|',
			...take.parts.map((part) => `| ${Math.floor(part.at / 60)}:${String(part.at % 60).padStart(2, '0')} | ${part.caption} | ${part.still ?? ''} |`),
			'',
		];
		writeFileSync(join(OUT, 'demo.md'), lines.join('\n'));
		console.log(lines.join('\n'));
		if (stills) {
			mkdirSync(STILLS_DOC, { recursive: true });
			for (const name of readdirSync(stillsDir)) copyFileSync(join(stillsDir, name), join(STILLS_DOC, name));
			say(`stills copied to ${STILLS_DOC.slice(REPO_ROOT.length + 1)}`);
		}
		if (seconds >= MAX_SECONDS) throw new Error(`the video is ${seconds.toFixed(1)} s long: a verifier accepts one take under ${MAX_SECONDS} s`);
		say(`the video is ${seconds.toFixed(1)} s long (under ${MAX_SECONDS} s)`);
	} finally {
		await context?.close().catch(() => undefined);
		await n8n?.stop();
		await sandbox?.close();
		await front?.stop();
		await registry?.stop();
		rmSync(work, { recursive: true, force: true });
		rmSync(playwrightFolder, { recursive: true, force: true });
	}
}

main().catch((error: unknown) => {
	console.error(error);
	process.exitCode = 1;
});
