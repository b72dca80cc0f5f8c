import { CairnError, type ConversationMessage, type ConversationStore } from '@cairn/core';
import {
  isRunStateMessage,
  isRunWorkflowMessage,
  parseRunStateMessage,
  parseRunWorkflowMessage,
} from './run-records.js';
import { type RunState, type RunWorkflowRecord, runConversationId } from './run-state.js';

/** Messages read per page while looking for a run's record. */
export const DEFAULT_RUN_RECORD_PAGE_SIZE = 50;

export interface ReadRunRecordOptions {
  /** Messages per `load` (default 50); the reader pages on until it finds the record or the log ends. */
  pageSize?: number;
}

function pageSizeOf(options: ReadRunRecordOptions): number {
  const size = options.pageSize ?? DEFAULT_RUN_RECORD_PAGE_SIZE;
  if (!Number.isInteger(size) || size < 1) {
    throw new CairnError('INVALID_ARGUMENT', `pageSize must be a positive integer, got ${size}`);
  }
  return size;
}

// Pages through the log in one direction until `match` finds a message (or the log ends). The
// store gives each page in the direction asked, so the first match is the nearest to the start.
async function findRecord(
  store: ConversationStore,
  conversationId: string,
  direction: 'forward' | 'backward',
  pageSize: number,
  match: (message: ConversationMessage) => boolean,
): Promise<ConversationMessage | undefined> {
  let bound: number | undefined;
  for (;;) {
    const page = await store.load(conversationId, {
      direction,
      limit: pageSize,
      ...(bound === undefined ? {} : direction === 'backward' ? { toSeq: bound } : { fromSeq: bound }),
    });
    const found = page.find(match);
    if (found !== undefined || page.length < pageSize) return found;
    const edge = page[page.length - 1]?.seq;
    if (edge === undefined) return undefined;
    if (direction === 'backward') {
      if (edge <= 1) return undefined;
      bound = edge - 1;
    } else {
      bound = edge + 1;
    }
  }
}

/**
 * The current state of a run: its last `run_state` record, read backward from the end of the log
 * page by page (so a long run costs one small read). Undefined when the run does not exist;
 * `STORE_CORRUPT` when the record cannot be read; `INVALID_ID` for an unsafe run id.
 */
export async function readRunState(
  store: ConversationStore,
  runId: string,
  options: ReadRunRecordOptions = {},
): Promise<RunState | undefined> {
  const conversationId = runConversationId(runId);
  const record = await findRecord(store, conversationId, 'backward', pageSizeOf(options), isRunStateMessage);
  return record === undefined ? undefined : parseRunStateMessage(record, runId);
}

/** The workflow a run follows (the first `run_workflow` record of its log); undefined when none. */
export async function readRunWorkflow(
  store: ConversationStore,
  runId: string,
  options: ReadRunRecordOptions = {},
): Promise<RunWorkflowRecord | undefined> {
  const conversationId = runConversationId(runId);
  const record = await findRecord(
    store,
    conversationId,
    'forward',
    pageSizeOf(options),
    isRunWorkflowMessage,
  );
  return record === undefined ? undefined : parseRunWorkflowMessage(record, runId);
}

/** `readRunState`, with `STORE_NOT_FOUND` when the run does not exist. */
export async function loadRunState(
  store: ConversationStore,
  runId: string,
  options: ReadRunRecordOptions = {},
): Promise<RunState> {
  const state = await readRunState(store, runId, options);
  if (state === undefined) {
    throw new CairnError('STORE_NOT_FOUND', `There is no run ${JSON.stringify(runId)}`, {
      details: { runId },
    });
  }
  return state;
}
