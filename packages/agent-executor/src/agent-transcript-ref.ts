import { assertSafeRef } from '@cairn/core';

/** Where the raw stdout of a run is kept in the store's blobs. */
export function agentTranscriptRef(conversationId: string, runId: string): string {
  const ref = `agent-transcripts/${conversationId}/${runId}.jsonl`;
  assertSafeRef('transcript ref', ref);
  return ref;
}
