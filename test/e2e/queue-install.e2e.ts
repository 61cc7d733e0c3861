// Queue mode installed as users install it (issue 30): main installs the package through n8n's
// installer, workers that start without it install it themselves, then an update: suites/queue-install.ts.
// Runs when N8N_E2E_VERSIONS selects 2 and this machine can make a mount namespace (root); E2E_QUEUE=0 skips it.
import { describeQueueInstall } from './suites/queue-install';

describeQueueInstall();
