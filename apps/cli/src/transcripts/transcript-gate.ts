import type { ConversationMessage } from '@cairn/core';
import { isSkippedLineMessage } from './skipped-lines.js';

/**
 * Holds log messages back until the input has shown it is a transcript, then passes them all on,
 * in order. A converted message other than an error shows it at once. Errors alone show it only
 * for a session that started (a run that failed): the other CLI's output can make an error of a
 * line that only looks like one of this CLI's. Input that is not a transcript writes nothing.
 */
export class TranscriptGate {
  opened = false;
  private readonly held: ConversationMessage[] = [];

  constructor(private readonly emit: (message: ConversationMessage) => void) {}

  /** How many messages wait: the caller bounds it. */
  get heldCount(): number {
    return this.held.length;
  }

  readonly push = (message: ConversationMessage): void => {
    if (this.opened) {
      this.emit(message);
      return;
    }
    this.held.push(message);
    if (message.partType !== 'error') this.open();
  };

  /** The input has ended: errors of a session that started are its transcript (a failed run). */
  end(sessionStarted: boolean): void {
    if (this.opened || !sessionStarted) return;
    if (this.held.some((message) => !isSkippedLineMessage(message))) this.open();
  }

  private open(): void {
    this.opened = true;
    for (const message of this.held.splice(0)) this.emit(message);
  }
}
