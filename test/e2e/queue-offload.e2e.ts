// Queue mode with OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS=true (n8n 3.0's behaviour): "Execute step", "Listen for
// test event" and the pickers on n8n 2.41.1 and 1.123.81 (suites/queue-offload.ts). Each version runs when
// N8N_E2E_VERSIONS selects it (default "2,1"); E2E_QUEUE=0 skips it (outside CI; under CI=true a suite switched off fails).
import { describeQueueOffload } from './suites/queue-offload';

describeQueueOffload('2');
describeQueueOffload('1');
