/**
 * Screenshots of three operations' panels in a running n8n (npm run dev): logs in as the demo
 * owner, creates one workflow per operation holding the action node, opens its panel and saves
 * <out dir>/cost-per-item-<op>-<label>.png (and each collection's "Add …" list open, -listN).
 * Usage: npx ts-node --transpile-only scripts/cost-per-item-screenshots.ts <n8n url> <label> <out dir>
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

import { launchBrowser } from '../test/e2e/harness/browser';

const [base, label, outDir] = process.argv.slice(2);
const OPERATIONS = [
	['tag-remove-from-contact', { resource: 'tag', operation: 'removeFromContact' }],
	['automation-stop-in-chat', { resource: 'automation', operation: 'stopInChat' }],
	['template-get-many', { resource: 'template', operation: 'getAll' }],
] as const;

async function main(): Promise<void> {
	mkdirSync(outDir, { recursive: true });
	const browser = await launchBrowser({ actionTimeoutMs: 30_000 });
	try {
		const page = await browser.newPage();
		await page.setViewportSize({ width: 1440, height: 1400 });
		await page.goto(`${base}/signin`);
		await page.locator('input[type="email"]').fill('demo@example.com');
		await page.locator('input[type="password"]').fill('Demo-Passw0rd');
		await page.keyboard.press('Enter');
		await page.waitForURL((u) => !u.pathname.startsWith('/signin'), { timeout: 30_000 });
		const credentials = (await page.evaluate(async () => { const r = await fetch("/rest/credentials", { headers: { "browser-id": localStorage.getItem("n8n-browserId") ?? "" } }); return { status: r.status, body: await r.text() }; })) as { status: number; body: string };
		const list = (JSON.parse(credentials.body) as { data?: Array<{ id: string; name: string; type: string }> }).data ?? [];
		const credential = list.find((c) => c.type === 'conversationInboxApi');
		for (const [name, parameters] of OPERATIONS) {
			const workflow = {
				name: `cost-per-item ${name} ${label}`,
				nodes: [
					{
						id: 'a1',
						name: 'Conversation Inbox',
						type: 'n8n-nodes-conversation-inbox.conversationInbox',
						typeVersion: 2,
						position: [0, 0],
						parameters,
						credentials: credential ? { conversationInboxApi: { id: credential.id, name: credential.name } } : undefined,
					},
				],
				connections: {},
				settings: {},
			};
			const created = (await page.evaluate(async (body) => {
				const response = await fetch("/rest/workflows", { method: "POST", headers: { "content-type": "application/json", "browser-id": localStorage.getItem("n8n-browserId") ?? "" }, body: JSON.stringify(body) });
				return (await response.json()) as unknown;
			}, workflow)) as { data: { id: string } };
			await page.goto(`${base}/workflow/${created.data.id}`);
			await page.locator('[data-test-id="canvas-node"][data-node-name="Conversation Inbox"]').dblclick();
			const ndv = page.getByTestId('ndv');
			await ndv.getByTestId('node-parameters').waitFor({ state: 'visible' });
			await page.waitForTimeout(1500);
			await page.screenshot({ path: join(outDir, `cost-per-item-${name}-${label}.png`) });
			console.log('saved', name);
			// The collections' "Add …" lists: only this operation's entries.
			for (const [index, button] of (await ndv.getByTestId('collection-parameter-add').all()).entries()) {
				await button.click();
				await page.waitForTimeout(800);
				await page.screenshot({ path: join(outDir, `cost-per-item-${name}-${label}-list${index + 1}.png`) });
				await page.keyboard.press('Escape');
				await page.waitForTimeout(300);
			}
		}
	} finally {
		await browser.close();
	}
}

main().catch((error) => {
	console.error(error);
	process.exitCode = 1;
});
