import type {
	IAuthenticate,
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

	// GET /user/list is cheap, has no parameters and needs a valid token.
	test: ICredentialTestRequest = {
		request: {
			baseURL: '={{$credentials.baseUrl.replace(/\\/+$/, "")}}',
			url: '/user/list',
			method: 'GET',
		},
		rules: [
			{
				type: 'responseCode',
				properties: {
					value: 401,
					message: 'The API token was rejected (HTTP 401). Copy the company API token again.',
				},
			},
			{
				type: 'responseCode',
				properties: {
					value: 404,
					message:
						'The API was not found at this Base URL (HTTP 404). Check that it ends in /v2, e.g. https://api.example.com/v2.',
				},
			},
		],
	};
}
