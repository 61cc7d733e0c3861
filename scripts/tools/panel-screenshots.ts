/* eslint-disable -- development tooling, not shipped: n8n's node rules (eslint.config.mjs, n8n-node lint) are for nodes/ and credentials/ */
/**
 * Before/after screenshots of node panels in a running n8n (`npm run dev`, demo owner and data): the
 * same script is pointed at an n8n running today's build ("after") and one running an older commit's
 * ("before": `npm run dev` from a `git worktree` of that commit), so both pictures show the same steps.
 *
 *   npx ts-node --transpile-only scripts/tools/panel-screenshots.ts <n8n url> <label> <out dir> [--set cost-per-item|issue-36] [--only a,b]
 *
 * Sets:
 *   cost-per-item  three operations' panels, and each collection's "Add …" list open
 *                  (<out dir>/cost-per-item-<op>-<label>[-listN].png);
 *   issue-36       the panels of issue 36's points (<out dir>/36-NN-<name>-<label>.png), cropped to
 *                  the panel (or the credential dialog, the notice, the execution), plus the README's
 *                  first result (readme-first-result-<label>.png). Listed in docs/screenshots/issue-36.md.
 * Creates one workflow per fresh node (Manual Trigger → the node, typeVersion 2); the examples are the
 * ones `npm run dev` imported. Prints what each step saw (an error's text, the webhook's answer).
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

import type { Locator, Page } from 'playwright-core';

import { DEMO } from '../../test/sandbox';
import { launchBrowser } from '../../test/e2e/harness/browser';

const [base, label, outDir] = process.argv.slice(2);
const argValue = (name: string): string | undefined => {
	const at = process.argv.indexOf(`--${name}`);
	return at >= 0 ? process.argv[at + 1] : undefined;
};
const SET = argValue('set') ?? 'cost-per-item';
const ONLY = argValue('only')?.split(',');
const ACTION = 'n8n-nodes-conversation-inbox.conversationInbox';
const MANUAL = 'When clicking ‘Execute workflow’';
const NODE = 'Panel under test';
const ALICE = DEMO.contacts.alice.phoneNumber;
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

interface Context {
	page: Page;
	credential?: { id: string; name: string };
}

/** A request of the editor's own API, from the signed-in page (its cookie and browser-id). */
async function rest<T>(page: Page, method: string, path: string, body?: unknown): Promise<T> {
	const answer = (await page.evaluate(
		async ({ method, path, body }) => {
			const r = await fetch(path, {
				method,
				headers: { 'content-type': 'application/json', 'browser-id': localStorage.getItem('n8n-browserId') ?? '' },
				body: body === undefined ? undefined : JSON.stringify(body),
			});
			return { status: r.status, text: await r.text() };
		},
		{ method, path, body },
	)) as { status: number; text: string };
	if (answer.status >= 300) throw new Error(`${method} ${path}: ${answer.status} ${answer.text.slice(0, 300)}`);
	return JSON.parse(answer.text) as T;
}

async function signIn(page: Page): Promise<void> {
	await page.goto(`${base}/signin`);
	await page.locator('input[type="email"]').fill('demo@example.com');
	await page.locator('input[type="password"]').fill('Demo-Passw0rd');
	await page.keyboard.press('Enter');
	await page.waitForURL((u) => !u.pathname.startsWith('/signin'), { timeout: 30_000 });
}

/** A new workflow: the Manual Trigger and one of our action nodes with these parameters; its id. */
async function oneNode(ctx: Context, title: string, parameters: Record<string, unknown>, typeVersion = 2): Promise<string> {
	const workflow = {
		name: `${title} (${label})`,
		nodes: [
			{ id: 'm1', name: MANUAL, type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} },
			{
				id: 'a1',
				name: NODE,
				type: ACTION,
				typeVersion,
				position: [220, 0],
				parameters,
				credentials: ctx.credential ? { conversationInboxApi: ctx.credential } : undefined,
			},
		],
		connections: { [MANUAL]: { main: [[{ node: NODE, type: 'main', index: 0 }]] } },
		settings: { executionOrder: 'v1' },
	};
	return (await rest<{ data: { id: string } }>(ctx.page, 'POST', '/rest/workflows', workflow)).data.id;
}

