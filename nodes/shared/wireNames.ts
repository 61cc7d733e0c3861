/**
 * The wire names the API spec leaves out (DESIGN.md, "Wire names the spec does not show").
 *
 * They are ASSUMPTIONS, kept in this one module so that a correction is a one-line change. The
 * node parameters keep their names when a wire name changes (workflows store parameter names), and
 * every operation has "Extra Query Parameters" / "Extra Body Fields" so users can match the live API
 * before a release. The sandbox API server accepts exactly these names.
 */
export const WIRE = {
	/** GET /tag/list-contacts: offset and page size, both strings of digits. */
	tagContacts: { offset: 'offset', limit: 'limit' },
	/** POST /automation/edit: chat type filter and transfer type. */
	automationEdit: { chatType: 'chatType', transferType: 'transferType' },
	/** POST /integration/webhook/create: HTTP method, event type and transfer type. */
	webhookCreate: { method: 'method', eventType: 'type', transferType: 'transferType' },
	/** GET /provider-template/list (only `after` is named by the spec). */
	templateList: {
		integrationId: 'integrationId',
		pageSize: 'limit',
		cursor: 'after',
		status: 'status',
		search: 'search',
	},
	/** GET /group/get-invite-url. */
	groupInvite: { integrationId: 'integrationId', groupJid: 'groupJid' },
	/** GET /inbox/get-custom-fields-from-chat. */
	customFieldsRead: { phoneNumber: 'phoneNumber' },
	/** GET /inbox/find-all-chats; the id lists are comma-separated strings. */
	chatList: {
		category: 'category',
		offset: 'offset',
		limit: 'limit',
		integrationIds: 'integrationIds',
		sectorIds: 'sectorIds',
		attendantIds: 'attendantIds',
		tagIds: 'tagIds',
	},
	/** GET /inbox/find-messages-from-inbox (the spec shows no parameters at all). */
	messageList: { chatInternalId: 'chatInternalId', offset: 'offset', limit: 'limit' },
} as const;
