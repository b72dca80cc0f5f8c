import type { ConversationMessage } from '@cairn/core';
import { createDisplayProjector, type DisplayOptions } from './create-display-projector.js';

/** The display view of a stored log: the same messages the live processor showed for it. */
export function toDisplayMessages(
  log: readonly ConversationMessage[],
  options?: DisplayOptions,
): ConversationMessage[] {
  const projector = createDisplayProjector(options);
  const shown: ConversationMessage[] = [];
  for (const message of log) shown.push(...projector.push(message));
  shown.push(...projector.end());
  return shown;
}
