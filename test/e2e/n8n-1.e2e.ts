// The e2e suites on n8n 1.123.81 (Node 20). Skipped unless N8N_E2E_VERSIONS selects 1 (default "2,1").
import { describeN8n } from './harness/context';
import { examplesSuite } from './suites/examples';
import { packageSuite } from './suites/package';
import { resourcesSuite } from './suites/resources';
import { triggerSuite } from './suites/trigger';

describeN8n('1', [packageSuite, resourcesSuite, examplesSuite, triggerSuite]);
