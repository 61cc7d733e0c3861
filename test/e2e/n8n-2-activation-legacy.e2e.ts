// The trigger suite on n8n 2.41.1 with N8N_USE_WORKFLOW_PUBLICATION_SERVICE=false: activation takes
// n8n's older path (ActiveWorkflowManager.add), which saves the trigger's static data only after an
// activation succeeds, as 1.x does (issue 35; docs/development.md, "The trigger and n8n's static
// data"), and restarts it once at the end (issue 42). Skipped unless N8N_E2E_VERSIONS selects 2 (default "2,1").
import { describeN8n } from './harness/context';
import { triggerSuite } from './suites/trigger';

describeN8n('2', [(ctx) => triggerSuite(ctx, { restart: true })], {
	label: 'N8N_USE_WORKFLOW_PUBLICATION_SERVICE=false',
	env: { N8N_USE_WORKFLOW_PUBLICATION_SERVICE: 'false' },
});
