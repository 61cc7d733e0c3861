/* eslint-disable -- development tooling, not shipped: n8n's node rules (eslint.config.mjs, n8n-node lint) are for nodes/ and credentials/ */
/**
 * An e2e suite that can be switched off (an n8n version not selected, E2E_BROWSER=0, E2E_QUEUE=0).
 * On a developer's machine a suite switched off is skipped, with the reason in its title. Under
 * CI=true (GitHub Actions sets it) every suite is expected: one switched off fails, saying what is
 * missing, instead of skipping silently.
 */
export function describeWhen(enabled: boolean, name: string, off: string, suite: () => void, env: NodeJS.ProcessEnv = process.env): void {
	if (enabled) {
		describe(name, suite);
	} else if (env.CI === 'true') {
		describe(name, () => {
			test('runs under CI=true', () => {
				throw new Error(`${name} did not run: ${off}. CI expects every e2e suite; it is skipped only outside CI.`);
			});
		});
	} else {
		describe.skip(`${name} (skipped: ${off})`, suite);
	}
}
