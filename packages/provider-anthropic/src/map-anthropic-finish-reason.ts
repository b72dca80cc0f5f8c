import type { FinishReason } from '@cairn/core';

const FINISH_REASONS: Readonly<Record<string, FinishReason>> = {
  end_turn: 'stop',
  stop_sequence: 'stop',
  max_tokens: 'length',
  // The reply filled the context window: cut short like max_tokens.
  model_context_window_exceeded: 'length',
  tool_use: 'tool_calls',
  refusal: 'content_filter',
  // A server tool loop paused a long turn; the caller must send the reply back to continue it.
  pause_turn: 'other',
};

/** Anthropic's `stop_reason` as Cairn's unified reason, the raw value kept beside it. */
export function mapAnthropicFinishReason(stopReason: string | null | undefined): {
  finishReason: FinishReason;
  rawFinishReason?: string;
} {
  if (stopReason === null || stopReason === undefined) return { finishReason: 'other' };
  const finishReason = Object.hasOwn(FINISH_REASONS, stopReason) ? FINISH_REASONS[stopReason] : undefined;
  return { finishReason: finishReason ?? 'other', rawFinishReason: stopReason };
}

/** `tool_calls` becomes `stop` when the only tool called was the structured-output tool: that call is the answer. */
export function outputAnswered(
  finishReason: FinishReason,
  outputTool: string | undefined,
  otherToolCalls: boolean,
): FinishReason {
  return finishReason === 'tool_calls' && outputTool !== undefined && !otherToolCalls ? 'stop' : finishReason;
}