/** The id of the workflow `npm run dev` imported under this name. */
async function example(ctx: Context, name: string): Promise<string> {
	const list = (await rest<{ data: Array<{ id: string; name: string }> }>(ctx.page, 'GET', '/rest/workflows')).data;
	const found = list.find((w) => w.name === name);
	if (!found) throw new Error(`no workflow named "${name}" (${list.map((w) => w.name).join(', ')})`);
	return found.id;
}

async function openNode(page: Page, workflowId: string, nodeName: string): Promise<Locator> {
	await page.goto(`${base}/workflow/${workflowId}`);
	const node = page.locator(`[data-test-id="canvas-node"][data-node-name="${nodeName}"]`);
	await node.waitFor({ state: 'visible' });
	await sleep(500);
	await node.dblclick();
	const ndv = page.getByTestId('ndv');
	await ndv.getByTestId('node-parameters').waitFor({ state: 'visible' });
	await sleep(1000);
	return ndv;
}

/** The panel's dialog box (the NDV: input, parameters and output, without the dimmed canvas around it). */
const panelBox = (page: Page): Locator => page.getByTestId('ndv');
/** Its parameters column alone (a narrower picture where the input and output sides are empty). */
const parametersColumn = (page: Page): Locator => page.getByTestId('ndv').locator('.node-settings');
/** Scrolls the parameters to their end (where the Batching notice stood, above Options). */
async function scrollParametersToEnd(ndv: Locator): Promise<void> {
	await ndv.getByTestId('node-parameters').evaluate((el: { scrollTop: number; scrollHeight: number }) => {
		el.scrollTop = el.scrollHeight;
	});
	await sleep(500);
}

async function shot(page: Page, target: Locator | undefined, name: string): Promise<void> {
	const path = join(outDir, `${name}-${label}.png`);
	if (target && (await target.count()) > 0) await target.first().screenshot({ path, timeout: 15_000 });
	else await page.screenshot({ path, timeout: 15_000 });
	console.log('saved', path);
}

/** Runs the open node ("Execute step") and waits for its error or its output. */
async function runOpenNode(page: Page, ndv: Locator): Promise<void> {
	await ndv.getByTestId('node-execute-button').first().click();
	const error = ndv.getByTestId('node-error-message');
	const output = ndv.getByTestId('output-panel').getByText(/\d+ items?|phoneNumber/);
	await Promise.race([error.first().waitFor({ state: 'visible', timeout: 30_000 }), output.first().waitFor({ state: 'visible', timeout: 30_000 })]).catch(() => undefined);
	await sleep(800);
	if ((await error.count()) > 0) {
		console.log(`  error: ${(await error.first().innerText()).replace(/\s+/g, ' ')}`);
		const description = ndv.getByTestId('node-error-description');
		if ((await description.count()) > 0) console.log(`  description: ${(await description.first().innerText()).replace(/\s+/g, ' ')}`);
	}
}

type Shot = (ctx: Context) => Promise<void>;

const TRIGGER_EXAMPLE = 'Conversation Inbox: answer a contact who asks for a person';

