/**
 * The answer-shape rows of the variant suite (issue 23): for every operation of the node and every
 * answer shape of the sandbox (test/sandbox/shapes.ts) that applies to its endpoint, what the node
 * must do: give the same result as under the spec's shape, or fail with an error that names what
 * came. Derived from the operation list and the shape lists, never hand-picked.
 */
import type { INodeParameters } from 'n8n-workflow';
import { actionDescription } from '../helpers/action-node';

import { operationKey, operationsOf, panelOf } from '../helpers/operations';
import { VALID } from '../reliability/operations';
import type { AnswerShape, Variants } from '../sandbox';
import { BODY_SHAPES, ERROR_SHAPES, PROBLEM_TITLE, PROXY_PAGE_TITLE, SECOND_REASON, SUCCESS_SHAPES } from '../sandbox';

/**
 * Where api-spec.md shows each endpoint's result (the documented literal, not the node's table):
 * the key that carries it, or null for an answer of only `{success}`.
 */
export const SPEC_RESULT: Record<string, string | null> = {
	'/tag/create': 'data.tag',
	'/tag/remove-from-contact': 'data.removedTags',
	'/tag/list-contacts': 'data.contacts',
	'/automation/edit': 'data.trigger',
	'/automation/delete': null,
	'/automation/stop-automation-in-chat': 'data.stopped',
	'/automation/integration-bot/create': 'data.integrationBot',
	'/integration/list': 'response.integrations',
	'/integration/disconnect': 'response.integration',
	'/integration/delete': null,
	'/integration/validate-chat-phone-number': 'response.exists',
	'/integration/webhook/create': 'response.webhook',
	'/provider-template/list': 'response.templates',
	'/group/get-invite-url': 'response.inviteUrl',
	'/inbox/upsert-custom-fields-by-phone-number': 'response.customFields',
	'/inbox/get-custom-fields-from-chat': 'response.customFields',
	'/inbox/find-all-chats': 'response.chats',
	'/inbox/find-messages-from-inbox': 'response.messages',
	'/user/list': 'data.users',
};

/**
 * The writes whose result is what they create (its ID): a 2xx without it is done, and the item
 * fails saying so (DESIGN.md, "A 2xx to a write is done"). Every other write without its payload
 * gives one item with what was sent and what came. Number validation is a POST that only asks.
 */
export const CREATES = ['/tag/create', '/automation/integration-bot/create', '/integration/webhook/create'];
const QUESTION_POSTS = ['/integration/validate-chat-phone-number'];

/** The error shapes that carry a list of texts (shapes.ts). */
const LIST_SHAPES: AnswerShape[] = ['messageList', 'errorsList'];

/** The error text the sandbox's 400 carries in the error-shape rows. */
// Not a field name first: a message that starts with a field the operation sent is shown in the
// panel's words ("Name: …", errors.ts inPanelWords; test/node/panel-words.test.ts), this one as it came.
export const REASON = 'that value must be something else';

export interface ShapeRow {
	label: string;
	shape: AnswerShape;
	endpoint: string;
	variants: Variants;
	parameters: INodeParameters;
	/** the error-shape rows answer with a 400, then with success:false under 200 (the shape writes the body) */
	fault?: boolean;
	/**
	 * same: the output equals the one under the spec's shape (the run without the switch);
	 * error: the node fails with an error whose text matches every `names`;
	 * done: one item saying the write was done, carrying the body sent (and `note` matching `names`).
	 */
	outcome: 'same' | 'error' | 'done';
	names?: RegExp[];
	/**
	 * For rows with `fault`: the statuses answered (400: an error status; 200: `success: false`)
	 * and, per status, what the error must say (`names`) and must not (`never`).
	 */
	statuses?: number[];
	namesFor?: (status: number) => RegExp[];
	never?: (status: number) => RegExp[];
}

