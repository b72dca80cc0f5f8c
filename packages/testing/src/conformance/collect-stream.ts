import type { AgentOutput, ModelResult, ModelStream } from '@cairn/core';

export interface CollectedStream {
  events: AgentOutput[];
  result?: ModelResult;
  /** Why `result` rejected. */
  error?: unknown;
}

/** Reads a stream to its end (iterating must never throw), then settles its `result`. */
export async function collectStream(
  stream: ModelStream,
  onEvent?: (event: AgentOutput) => void,
): Promise<CollectedStream> {
  const events: AgentOutput[] = [];
  for await (const event of stream) {
    events.push(event);
    onEvent?.(event);
  }
  try {
    return { events, result: await stream.result };
  } catch (error) {
    return { events, error };
  }
}
