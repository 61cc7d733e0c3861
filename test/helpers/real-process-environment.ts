/* eslint-disable -- development tooling, not shipped: n8n's node rules (eslint.config.mjs, n8n-node lint) are for nodes/ and credentials/ */
/**
 * jest's Node environment, plus `realProcess`: the worker's own process object (jest hands a test a
 * copy of it, whose listeners are its own). For the one test that must see the process's unhandled
 * rejections itself (test/reliability/request-life.test.ts: n8n's RoutingNode leaves an item's
 * promise unawaited when a later item fails in preparation). Use with the docblock
 * `@jest-environment ./test/helpers/real-process-environment.ts`.
 */
import NodeEnvironment from 'jest-environment-node';

export default class RealProcessEnvironment extends NodeEnvironment {
	constructor(...args: ConstructorParameters<typeof NodeEnvironment>) {
		super(...args);
		this.global.realProcess = process;
	}
}
