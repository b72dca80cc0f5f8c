import {
  type ConversationMessage,
  contentText,
  DEFAULT_MAX_TOOL_RESULT_CHARS,
  type ModelMessage,
  toModelMessage,
  toolOutputForModel,
} from '@cairn/core';

/**
 * The text a recorded failure (`partType: 'error'`) is sent as: the model learns what went wrong,
 * so the user can say "continue" and it picks up from there.
 */
function describeFailure(message: ConversationMessage): string {
  const reason = contentText(message.content).trim();
  const code = message.errorCode === undefined ? '' : ` (${message.errorCode})`;
  return reason === ''
    ? `[The previous request failed${code}]`
    : `[The previous request failed: ${reason}${code}]`;
}

// Ends an answer that was cut off while it streamed: the failure's own note is not sent after it.
const CUT_OFF_NOTE = '[This reply was cut off here: the turn was interrupted before it was finished]';

/**
 * One log message as the model receives it: `toModelMessage` (UI fields stripped, replay data
 * kept), an assistant error as a note of the failure, an answer cut off mid-stream with a note
 * saying so, a tool output as `toolOutputForModel` bounds it (an offloaded one as its preview and
 * reference) — the text the loop sent in the turn that produced it.
 */
export function toContextMessage(
  message: ConversationMessage,
  maxToolResultChars = DEFAULT_MAX_TOOL_RESULT_CHARS,
): ModelMessage {
  const converted = toModelMessage(message);
  if (converted.role === 'assistant' && message.partType === 'error') {
    converted.content = describeFailure(message);
  } else if (converted.role === 'assistant' && message.interrupted) {
    converted.content = `${converted.content ?? ''}\n\n${CUT_OFF_NOTE}`;
  } else if (converted.role === 'tool') {
    converted.content = toolOutputForModel(message, maxToolResultChars);
  }
  return converted;
}
