// A finding's text, rendered from its rule's message template (src/util/message-template.ts): rules
// never build message text themselves (ESLint's meta.messages + messageId + data), so tests and tools
// can match on ids and values.
export { placeholdersOf, renderMessage } from '../util/message-template.js';
