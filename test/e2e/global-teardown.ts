import { rmSync } from 'node:fs';

export default async function globalTeardown(): Promise<void> {
	if (process.env.E2E_PACK_DIR) rmSync(process.env.E2E_PACK_DIR, { recursive: true, force: true });
}
