// The package's `main`: the node and credential classes, for those who embed or test the package
// (`require('n8n-nodes-conversation-inbox')`). n8n itself loads the files that package.json's "n8n"
// section lists. Needs the build (dist/), which the published package ships.
const { ConversationInbox } = require('./dist/nodes/ConversationInbox/ConversationInbox.node.js');
const { ConversationInboxTrigger } = require('./dist/nodes/ConversationInboxTrigger/ConversationInboxTrigger.node.js');
const { ConversationInboxApi } = require('./dist/credentials/ConversationInboxApi.credentials.js');

module.exports = { ConversationInbox, ConversationInboxTrigger, ConversationInboxApi };
