import type { TokenUsage } from '@cairn/core';
import { formatCount, plural } from '../render/format-numbers.js';

/** Tokens and model calls added up over a CLI session, for `/usage`. */
export class UsageTotals {
  inputTokens = 0;
  outputTokens = 0;
  cachedInputTokens = 0;
  modelCalls = 0;
  turns = 0;
  last: TokenUsage | undefined;

  add(usage: TokenUsage, modelCalls: number): void {
    this.inputTokens += usage.inputTokens;
    this.outputTokens += usage.outputTokens;
    this.cachedInputTokens += usage.cacheReadTokens ?? 0;
    this.modelCalls += modelCalls;
    this.turns += 1;
    this.last = usage;
  }

  describe(): string {
    const n = formatCount;
    const lines = [
      `this session: ${n(this.turns)} ${plural(this.turns, 'turn')}, ${n(this.modelCalls)} model ${plural(this.modelCalls, 'call')}`,
      `  input ${n(this.inputTokens)} tokens (${n(this.cachedInputTokens)} from cache), output ${n(this.outputTokens)} tokens`,
    ];
    if (this.last !== undefined) {
      lines.push(`last turn: input ${n(this.last.inputTokens)}, output ${n(this.last.outputTokens)} tokens`);
    }
    return `${lines.join('\n')}\n`;
  }
}
