// The package's `main` (for embedding or testing the package); n8n loads the files package.json's "n8n" lists.
const { ConversationInbox } = require('./dist/nodes/ConversationInbox/ConversationInbox.node.js');
const { ConversationInboxTrigger } = require('./dist/nodes/ConversationInboxTrigger/ConversationInboxTrigger.node.js');
const { ConversationInboxApi } = require('./dist/credentials/ConversationInboxApi.credentials.js');

module.exports = { ConversationInbox, ConversationInboxTrigger, ConversationInboxApi };
