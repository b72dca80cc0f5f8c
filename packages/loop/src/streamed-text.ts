import type { AgentOutput } from '@cairn/core';

/**
 * The answer text a model stream has shown so far: its text blocks in order, each from its
 * `text_delta`s until the block's closing `text` event repeats it whole. Joined as adapters join
 * blocks into `content`, so a cut-off answer reads as the whole one would have started.
 */
export class StreamedText {
  private readonly blocks = new Map<string, string>();

  add(event: AgentOutput): void {
    if (event.type === 'text_delta')
      this.blocks.set(event.id, (this.blocks.get(event.id) ?? '') + event.delta);
    else if (event.type === 'text') this.blocks.set(event.id, event.text);
  }

  get text(): string {
    return [...this.blocks.values()].join('');
  }
}
