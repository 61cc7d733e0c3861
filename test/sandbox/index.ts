// Public surface of the sandbox API server (development tooling, not shipped).
export { startSandbox } from './server';
export type {
	Delivery,
	DeliverySwitches,
	Fault,
	FaultKind,
	Hold,
	HoldFilter,
	InServiceMessage,
	RecordedRequest,
	Sandbox,
	SandboxOptions,
	SandboxState,
	SeedOptions,
	SimulatedMessage,
	Simulator,
	Variants,
} from './server';
export { DEMO, SEED_DEFAULTS, seedState } from './seed';
export { CONTROL_ENDPOINTS } from './control';
export { SAAS_RATE_LIMIT, type RateLimit } from './rateLimit';
export { ApiError, DEFAULT_ERROR_MESSAGE } from './errors';
export { seededId } from './ids';
export * from './types';
export { BODY_SHAPES, ERROR_SHAPES, PROBLEM_TITLE, PROXY_PAGE_TITLE, SECOND_REASON, SUCCESS_SHAPES } from './shapes';
export type { AnswerShape, AnswerShapes } from './shapes';
export { SCRIPTED_TEXT } from './script';
export type { ScriptedAnswer, ScriptedBody, ScriptedStatus } from './script';
