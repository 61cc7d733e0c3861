// The package on n8n 2.41.1 in queue mode (main + 2 workers + webhook processor, Postgres, Redis):
// suites/queue.ts. Runs when N8N_E2E_VERSIONS selects 2 (default "2,1"); E2E_QUEUE=0 skips it (outside CI; under CI=true a suite switched off fails).
import { describeQueue } from './suites/queue';

describeQueue();