const ISSUE_36: Record<string, Shot> = {
	'36-01-mcp-tag-names': async ({ page, ...ctx }) => {
		const ndv = await openNode(page, await example({ page, ...ctx }, 'MCP server for your inbox'), 'Remove tags from a contact');
		// Tag Names at the top of the column: what the editor draws of the example's value.
		await ndv.getByText('Tag Names', { exact: true }).first().evaluate((el: { scrollIntoView(o: object): void }) => el.scrollIntoView({ block: 'start' }));
		await sleep(500);
		await shot(page, parametersColumn(page), '36-01-mcp-tag-names');
	},
	'36-02-remove-tags-rule': async (ctx) => {
		const ndv = await openNode(ctx.page, await oneNode(ctx, 'Tag → Remove From Contact', { resource: 'tag', operation: 'removeFromContact' }), NODE);
		void ndv;
		await shot(ctx.page, parametersColumn(ctx.page), '36-02-remove-tags-rule');
	},
	'36-03-list-hint-chats': async (ctx) => {
		await openNode(ctx.page, await oneNode(ctx, 'Chat → Get Many', { resource: 'chat', operation: 'getAll' }), NODE);
		await shot(ctx.page, parametersColumn(ctx.page), '36-03-list-hint-chats');
	},
	'36-03-list-hint-templates': async (ctx) => {
		await openNode(ctx.page, await oneNode(ctx, 'Template → Get Many', { resource: 'template', operation: 'getAll' }), NODE);
		await shot(ctx.page, parametersColumn(ctx.page), '36-03-list-hint-templates');
	},
	'36-04-no-batching-notice': async (ctx) => {
		const ndv = await openNode(ctx.page, await oneNode(ctx, 'Automation → Stop in Chat', { resource: 'automation', operation: 'stopInChat', phoneNumber: ALICE }), NODE);
		await scrollParametersToEnd(ndv);
		await shot(ctx.page, parametersColumn(ctx.page), '36-04-no-batching-notice');
	},
	'36-05-error-panel-words': async (ctx) => {
		const parameters = { resource: 'tag', operation: 'removeFromContact', phoneNumber: ALICE, tagNames: ['VIP', 'No such tag'] };
		const ndv = await openNode(ctx.page, await oneNode(ctx, 'An unknown tag name', parameters), NODE);
		await runOpenNode(ctx.page, ndv);
		await shot(ctx.page, panelBox(ctx.page), '36-05-error-panel-words');
	},
	'36-06-not-a-phone-number': async (ctx) => {
		const parameters = { resource: 'tag', operation: 'removeFromContact', phoneNumber: 'Alice phone', tagNames: ['VIP'] };
		const ndv = await openNode(ctx.page, await oneNode(ctx, '"Alice phone" as the phone number', parameters), NODE);
		await runOpenNode(ctx.page, ndv);
		await shot(ctx.page, panelBox(ctx.page), '36-06-not-a-phone-number');
	},
	'36-07-custom-field-get': async (ctx) => {
		const ndv = await openNode(ctx.page, await oneNode(ctx, 'Custom Field → Get', { resource: 'customField', operation: 'get', phoneNumber: ALICE }), NODE);
		await runOpenNode(ctx.page, ndv);
		await ndv.getByTestId('output-panel').getByText('JSON', { exact: true }).first().click().catch(() => undefined);
		await sleep(800);
		await shot(ctx.page, panelBox(ctx.page), '36-07-custom-field-get');
	},
	'36-08-trigger-example-version': async (ctx) => {
		await openNode(ctx.page, await example(ctx, TRIGGER_EXAMPLE), 'On a received message');
		await shot(ctx.page, parametersColumn(ctx.page), '36-08-trigger-example-version');
	},
	'36-09-tag-field-modes': async (ctx) => {
		const ndv = await openNode(ctx.page, await example(ctx, 'Conversation Inbox: export the contacts of a tag to CSV'), 'Get contacts of the tag');
		const tag = ndv.getByTestId('resource-locator-tag');
		if ((await tag.count()) > 0) {
			await tag.getByTestId('rlc-mode-selector').click();
			await sleep(600);
		}
		await shot(ctx.page, parametersColumn(ctx.page), '36-09-tag-field-modes');
	},
	'36-10-listen-for-test-event-notice': async (ctx) => {
		const ndv = await openNode(ctx.page, await example(ctx, TRIGGER_EXAMPLE), 'On a received message');
		const notice = ndv.getByRole('alert').filter({ hasText: 'The API cannot delete webhooks' });
		console.log(`  notice: ${(await notice.first().innerText()).replace(/\s+/g, ' ')}`);
		await shot(ctx.page, notice, '36-10-listen-for-test-event-notice');
	},
	'36-11-credential-token-hint': async (ctx) => {
		await ctx.page.goto(`${base}/home/credentials/${ctx.credential?.id ?? ''}`);
		const modal = ctx.page.getByTestId('editCredential-modal');
		await modal.waitFor({ state: 'visible', timeout: 20_000 });
		await sleep(1000);
		await shot(ctx.page, modal.locator('.el-dialog, [role="dialog"]').first().or(modal).first(), '36-11-credential-token-hint');
	},
	'36-12-stop-automation-answer': async (ctx) => {
		const id = await example(ctx, 'Conversation Inbox: stop the automation in a chat');
		// The example's production URL with a 5-digit number (the workflow is active in `npm run dev`).
		const answer = await fetch(`${base}/webhook/stop-automation`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ phoneNumber: '12345' }) });
		console.log(`  the webhook answered ${answer.status}: ${await answer.text()}`);
		await sleep(1500);
		await ctx.page.goto(`${base}/workflow/${id}/executions`);
		await ctx.page.getByTestId('canvas-node').first().or(ctx.page.locator('iframe').first()).first().waitFor({ state: 'visible', timeout: 30_000 }).catch(() => undefined);
		await sleep(2500);
		// The canvas only: n8n's "Production Checklist" of a published workflow covers the executions list.
		const path = join(outDir, `36-12-stop-automation-answer-${label}.png`);
		await ctx.page.screenshot({ path, clip: { x: 420, y: 64, width: 860, height: 700 } });
		console.log('saved', path);
	},
	'readme-first-result': async (ctx) => {
		const id = await example(ctx, 'Conversation Inbox: list the approved message templates');
		await ctx.page.goto(`${base}/workflow/${id}`);
		await ctx.page.getByTestId('canvas-node').first().waitFor({ state: 'visible' });
		await ctx.page.getByTestId('execute-workflow-button').first().click();
		await sleep(6000);
		await ctx.page.locator('[data-test-id="canvas-node"][data-node-name="Name, language and category"]').dblclick();
		const ndv = ctx.page.getByTestId('ndv');
		await ndv.getByTestId('output-panel').waitFor({ state: 'visible' });
		await sleep(1000);
		await shot(ctx.page, panelBox(ctx.page), 'readme-first-result');
	},
};

