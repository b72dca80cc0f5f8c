import { type ConversationMessage, fullOutputMarker, type ModelMessage, toModelMessage } from '@cairn/core';

/**
 * The text a recorded failure (`partType: 'error'`) is sent as: the model learns what went wrong,
 * so the user can say "continue" and it picks up from there.
 */
function describeFailure(message: ConversationMessage): string {
  const reason = message.content?.trim() ?? '';
  const code = message.errorCode === undefined ? '' : ` (${message.errorCode})`;
  return reason === ''
    ? `[The previous request failed${code}]`
    : `[The previous request failed: ${reason}${code}]`;
}

// Ends an answer that was cut off while it streamed: the failure's own note is not sent after it.
const CUT_OFF_NOTE = '[This reply was cut off here: the turn was interrupted before it was finished]';

/** An offloaded output's stored preview, with the reference of the full output in it. */
function withFullOutputMarker(preview: string, ref: string): string {
  const marker = fullOutputMarker(ref);
  return preview.includes(marker.trim()) ? preview : preview + marker;
}

/**
 * One log message as the model receives it: `toModelMessage` (UI fields stripped, replay data
 * kept), an assistant error as a note of the failure, an answer cut off mid-stream with a note
 * saying so, an offloaded tool output as its preview and reference.
 */
export function toContextMessage(message: ConversationMessage): ModelMessage {
  const converted = toModelMessage(message);
  if (converted.role === 'assistant' && message.partType === 'error') {
    converted.content = describeFailure(message);
  } else if (converted.role === 'assistant' && message.interrupted) {
    converted.content = `${converted.content ?? ''}\n\n${CUT_OFF_NOTE}`;
  } else if (converted.role === 'tool' && message.fullOutputPath !== undefined) {
    converted.content = withFullOutputMarker(converted.content, message.fullOutputPath);
  }
  return converted;
}