const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const otherEnvelope = (key: string): string => key.replace(/^(data|response)\./, (_m, envelope: string) => (envelope === 'data' ? 'response.' : 'data.'));

const description = actionDescription();
const VALID_BY_OPERATION = new Map<string, INodeParameters>(Object.values(VALID).map((parameters) => [operationKey(parameters), parameters]));

/** The operations of the node with their endpoint and valid parameters. */
export const OPERATIONS = operationsOf(description).map((entry) => {
	const request = (entry.option.routing?.request ?? {}) as { url?: string; method?: string };
	return { key: operationKey(entry), endpoint: String(request.url), method: String(request.method ?? 'GET'), parameters: VALID_BY_OPERATION.get(operationKey(entry)) };
});

const isWrite = (endpoint: string): boolean =>
	OPERATIONS.some((operation) => operation.endpoint === endpoint && operation.method !== 'GET') && !QUESTION_POSTS.includes(endpoint);

/** A cursor list offers the Cursor Parameter Name option (read from the description). */
function pagesByCursor(resource: string, operation: string): boolean {
	return panelOf(description, resource, operation).some(
		(property) =>
			property.name === 'options' &&
			(property.options ?? []).some((option) => 'name' in option && option.name === 'cursorParameter'),
	);
}

function successRow(shape: AnswerShape, endpoint: string, parameters: INodeParameters): ShapeRow | undefined {
	const result = SPEC_RESULT[endpoint];
	const base = { shape, endpoint, variants: { shapes: { [endpoint]: shape } }, parameters };
	const label = `${operationKey(parameters)} (${endpoint}) | ${shape}`;
	switch (shape) {
		case 'empty':
		case 'noContent': {
			if (result === null) return { ...base, label: `${label}: a success (the spec answers only success)`, outcome: 'same' };
			const status = shape === 'empty' ? 200 : 204;
			if (CREATES.includes(endpoint)) {
				return { ...base, label: `${label}: done, failing only for the missing ID`, outcome: 'error', names: [new RegExp(`^Done \\(HTTP ${status}\\), but the API did not send the new`), /the API carried out the request/] };
			}
			if (isWrite(endpoint)) return { ...base, label: `${label}: done, with what was sent`, outcome: 'done', names: [new RegExp(`^The API accepted the request \\(HTTP ${status}\\) without the result its description shows at ${escape(String(result))}\\.$`)] };
			return { ...base, label: `${label}: "answered nothing", naming ${result}`, outcome: 'error', names: [new RegExp(`The API answered nothing \\(HTTP ${status}\\)`), new RegExp(`expected ${escape(String(result))}`)] };
		}
		case 'noSuccess':
			return { ...base, label: `${label}: a success`, outcome: 'same' };
		case 'otherEnvelope':
			// An answer of only `success` has no envelope to move.
			if (result === null) return undefined;
			return { ...base, label: `${label}: read from ${otherEnvelope(String(result))}`, outcome: 'same' };
		case 'nested': {
			if (result === null) return undefined;
			const envelope = String(result).split('.')[0];
			if (CREATES.includes(endpoint)) {
				return { ...base, label: `${label}: done, failing only for the missing ID`, outcome: 'error', names: [/^Done \(HTTP 200\), but the API did not send the new/, new RegExp(`shows the result at ${escape(String(result))}`), new RegExp(`${envelope}\\.result`)] };
			}
			if (isWrite(endpoint)) return { ...base, label: `${label}: done, with what was sent and what came`, outcome: 'done', names: [new RegExp(`^The API accepted the request \\(HTTP 200\\) without the result its description shows at ${escape(String(result))}\\.$`)] };
			return {
				...base,
				label: `${label}: an error naming ${result} and what came`,
				outcome: 'error',
				names: [new RegExp(`has no ${escape(String(result))}`), new RegExp(`expected ${escape(String(result))}; the answer has .*${envelope}\\.result`)],
			};
		}
		case 'noHasNext': {
			const { resource, operation } = parameters as { resource: string; operation: string };
			if (!pagesByCursor(resource, operation)) return undefined;
			// Small pages, so that the list takes several and only the cursor says there is more.
			const listed: INodeParameters = { ...parameters, returnAll: true };
			delete listed.limit;
			return { ...base, variants: { ...base.variants, pageSizeCap: 5 }, parameters: listed, label: `${label}: every page, by the cursor alone`, outcome: 'same' };
		}
		default:
			return undefined;
	}
}

