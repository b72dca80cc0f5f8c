import { TokenUsageSchema } from '@cairn/core';
import { z } from '@hono/zod-openapi';
import {
  CairnErrorJsonSchema,
  ConversationMessageSchema,
  TEXT_ONCE_DESCRIPTION,
} from '../http/api-schemas.js';

/** An approval request of a conversation, with its decision once decided (`ApprovalEntry`). */
export const ApprovalSchema = z
  .object({
    id: z.string().openapi({ description: 'What a decision names' }),
    seq: z.number().int().optional(),
    requestedAt: z.string(),
    request: z.object({
      toolName: z.string(),
      toolCallId: z.string(),
      assistantMessageId: z.string(),
      callIndex: z.number().int(),
      input: z.unknown().openapi({ description: 'The input to approve, as the tool validated it' }),
      askedOf: z.string().openapi({ description: '`caller:<id>` (who sent the message), `local` or `any`' }),
      expiresAt: z.string().optional(),
    }),
    decision: z
      .object({
        outcome: z.enum(['approve', 'deny', 'edit', 'expired', 'superseded']),
        decidedBy: z.string(),
        decidedAt: z.string(),
        input: z.unknown().optional(),
        reason: z.string().optional(),
      })
      .optional(),
  })
  .openapi('Approval');

export const TurnResultSchema = z
  .object({
    conversationId: z.string(),
    success: z.boolean(),
    message: ConversationMessageSchema.optional().openapi({
      description: 'The last assistant message stored: the answer, or the error message on failure',
    }),
    error: CairnErrorJsonSchema.optional(),
    waiting: z
      .array(ApprovalSchema)
      .optional()
      .openapi({
        description:
          'The approval requests the turn stopped for (it called no model after them): decide each with ' +
          '`POST /v1/conversations/{id}/approvals/{approvalId}`, which continues the turn',
      }),
    usage: z.object({ turns: z.array(TokenUsageSchema), total: TokenUsageSchema }),
  })
  .openapi('TurnResult');

export const TURN_EVENTS_DESCRIPTION =
  'Sent when the request has `Accept: text/event-stream`. Events: `agent_output` (data: an ' +
  '`AgentOutput`, see components) for each model or tool event; `message` (data: a ConversationMessage, `id`: its ' +
  'seq) for each stored message; finally `done` (data: `{ success, error?, waiting? }`). Disconnecting does ' +
  'not stop the turn: use `POST …/abort`.' +
  TEXT_ONCE_DESCRIPTION;

// A turn's answer: its result as JSON, or its events as they happen.
export const TURN_ENDED = {
  description: 'The turn ended (successfully or with a stored failure)',
  content: {
    'application/json': { schema: TurnResultSchema },
    'text/event-stream': { schema: z.string().openapi({ description: TURN_EVENTS_DESCRIPTION }) },
  },
};
