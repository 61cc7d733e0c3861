// The package installed as users install it (suites/install.ts): n8n's installer (install 0.1.0,
// update to today's build, restart, uninstall) and by hand with npm, from a local registry
// (harness/registry.ts), on each n8n version N8N_E2E_VERSIONS selects (default "2,1").
import { describeInstall } from './suites/install';

describeInstall('2');
describeInstall('1');
