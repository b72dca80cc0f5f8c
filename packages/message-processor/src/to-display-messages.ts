import { activeBranch, type ConversationMessage } from '@cairn/core';
import { createDisplayProjector, type DisplayOptions } from './create-display-projector.js';
import { DisplayView } from './display-view.js';

/**
 * The display view of a stored log: what the live processor showed for its active branch (what edits
 * and regenerations replaced is left out, see `activeBranch`), as a `DisplayView` holds it.
 */
export function toDisplayMessages(
  log: readonly ConversationMessage[],
  options?: DisplayOptions,
): ConversationMessage[] {
  const projector = createDisplayProjector(options);
  const view = new DisplayView();
  for (const message of activeBranch(log)) for (const shown of projector.push(message)) view.add(shown);
  for (const shown of projector.end()) view.add(shown);
  return view.messages;
}