const COST_PER_ITEM = [
	['tag-remove-from-contact', { resource: 'tag', operation: 'removeFromContact' }],
	['automation-stop-in-chat', { resource: 'automation', operation: 'stopInChat' }],
	['template-get-many', { resource: 'template', operation: 'getAll' }],
] as const;

/** Issue 33's set: each panel full-window, then each collection's "Add …" list open (only this operation's entries). */
async function costPerItem(ctx: Context): Promise<void> {
	for (const [name, parameters] of COST_PER_ITEM) {
		const ndv = await openNode(ctx.page, await oneNode(ctx, `cost-per-item ${name}`, parameters), NODE);
		await sleep(500);
		await shot(ctx.page, undefined, `cost-per-item-${name}`);
		for (const [index, button] of (await ndv.getByTestId('collection-parameter-add').all()).entries()) {
			await button.click();
			await sleep(800);
			await shot(ctx.page, undefined, `cost-per-item-${name}-list${index + 1}`);
			await ctx.page.keyboard.press('Escape');
			await sleep(300);
		}
	}
}

async function main(): Promise<void> {
	if (!base || !label || !outDir) throw new Error('usage: panel-screenshots.ts <n8n url> <label> <out dir> [--set cost-per-item|issue-36] [--only a,b]');
	mkdirSync(outDir, { recursive: true });
	const browser = await launchBrowser({ actionTimeoutMs: 30_000 });
	try {
		const page = await browser.newPage();
		await page.setViewportSize(SET === 'cost-per-item' ? { width: 1440, height: 1400 } : { width: 1280, height: 800 });
		await signIn(page);
		const credentials = (await rest<{ data?: Array<{ id: string; name: string; type: string }> }>(page, 'GET', '/rest/credentials')).data ?? [];
		const found = credentials.find((c) => c.type === 'conversationInboxApi');
		const ctx: Context = { page, credential: found ? { id: found.id, name: found.name } : undefined };
		if (SET === 'cost-per-item') return await costPerItem(ctx);
		if (SET !== 'issue-36') throw new Error(`--set: "${SET}" is neither cost-per-item nor issue-36`);
		let failed = 0;
		for (const [name, take] of Object.entries(ISSUE_36)) {
			if (ONLY && !ONLY.some((prefix) => name.startsWith(prefix))) continue;
			console.log(name);
			try {
				// Each from a clean page: no panel or dialog left open by the one before.
				await page.goto(`${base}/home/workflows`);
				await take(ctx);
			} catch (error) {
				failed++;
				console.error(`  ${name} failed: ${(error as Error).message.split('\n')[0]}`);
				await page.screenshot({ path: join(outDir, `${name}-${label}-failed.png`) }).catch(() => undefined);
			}
		}
		if (failed) process.exitCode = 1;
	} finally {
		await browser.close();
	}
}

main().catch((error) => {
	console.error(error);
	process.exitCode = 1;
});
