// The e2e suites on n8n 2.41.1 (Node 24). Skipped unless N8N_E2E_VERSIONS selects 2 (default "2,1").
// The browser checks (Chromium) run here and on 1.x; E2E_BROWSER=0 skips them (outside CI; under CI=true it fails).
import { describeN8n } from './harness/context';
import { aiToolsSuite } from './suites/ai-tools';
import { browserSuite } from './suites/browser';
import { browserTriggerSuite } from './suites/browser-trigger';
import { compat010Suite } from './suites/compat-0.1.0';
import { examplesSuite } from './suites/examples';
import { packageSuite } from './suites/package';
import { resourcesSuite } from './suites/resources';
import { oncePerMessageSuites, triggerSuite } from './suites/trigger';

// One Execution per Message (issue 45): its first part before the other suites, its last after the trigger suite.
const oncePerMessage = oncePerMessageSuites();

describeN8n('2', [
	oncePerMessage.first,
	packageSuite,
	resourcesSuite,
	compat010Suite,
	examplesSuite,
	triggerSuite,
	oncePerMessage.last,
	aiToolsSuite,
	browserSuite,
	browserTriggerSuite,
]);
