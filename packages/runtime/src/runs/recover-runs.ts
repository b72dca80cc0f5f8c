import { CairnError, type ConversationStore, definedFields } from '@cairn/core';
import { owesAnswer } from '../something-to-answer.js';
import { runConversationId } from './run-state.js';
import type { RunApi, RunRecoverParams, RunResult } from './run-types.js';

/** What `recoverRuns` needs of the run API it serves. */
export interface RunRecovery {
  store: ConversationStore;
  list: RunApi['list'];
  /**
   * Continues the run under its lease (on the runtime's queue), or undefined when, looked at again
   * under the lease, it owes nothing any more; `STORE_CONFLICT` when another live process holds it.
   */
  takeOver(runId: string, params: RunRecoverParams): Promise<RunResult | undefined>;
}

/**
 * `runs.recover`: every run whose log owes an answer (a process left it mid-turn) is offered to
 * `takeOver`; a run another live process holds is passed by. Nothing on a store without leases: two
 * processes could both take a run over there.
 */
export async function recoverRuns(recovery: RunRecovery, params: RunRecoverParams): Promise<RunResult[]> {
  const { store } = recovery;
  const recovered: RunResult[] = [];
  if (store.leases === undefined) return recovered;
  let cursor: string | undefined;
  do {
    const page = await recovery.list({ limit: 100, ...definedFields({ cursor }) });
    for (const { runId } of page.runs) {
      if (params.signal?.aborted) return recovered;
      if (!(await owesAnswer(store, runConversationId(runId)))) continue;
      try {
        const result = await recovery.takeOver(runId, params);
        if (result !== undefined) recovered.push(result);
      } catch (error) {
        // Another live process works on it.
        if (!CairnError.is(error, 'STORE_CONFLICT')) throw error;
      }
    }
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  return recovered;
}
