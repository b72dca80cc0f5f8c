import type { ConversationMessage } from '@cairn/core';

/**
 * Joins the two display streams of a running agent into one a UI can follow: the live messages
 * the processor shows when a call starts (`onLiveDisplayMessage`: the text so far, the call as
 * `running`) and the display view of the log, which comes once the call's result is in. A text or
 * reasoning part the log view repeats unchanged is not passed on again; anything else with an id
 * shown live (the finished `tool_execution`, a text that grew) is passed on and replaces the live
 * one, as `DisplayView` does.
 */
export class LiveDisplay {
  // The content each live message was shown with, until the log view's message of that id comes.
  private readonly shownLive = new Map<string, string | null | undefined>();

  constructor(private readonly show: (message: ConversationMessage) => void) {}

  /** A live message (pass as `onLiveDisplayMessage`). */
  readonly live = (message: ConversationMessage): void => {
    this.shownLive.set(message.id, message.content);
    this.show(message);
  };

  /** A message of the log's display view (pass as `onDisplayMessage`, or what a projector gives). */
  readonly logged = (message: ConversationMessage): void => {
    if (this.shownLive.has(message.id)) {
      const content = this.shownLive.get(message.id);
      this.shownLive.delete(message.id);
      if (message.partType !== 'tool_execution' && message.content === content) return;
    }
    this.show(message);
  };
}
