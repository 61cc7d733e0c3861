// The e2e suites on n8n 1.123.81 (Node 20). Skipped unless N8N_E2E_VERSIONS selects 1 (default "2,1").
// The browser checks (Chromium) run here too: the editor of each version draws our panels (issue 36).
import { describeN8n } from './harness/context';
import { browserSuite } from './suites/browser';
import { browserTriggerSuite } from './suites/browser-trigger';
import { compat010Suite } from './suites/compat-0.1.0';
import { examplesSuite } from './suites/examples';
import { packageSuite } from './suites/package';
import { resourcesSuite } from './suites/resources';
import { oncePerMessageSuites, triggerSuite } from './suites/trigger';

// One Execution per Message (issue 45): its first part before the other suites, its last before the
// trigger suite, which restarts this n8n once at its end (issue 42: what a restart does to the
// trigger's state; a restart also forgets the memory of One Execution per Message).
const oncePerMessage = oncePerMessageSuites();
describeN8n('1', [
	oncePerMessage.first,
	packageSuite,
	resourcesSuite,
	compat010Suite,
	examplesSuite,
	oncePerMessage.last,
	(ctx) => triggerSuite(ctx, { restart: true }),
	browserSuite,
	browserTriggerSuite,
]);
