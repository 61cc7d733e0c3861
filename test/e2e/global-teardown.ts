/* eslint-disable -- development tooling, not shipped: n8n's node rules (eslint.config.mjs, n8n-node lint) are for nodes/ and credentials/ */
import { rmSync } from 'node:fs';

export default async function globalTeardown(): Promise<void> {
	if (process.env.E2E_PACK_DIR) rmSync(process.env.E2E_PACK_DIR, { recursive: true, force: true });
}
