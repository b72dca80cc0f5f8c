import type { AgentRunResult } from '@cairn/agent-executor';
import type { Colors } from '../render/colors.js';
import { formatDuration } from '../render/format-duration.js';
import { formatCount } from '../render/format-numbers.js';
import type { AgentChoice } from './agent-clis.js';
import { shellArgument } from './shell-argument.js';

export interface AgentRunSummaryOptions {
  agent: AgentChoice;
  /** Set when the agent ran outside the caller's directory: a resume must run there too. */
  cwd?: string;
  colors: Colors;
}

const count = formatCount;

// "5 turns · 96,437 input / 270 output tokens · $0.4889 · 12.3s", of what the CLI reported.
function usageLine(result: AgentRunResult): string | undefined {
  const parts: string[] = [];
  if (result.turns !== undefined) parts.push(`${count(result.turns)} turn${result.turns === 1 ? '' : 's'}`);
  if (result.usage !== undefined) {
    const { inputTokens, outputTokens, cacheReadTokens } = result.usage;
    const cached = cacheReadTokens ? ` (${count(cacheReadTokens)} cached)` : '';
    parts.push(`${count(inputTokens)} input${cached} / ${count(outputTokens)} output tokens`);
  }
  if (result.costUsd !== undefined) parts.push(`$${result.costUsd.toFixed(4)}`);
  if (result.durationMs !== undefined) parts.push(formatDuration(result.durationMs));
  return parts.length === 0 ? undefined : parts.join(' · ');
}

/** The lines printed after a run: where it is stored, how to continue it, what it cost. */
export function agentRunSummary(result: AgentRunResult, options: AgentRunSummaryOptions): string {
  const { conversationId } = result;
  const cwd = options.cwd === undefined ? '' : ` --cwd ${shellArgument(options.cwd)}`;
  const lines = [
    `conversation ${conversationId}`,
    `continue with: cairn agent ${options.agent} --resume --conversation ${conversationId}${cwd} "…"`,
  ];
  const usage = usageLine(result);
  if (usage !== undefined) lines.push(usage);
  return lines.map((line) => `${options.colors.dim(line)}\n`).join('');
}
