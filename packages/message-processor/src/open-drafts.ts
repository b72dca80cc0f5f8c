import type { AgentOutput } from '@cairn/core';
import { AssistantMessageDraft } from './assistant-message-draft.js';

/** Who gets each message the drafts close. */
export interface DraftCloser {
  closeDraft(draft: AssistantMessageDraft): void;
}

/**
 * The assistant messages being assembled, one per thread: the main agent's, and one per running
 * sub-agent (events with a `parentToolUseId`), so parallel sub-agents never cut each other's
 * messages apart. Within a thread, a new `messageId` starts a new message.
 */
export class OpenDrafts {
  private readonly drafts = new Map<string | undefined, AssistantMessageDraft>();

  constructor(private readonly closer: DraftCloser) {}

  /** The draft `event` adds to, closing its thread's previous message when this is another. */
  for(event: AgentOutput): AssistantMessageDraft {
    const thread = event.parentToolUseId;
    const open = this.drafts.get(thread);
    if (open !== undefined && open.messageId === event.messageId) return open;
    if (open !== undefined) this.close(thread);
    const draft = new AssistantMessageDraft(event);
    this.drafts.set(thread, draft);
    return draft;
  }

  /**
   * Closes the message of one thread. For a sub-agent's thread, the message holding the call that
   * started it is closed first, even when the thread has none open: what the sub-agent says (its
   * prompt, its messages) comes after that call in the log.
   */
  close(thread: string | undefined): void {
    const draft = this.drafts.get(thread);
    if (draft !== undefined) this.drafts.delete(thread);
    if (thread !== undefined) this.closeHolding(thread);
    if (draft !== undefined) this.closer.closeDraft(draft);
  }

  /** Closes whichever open message holds call `id` (its result must follow it in the log). */
  closeHolding(id: string): void {
    // A draft's thread is its `parentToolUseId` (see `for`).
    for (const draft of this.drafts.values()) if (draft.hasCall(id)) this.close(draft.parentToolUseId);
  }

  closeAll(): void {
    for (const thread of [...this.drafts.keys()]) this.close(thread);
  }
}
