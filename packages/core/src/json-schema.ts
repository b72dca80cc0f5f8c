import { z } from 'zod';
import { AgentOutputSchema } from './agent-output/agent-output.js';
import { ConversationMessageSchema } from './messages/conversation-message.js';
import type { JsonSchema } from './model/model-adapter.js';

// The role rules `ConversationMessageSchema` checks in code, restated for JSON Schema consumers.
// (One rule has no JSON Schema form: tool call ids must be unique within a message.)
const ROLE_RULES: JsonSchema[] = [
  {
    if: { properties: { role: { const: 'tool' } } },
    then: { required: ['tool_call_id', 'content'], properties: { content: { type: 'string' } } },
    else: { not: { anyOf: [{ required: ['tool_call_id'] }, { required: ['isError'] }] } },
  },
  {
    if: { properties: { role: { enum: ['user', 'system'] } } },
    then: { required: ['content'], properties: { content: { type: 'string' } } },
  },
  {
    if: { properties: { role: { not: { const: 'assistant' } } } },
    then: { not: { required: ['tool_calls'] } },
  },
];

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
    additionalProperties: true,
    allOf: ROLE_RULES,
  };
}

/** JSON Schema (draft 2020-12) of one `AgentOutput` event. */
export function agentOutputJsonSchema(): JsonSchema {
  const schema = z.toJSONSchema(AgentOutputSchema, { io: 'input' }) as JsonSchema;
  return { ...schema, $id: 'https://cairn.dev/schemas/agent-output.json', title: 'AgentOutput' };
}
