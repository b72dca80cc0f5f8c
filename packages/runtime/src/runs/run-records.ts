import {
  CairnError,
  type ConversationMessage,
  contentText,
  definedFields,
  validationIssues,
} from '@cairn/core';
import type { z } from 'zod';
import {
  type RunState,
  RunStateSchema,
  type RunWorkflowRecord,
  RunWorkflowRecordSchema,
} from './run-state.js';

/** `partType` of the record holding a run's state (one per change; the last one is current). */
export const RUN_STATE_PART_TYPE = 'run_state';
/** `partType` of the record holding the workflow a run follows (its conversation's first message). */
export const RUN_WORKFLOW_PART_TYPE = 'run_workflow';

interface RecordFields {
  id: string;
  createdAt: string;
}

// A hidden system message of the run: in the log beside the turns (so it is written, ordered and
// kept exactly like them), never sent to a model (`includeInContext: false`).
function runRecord(
  partType: string,
  runId: string,
  content: unknown,
  fields: RecordFields,
): ConversationMessage {
  return {
    id: fields.id,
    role: 'system',
    createdAt: fields.createdAt,
    content: JSON.stringify(content),
    partType,
    includeInContext: false,
    mode: 'run',
    runId,
  };
}

/** The log record of a run state. */
export function runStateMessage(state: RunState, fields: RecordFields): ConversationMessage {
  return runRecord(RUN_STATE_PART_TYPE, state.runId, state, fields);
}

/** The log record of the workflow a run follows. */
export function runWorkflowMessage(
  runId: string,
  record: RunWorkflowRecord,
  fields: RecordFields,
): ConversationMessage {
  return runRecord(RUN_WORKFLOW_PART_TYPE, runId, record, fields);
}

export function isRunStateMessage(message: ConversationMessage): boolean {
  return message.role === 'system' && message.partType === RUN_STATE_PART_TYPE;
}

export function isRunWorkflowMessage(message: ConversationMessage): boolean {
  return message.role === 'system' && message.partType === RUN_WORKFLOW_PART_TYPE;
}

function corrupt(
  message: ConversationMessage,
  what: string,
  problem: string,
  details: Record<string, unknown> = {},
) {
  return new CairnError(
    'STORE_CORRUPT',
    `The ${what} record ${message.id} of run ${message.runId ?? '?'} is unreadable: ${problem}`,
    {
      details: {
        messageId: message.id,
        ...definedFields({ seq: message.seq }),
        ...details,
      },
    },
  );
}

function parseRecord<T>(schema: z.ZodType<T>, message: ConversationMessage, what: string, runId: string): T {
  if (message.runId !== runId)
    throw corrupt(message, what, `it belongs to run ${message.runId ?? '(none)'}, not ${runId}`);
  let value: unknown;
  try {
    value = JSON.parse(contentText(message.content));
  } catch {
    throw corrupt(message, what, 'its content is not JSON');
  }
  const [first] = validationIssues(schema, value);
  if (first !== undefined) throw corrupt(message, what, `${first.path}: ${first.message}`, { issue: first });
  return schema.parse(value);
}

/** The state a `run_state` record holds, checked (`STORE_CORRUPT` naming the record and the field). */
export function parseRunStateMessage(message: ConversationMessage, runId: string): RunState {
  const state = parseRecord(RunStateSchema, message, 'run state', runId);
  if (state.runId !== runId) throw corrupt(message, 'run state', `it holds the state of run ${state.runId}`);
  return state;
}

/** The workflow a `run_workflow` record holds, checked (`STORE_CORRUPT` naming the record and the field). */
export function parseRunWorkflowMessage(message: ConversationMessage, runId: string): RunWorkflowRecord {
  return parseRecord(RunWorkflowRecordSchema, message, 'run workflow', runId);
}
