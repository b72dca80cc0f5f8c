import type { AgentOutput } from '@cairn/core';

/**
 * The assistant text block being streamed. Gemini CLI sends only `delta: true` chunks and never
 * the whole text, so the block is closed here, repeating its full text as `AgentOutput` requires.
 */
export class GeminiCliTextBlock {
  private id: string | undefined;
  private text = '';
  private lastTimestamp = '';
  private count = 0;

  /** The `text_delta` of one chunk; opens a block when none is open. */
  append(delta: string, timestamp: string): AgentOutput {
    if (this.id === undefined) {
      this.count += 1;
      this.id = `text-${this.count}`;
      this.text = '';
    }
    this.text += delta;
    this.lastTimestamp = timestamp;
    return { type: 'text_delta', timestamp, id: this.id, delta };
  }

  /**
   * The closing `text` event, or nothing when no block is open. It takes its last chunk's time,
   * so the events do not depend on what line happened to close the block.
   */
  close(): AgentOutput[] {
    if (this.id === undefined) return [];
    const closing: AgentOutput = {
      type: 'text',
      timestamp: this.lastTimestamp,
      id: this.id,
      text: this.text,
    };
    this.id = undefined;
    return [closing];
  }
}
