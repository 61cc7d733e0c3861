import type {
	IAuthenticate,
	IAuthenticateRuleResponseCode,
	IAuthenticateRuleResponseSuccessBody,
	ICredentialDataDecryptedObject,
	Icon,
	ICredentialTestRequest,
	ICredentialType,
	IHttpRequestOptions,
	INodeProperties,
} from 'n8n-workflow';

export class ConversationInboxApi implements ICredentialType {
	name = 'conversationInboxApi';

	displayName = 'Conversation Inbox API';

	icon: Icon = {
		light: 'file:../nodes/ConversationInbox/conversationInbox.svg',
		dark: 'file:../nodes/ConversationInbox/conversationInbox.dark.svg',
	};

	documentationUrl =
		'https://github.com/conversation-inbox/n8n-nodes-conversation-inbox#credentials';

	properties: INodeProperties[] = [
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'https://api.example.com/v2',
			description:
				'Address of the API, ending in /v2 (the API version). A trailing slash is fine.',
		},
		{
			displayName: 'API Token',
			name: 'apiToken',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description:
				"The company API token from the platform's settings. Every request acts on that company.",
			// Shown under the field (the description is only a tooltip on the label).
			hint: "The company API token from the platform's API settings (the token of the company whose inbox you want to automate)",
		},
	];

	/**
	 * `Authorization: Bearer <token>` on every request, the token trimmed: a token pasted with a space
	 * or a line break around it is the same token (HTTP would drop a trailing space anyway, and a
	 * leading one would be sent as part of it). A function rather than the generic
	 * `=Bearer {{$credentials.apiToken}}` block: n8n resolves that expression anew for every request
	 * (in n8n 2.x through its expression engine), which a plain string needs not.
	 */
	authenticate: IAuthenticate = async (
		credentials: ICredentialDataDecryptedObject,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> => ({
		...requestOptions,
		headers: { ...requestOptions.headers, Authorization: `Bearer ${String(credentials.apiToken).trim()}` },
	});

	/**
	 * GET /user/list: cheap, no parameters, needs a valid token, and answers `{ success, data }`.
	 * It passes only when the API itself answered (DESIGN.md, "True where it is said"): n8n's
	 * CredentialsTester (2.x and 1.x) applies `responseCode` rules to a refused status, and after a
	 * 2xx the `responseSuccessBody` rules, each `get(body, key) === value`: a web page (a text body
	 * whose first character is "<") or another service's JSON (no `success` in it, as in every
	 * answer of the API) fails, naming what answered and the address to use. A connection that
	 * fails reaches n8n's own words (2.x the error's code, 1.x its generic text): only a node
	 * `credentialTest` method could word it, and n8n gives that only the deprecated
	 * `helpers.request`, which its verification lint refuses (n8n-io/n8n#25190).
	 */
	test: ICredentialTestRequest = {
		request: {
			baseURL: '={{$credentials.baseUrl.replace(/\\/+$/, "")}}',
			url: '/user/list',
			method: 'GET',
		},
		// Both kinds of rule in one list: n8n's runtime reads each by its type (the type of `rules`
		// in n8n-workflow allows one kind per list, hence the cast).
		rules: ([
			{
				type: 'responseCode',
				properties: {
					value: 401,
					message: "The API token was rejected (HTTP 401). Copy the company API token again from the platform's API settings.",
				},
			},
			{
				type: 'responseCode',
				properties: {
					value: 403,
					message: "The API token may not read this company's users (HTTP 403). Use the company API token from the platform's API settings.",
				},
			},
			{
				type: 'responseCode',
				properties: {
					value: 404,
					message:
						'The API was not found at this Base URL (HTTP 404). Use the API\'s address, ending in /v2, e.g. https://api.example.com/v2.',
				},
			},
			{
				type: 'responseSuccessBody',
				properties: {
					key: '0',
					value: '<',
					message:
						'A web page answered, not the Conversation Inbox API: this Base URL is a website\'s address (or a proxy or login page answers in the API\'s place). Use the API\'s address, ending in /v2, e.g. https://api.example.com/v2.',
				},
			},
			{
				type: 'responseSuccessBody',
				properties: {
					key: 'success',
					value: undefined,
					message:
						'Another service answered, not the Conversation Inbox API (its answer has no "success", which every answer of the API has). Use the API\'s address, ending in /v2, e.g. https://api.example.com/v2.',
				},
			},
			{
				type: 'responseSuccessBody',
				properties: {
					key: 'success',
					value: false,
					message: 'The API answered that the request did not succeed ("success": false). Check the API token, then test again.',
				},
			},
		] satisfies Array<IAuthenticateRuleResponseCode | IAuthenticateRuleResponseSuccessBody>) as IAuthenticateRuleResponseCode[],
	};
}
