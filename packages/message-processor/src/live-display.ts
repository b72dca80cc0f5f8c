import { type ConversationMessage, contentText } from '@cairn/core';

/**
 * Joins the two display streams of a running agent into one a UI can follow: the live messages
 * the processor shows when a call starts (`onLiveDisplayMessage`: the text so far, the call as
 * `running`) and the display view of the log, which comes once the call's result is in. A text or
 * reasoning part the log view repeats unchanged is not passed on again; anything else with an id
 * shown live (the finished `tool_execution`, a text that grew) is passed on and replaces the live
 * one, as `DisplayView` does.
 */
export class LiveDisplay {
  // The content each live text or reasoning part was shown with, until the log view's part of that
  // id comes. Executions are not kept: the log view's execution is always passed on.
  private readonly shownLive = new Map<string, string | null | undefined>();

  constructor(private readonly show: (message: ConversationMessage) => void) {}

  /** A live message (pass as `onLiveDisplayMessage`). */
  readonly live = (message: ConversationMessage): void => this.showLive(message);

  /** A message of the log's display view (pass as `onDisplayMessage`, or what a projector gives). */
  readonly logged = (message: ConversationMessage): void => this.showLogged(message);

  // The work is done in methods, which exist once: the two bound functions above are made per
  // display, and optimized code made for one display's functions would not serve the next one's.
  private showLive(message: ConversationMessage): void {
    if (message.partType !== 'tool_execution') this.shownLive.set(message.id, textOf(message.content));
    this.show(message);
  }

  private showLogged(message: ConversationMessage): void {
    // Most messages were not shown live: one lookup, none while nothing waits.
    if (this.shownLive.size > 0 && message.partType !== 'tool_execution') {
      const shown = this.shownLive.get(message.id);
      // A part shown without content (undefined) is in the map too.
      if (shown !== undefined || this.shownLive.has(message.id)) {
        this.shownLive.delete(message.id);
        if (message.content === shown) return;
      }
    }
    this.show(message);
  }
}

// A message's text as `contentText` gives it with placeholders; a string (the usual content) as is.
const textOf = (content: ConversationMessage['content']): string =>
  typeof content === 'string' ? content : contentText(content, { placeholders: true });
