import { z } from 'zod';
import { AgentOutputSchema } from './agent-output/agent-output.js';
import { ConversationMessageSchema } from './messages/conversation-message.js';
import { MAX_MESSAGE_DEPTH } from './messages/parse-message-for-storage.js';
import { roleRulesJsonSchema } from './messages/role-rules.js';
import type { JsonSchema } from './model/model-adapter.js';

/**
 * JSON Schema (draft 2020-12) of a stored conversation message, for non-TypeScript consumers.
 * Unknown properties are allowed: newer versions may add fields.
 */
export function conversationMessageJsonSchema(): JsonSchema {
  const schema = z.toJSONSchema(ConversationMessageSchema, { io: 'input' }) as JsonSchema;
  return {
    ...schema,
    $id: 'https://cairn.dev/schemas/conversation-message.json',
    title: 'ConversationMessage',
    // JSON Schema has no nesting limit; the stores' is stated for consumers that write messages.
    $comment: `Stores refuse a message nested deeper than ${MAX_MESSAGE_DEPTH} levels (the message itself is the first).`,
    additionalProperties: true,
    allOf: roleRulesJsonSchema(),
  };
}

/** JSON Schema (draft 2020-12) of one `AgentOutput` event. */
export function agentOutputJsonSchema(): JsonSchema {
  const schema = z.toJSONSchema(AgentOutputSchema, { io: 'input' }) as JsonSchema;
  return { ...schema, $id: 'https://cairn.dev/schemas/agent-output.json', title: 'AgentOutput' };
}
