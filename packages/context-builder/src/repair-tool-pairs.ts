import { INTERRUPTED_TOOL_RESULT_TEXT, type ModelMessage, type ModelToolMessage } from '@cairn/core';

/** What `repairToolPairs` made of a message list. */
export interface ToolPairRepair {
  /** The messages, every call answered right after its message. */
  messages: ModelMessage[];
  /** For each of `messages`, the index in the input it came from; undefined for an added result. */
  sourceIndexes: (number | undefined)[];
  /** Interrupted results added for calls without one. */
  repaired: number;
  /** Tool results dropped: no call waiting for them, or a second result for the same call. */
  dropped: number;
}

/** The result sent for a call whose result is missing. */
function interruptedResult(toolCallId: string): ModelToolMessage {
  return { role: 'tool', tool_call_id: toolCallId, content: INTERRUPTED_TOOL_RESULT_TEXT, isError: true };
}

/** An assistant message whose calls are waiting for results, and what came after it meanwhile. */
interface OpenCalls {
  callIds: string[];
  /** Calls not answered yet. */
  waiting: Set<string>;
  /** call id → input index of its result. */
  results: Map<string, number>;
  /** Input indexes of the other messages after the call message, to send after its results. */
  after: number[];
}

/**
 * Makes `messages` follow the tool-call protocol every provider enforces, whatever was cut out
 * before (hidden messages, a compacted range, a crash between a call and its result):
 * - the results of an assistant message's calls are moved to right after it, in call order, when
 *   other messages (a user message, a note) sit between;
 * - a call without a result gets an interrupted one (`INTERRUPTED_TOOL_RESULT_TEXT`, `isError`);
 * - a result is dropped when no call is waiting for it: its call is gone, belongs to an earlier
 *   assistant message than the latest one with calls (that message was written without it), or
 *   was answered already.
 * Each id is checked on its own. One pass, linear in the messages. Role rules beyond the
 * protocol (alternation, where system text goes) are left to the adapters.
 */
export function repairToolPairs(messages: readonly ModelMessage[]): ToolPairRepair {
  const repair: ToolPairRepair = { messages: [], sourceIndexes: [], repaired: 0, dropped: 0 };
  const send = (index: number) => {
    repair.messages.push(messages[index] as ModelMessage);
    repair.sourceIndexes.push(index);
  };
  let open: OpenCalls | undefined;
  const close = () => {
    if (open === undefined) return;
    for (const id of open.callIds) {
      const result = open.results.get(id);
      if (result !== undefined) {
        send(result);
        continue;
      }
      repair.messages.push(interruptedResult(id));
      repair.sourceIndexes.push(undefined);
      repair.repaired++;
    }
    for (const index of open.after) send(index);
    open = undefined;
  };

  messages.forEach((message, index) => {
    if (message.role === 'tool') {
      if (open?.waiting.delete(message.tool_call_id)) open.results.set(message.tool_call_id, index);
      else repair.dropped++;
    } else if (
      message.role === 'assistant' &&
      message.tool_calls !== undefined &&
      message.tool_calls.length > 0
    ) {
      close();
      send(index);
      const callIds = message.tool_calls.map((call) => call.id);
      open = { callIds, waiting: new Set(callIds), results: new Map(), after: [] };
    } else if (open !== undefined) {
      open.after.push(index);
    } else {
      send(index);
    }
  });
  close();
  return repair;
}
