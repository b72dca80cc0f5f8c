import { definedFields, isSafeId, SAFE_ID_PATTERN, TokenUsageSchema } from '@cairn/core';
import type { RunState } from '@cairn/runtime';
import { z } from '@hono/zod-openapi';
import { CairnErrorJsonSchema, ConversationMessageSchema, limitQuerySchema } from '../http/api-schemas.js';
import { ApprovalSchema } from './turn-schemas.js';

/** A run's conversation is `run-<runId>`, which must itself be a safe id (128 characters at most). */
const MAX_RUN_ID_LENGTH = 124;

/** A run id: a safe id short enough for its conversation id (`assertRunId` of the runtime). */
export const RunIdSchema = z
  .string()
  .max(MAX_RUN_ID_LENGTH)
  .regex(SAFE_ID_PATTERN)
  .refine(isSafeId, 'must not start with a dot')
  .openapi({ example: 'r-7f3a9e2b' });

/** `:id` of the run routes; a failure here is answered `INVALID_ID` (see the validation hook). */
export const RunParamsSchema = z.object({
  id: RunIdSchema.openapi({ param: { name: 'id', in: 'path' } }),
});

const userText = z
  .string()
  .min(1)
  .max(100_000)
  .refine((text) => text.trim() !== '', 'must not be blank');

export const StartRunBodySchema = z
  .object({
    workflow: z.string().min(1).max(300).openapi({
      description:
        'The workflow to run: `<package>/<workflow id>`, or the workflow id alone when only one package has it (see `GET /v1/workflows`)',
      example: 'article/review',
    }),
    input: userText.optional().openapi({
      description:
        "What the run is asked to do: its first user message (the runtime's kick-off text when absent)",
    }),
    runId: RunIdSchema.optional().openapi({ description: 'Generated (`r-<uuid>`) when absent' }),
  })
  .openapi('StartRunRequest');

export const ContinueRunBodySchema = z
  .object({
    content: userText.optional().openapi({
      description:
        'The user\'s reply. When absent, the run continues: a "Continue." message is stored unless the log already ends with something to answer',
    }),
  })
  .openapi('ContinueRunRequest');

/** Where a run stands, as clients see it (the runtime's `RunState` without its loop bookkeeping). */
export const RunSchema = z
  .object({
    runId: z.string(),
    conversationId: z
      .string()
      .openapi({ description: 'Holds the run: read it with `GET /v1/conversations/{id}/messages`' }),
    packageName: z.string(),
    workflowId: z.string(),
    workflowName: z.string(),
    status: z.enum(['active', 'completed']).openapi({
      description:
        '`completed` once the last step was completed; the run then answers follow-up questions only',
    }),
    currentNodeId: z
      .string()
      .openapi({ description: 'The step being worked on; once completed, the last step' }),
    stepsCompleted: z
      .array(z.string())
      .openapi({ description: 'Node ids, in the order their steps were completed' }),
    input: z.string().optional(),
    startedAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('Run');

export type PublicRun = z.infer<typeof RunSchema>;

/** A run's state as the API shows it. */
export function publicRun(state: RunState, conversationId: string): PublicRun {
  return {
    runId: state.runId,
    conversationId,
    packageName: state.packageName,
    workflowId: state.workflowId,
    workflowName: state.workflowName,
    status: state.status,
    currentNodeId: state.currentNodeId,
    stepsCompleted: state.stepsCompleted,
    ...definedFields({ input: state.input }),
    startedAt: state.startedAt,
    updatedAt: state.updatedAt,
  };
}

export const RunTurnResultSchema = z
  .object({
    runId: z.string(),
    conversationId: z.string(),
    run: RunSchema.openapi({ description: 'Where the run stands after the turn' }),
    success: z.boolean(),
    message: ConversationMessageSchema.optional().openapi({
      description: 'The last assistant message stored: the answer, or the error message on failure',
    }),
    error: CairnErrorJsonSchema.optional(),
    waiting: z.array(ApprovalSchema).optional().openapi({
      description:
        'The approval requests the turn stopped for: decide each with `POST /v1/conversations/run-{id}/approvals/{approvalId}`',
    }),
    usage: z.object({ turns: z.array(TokenUsageSchema), total: TokenUsageSchema }),
  })
  .openapi('RunTurnResult');

export const RunListQuerySchema = z.object({
  cursor: z.string().max(1024).optional(),
  limit: limitQuerySchema(100, 20),
});

export const RunPageSchema = z
  .object({
    runs: z.array(RunSchema),
    nextCursor: z.string().optional().openapi({
      description:
        'Pass as `cursor` for the next page; absent on the last. A page may hold fewer than `limit` runs (other conversations are skipped)',
    }),
  })
  .openapi('RunPage');

const WorkflowNodeSchema = z
  .object({ id: z.string(), name: z.string(), instruction: z.string() })
  .openapi('WorkflowNode');

const WorkflowEdgeSchema = z
  .object({
    from: z.string(),
    to: z.string(),
    label: z.string().optional(),
    default: z.boolean().optional(),
  })
  .openapi('WorkflowEdge');

const WorkflowDefinitionSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    entry: z.string(),
    nodes: z.array(WorkflowNodeSchema),
    edges: z.array(WorkflowEdgeSchema),
  })
  .openapi('WorkflowDefinition');

export const WorkflowListSchema = z
  .object({
    packages: z.array(
      z.object({ name: z.string(), workflows: z.array(WorkflowDefinitionSchema) }).openapi('WorkflowPackage'),
    ),
  })
  .openapi('WorkflowList');

export const RUN_TURN_EVENTS_DESCRIPTION =
  'Sent when the request has `Accept: text/event-stream`. Events: `agent_output` (data: an ' +
  '`AgentOutput`) for each model or tool event; `message` (data: a ConversationMessage, `id`: its seq) ' +
  "for each stored message, the run's own records included (`role: system`, `partType: run_state`, " +
  'its content the run state as JSON: the last one says where the run stands); finally `done` (data: ' +
  '`{ success, error? }`). Disconnecting does not stop the turn: use `POST /v1/runs/{id}/abort`.';
