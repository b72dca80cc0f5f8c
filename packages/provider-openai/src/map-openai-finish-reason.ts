import type { FinishReason } from '@cairn/core';

/** A finish reason unified for core, with the provider's own value beside it. */
export interface MappedFinishReason {
  reason: FinishReason;
  rawReason?: string;
}

/**
 * Maps Chat Completions' `finish_reason`; the legacy `function_call` is a tool call. Whether the
 * message really carries tool calls (OpenAI says `stop` after a forced `tool_choice`) is settled
 * by provider-utils' result assembler, the same for every provider.
 */
export function mapOpenAIFinishReason(finishReason: string | null | undefined): MappedFinishReason {
  const reason = unified(finishReason);
  return finishReason == null ? { reason } : { reason, rawReason: finishReason };
}

function unified(finishReason: string | null | undefined): FinishReason {
  switch (finishReason) {
    case 'stop':
      return 'stop';
    case 'length':
      return 'length';
    case 'tool_calls':
    case 'function_call':
      return 'tool_calls';
    case 'content_filter':
      return 'content_filter';
    default:
      // A compatible server's own value (`eos`, `abort`), or none at all.
      return 'other';
  }
}