function errorRow(shape: AnswerShape, endpoint: string, parameters: INodeParameters): ShapeRow {
	return {
		label: `${operationKey(parameters)} (${endpoint}) | 400 and success:false with ${shape}: the API's whole explanation shown`,
		shape,
		endpoint,
		variants: { shapes: { [endpoint]: shape } },
		parameters,
		fault: true,
		outcome: 'error',
		// A list shape carries the sandbox's text and SECOND_REASON: both are shown, in order.
		statuses: [400, 200],
		namesFor: (status) => [new RegExp(`\\(HTTP ${status}\\): ${escape(LIST_SHAPES.includes(shape) ? `${REASON}; ${SECOND_REASON}` : REASON)}$`, 'm')],
	};
}

/** Hints about the user's inputs: only where the API's JSON answer was a decision about them. */
const INPUT_HINTS = /Check the (values of this item|fields named|Name)|Options → Rename Sent Fields/;

/** An error answered in a body other than the API's JSON (text, problem details, a proxy's page). */
function bodyRow(shape: AnswerShape, endpoint: string, method: string, parameters: INodeParameters): ShapeRow {
	const base = { shape, endpoint, variants: { shapes: { [endpoint]: shape } }, parameters, fault: true, outcome: 'error' as const };
	const label = `${operationKey(parameters)} (${endpoint}) | ${shape}`;
	switch (shape) {
		case 'textPlain':
			return {
				...base,
				label: `${label}: the text is the API's message, no hint about the inputs`,
				statuses: [400, 200],
				namesFor: (status) => [new RegExp(`\\(HTTP ${status}\\): ${escape(REASON)}$`, 'm'), /The answer was not JSON \(text\/plain\)/],
				never: () => [INPUT_HINTS],
			};
		case 'problemJson':
			// Problem details under 200 would be a success body: only the error status applies.
			return { ...base, label: `${label}: its title and detail`, statuses: [400], namesFor: (status) => [new RegExp(`\\(HTTP ${status}\\): ${escape(`${PROBLEM_TITLE}: ${REASON}`)}$`, 'm')] };
		default: {
			const write = method !== 'GET' && !QUESTION_POSTS.includes(endpoint);
			const unknown = /The node cannot tell whether this POST was carried out/;
			return {
				...base,
				label: `${label}: a web page named by its title, pointing at the Base URL or a proxy${write ? ', whether it was done unknown' : ''}`,
				statuses: [400, 200],
				namesFor: (status) => [
					new RegExp(`^The answer was a web page, not the API \\(HTTP ${status}\\): "${escape(PROXY_PAGE_TITLE)}"$`, 'm'),
					/Base URL .*proxy/,
					...(write && status === 200 ? [unknown] : []),
				],
				never: (status) => [INPUT_HINTS, ...(write && status === 200 ? [] : [unknown])],
			};
		}
	}
}

export const SHAPE_ROWS: ShapeRow[] = OPERATIONS.flatMap(({ endpoint, method, parameters }) => {
	if (!parameters) return [];
	return [
		...SUCCESS_SHAPES.map((shape) => successRow(shape, endpoint, parameters)),
		...ERROR_SHAPES.map((shape) => errorRow(shape, endpoint, parameters)),
		...BODY_SHAPES.map((shape) => bodyRow(shape, endpoint, method, parameters)),
	].filter((row): row is ShapeRow => row !== undefined);
});
