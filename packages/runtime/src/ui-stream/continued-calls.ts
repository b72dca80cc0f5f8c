import { definedFields } from '@cairn/core';
import type { UIMessageChunk } from './ui-message-chunk.js';

/** A call of the message a stream continues, as it stands. */
export interface ContinuedCall {
  toolCallId: string;
  toolName: string;
  input: unknown;
  /** The approval the client answered (a refused one makes the call's result a denial). */
  approval?: { id: string; approved: boolean; reason?: string };
}

/**
 * A continued call as chunks: sent first, they rebuild it for a reader that replays the stream from
 * its first chunk (a reloaded page resuming, `resumeStreamIsReplay`), and leave it as it was for the
 * client that sent it.
 */
export function continuedCallChunks(call: ContinuedCall): UIMessageChunk[] {
  const { toolCallId, toolName, input, approval } = call;
  const chunks: UIMessageChunk[] = [
    { type: 'tool-input-available', toolCallId, toolName, input, dynamic: true },
  ];
  if (approval === undefined) return chunks;
  return [
    ...chunks,
    { type: 'tool-approval-request', approvalId: approval.id, toolCallId },
    {
      type: 'tool-approval-response',
      approvalId: approval.id,
      approved: approval.approved,
      ...definedFields({ reason: approval.reason }),
    },
  ];
}
