import type { ConversationMessage } from '@cairn/core';
import { createDisplayProjector, DisplayView } from '@cairn/message-processor';

/** A message of the view that a feed must send again, unchanged, if it is the same conversation. */
export interface FeedAnchor {
  seq: number;
  /** The ids of its display messages. */
  ids: ReadonlySet<string>;
}

/**
 * Whether `message`, a log message, is the one `anchor` was made from: display ids are made from the
 * log message's id, and ids are never reused, so a re-created conversation's message at that seq differs.
 */
export function isAnchor(anchor: FeedAnchor, message: ConversationMessage): boolean {
  if (message.seq !== anchor.seq) return false;
  return createDisplayProjector()
    .push(message)
    .some((shown) => anchor.ids.has(shown.id));
}

/**
 * The display view of an open conversation, kept live: it starts from the server's display view
 * and projects each stored message that arrives afterwards with the same projector the server
 * uses, so a live conversation looks exactly like a reloaded one.
 */
export class LiveDisplay {
  private view = new DisplayView();
  private projector = createDisplayProjector();
  private seq: number;
  /** A tool result arrived whose call came before the page loaded: only the server can merge it. */
  needsReload = false;

  constructor(initial: readonly ConversationMessage[]) {
    for (const message of initial) this.view.add(message);
    this.seq = initial.reduce((last, message) => Math.max(last, message.seq ?? 0), 0);
  }

  /** The last seq shown: where a live feed resumes. */
  get lastSeq(): number {
    return this.seq;
  }

  /** Adds a stored log message; returns the display messages it added (none for one seen before). */
  push(message: ConversationMessage): ConversationMessage[] {
    if (message.seq !== undefined) {
      // The turn's stream and the live feed may both deliver a message.
      if (message.seq <= this.seq) return [];
      this.seq = message.seq;
    }
    if (message.branchFrom !== undefined) this.cutFrom(message.branchFrom);
    const shown = this.projector.push(message);
    for (const display of shown) {
      if (display.role === 'tool') this.needsReload = true;
      this.view.add(display);
    }
    return shown;
  }

  /**
   * The last stored message the view shows as itself (not merged into a tool execution), to check a
   * feed against: its seq, and the display ids it was shown as. Undefined when there is none.
   */
  anchor(): FeedAnchor | undefined {
    let seq: number | undefined;
    const ids = new Set<string>();
    for (const message of this.view.messages) {
      if (message.partType === 'tool_execution' || message.seq === undefined) continue;
      if (seq !== undefined && message.seq < seq) continue;
      if (message.seq !== seq) ids.clear();
      seq = message.seq;
      ids.add(message.id);
    }
    return seq === undefined ? undefined : { seq, ids };
  }

  /**
   * An edit or a regeneration replaces the message at `seq` and what followed it on the path the view
   * shows: those leave the view, and the branch's messages follow what came before.
   */
  private cutFrom(seq: number): void {
    const kept = this.view.messages.filter((message) => message.seq !== undefined && message.seq < seq);
    this.view = new DisplayView();
    this.projector = createDisplayProjector();
    for (const message of kept) this.view.add(message);
  }

  /** A new array each time, so a render sees the change. */
  messages(): ConversationMessage[] {
    return [...this.view.messages];
  }
}
