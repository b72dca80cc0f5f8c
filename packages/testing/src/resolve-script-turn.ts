import type { TokenUsage } from '@cairn/core';
import type { ScriptFinish, ScriptTurn } from './script-turn.js';

/** A tool call with its id and JSON-string arguments settled. */
export interface ResolvedToolCall {
  id: string;
  name: string;
  arguments: string;
}

/** A script turn with every default applied, as the protocol writers consume it. */
export interface ResolvedScriptTurn {
  reasoning?: string;
  text?: string;
  toolCalls: ResolvedToolCall[];
  usage: TokenUsage;
  finish: ScriptFinish;
  chunkSize: number;
}

const DEFAULT_CHUNK_SIZE = 8;
const DEFAULT_INPUT_TOKENS = 12;

// A rough 4-characters-per-token estimate keeps default usage plausible and deterministic.
const estimateTokens = (text: string): number => Math.ceil(text.length / 4);

/**
 * Applies a turn's defaults. `makeId(i)` names tool call `i` when the script gives no id, so each
 * caller can use its provider's id style (`call_…`, `toolu_…`).
 */
export function resolveScriptTurn(turn: ScriptTurn, makeId: (index: number) => string): ResolvedScriptTurn {
  const toolCalls = (turn.toolCalls ?? []).map((call, index) => ({
    id: call.id ?? makeId(index),
    name: call.name,
    arguments: typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments),
  }));
  const reasoningTokens = turn.reasoning ? estimateTokens(turn.reasoning) : undefined;
  const produced = (turn.text ?? '') + toolCalls.map((call) => call.name + call.arguments).join('');
  const inputTokens = turn.usage?.inputTokens ?? DEFAULT_INPUT_TOKENS;
  const outputTokens =
    turn.usage?.outputTokens ?? Math.max(1, estimateTokens(produced) + (reasoningTokens ?? 0));
  const usage: TokenUsage = {
    ...turn.usage,
    inputTokens,
    outputTokens,
    totalTokens: turn.usage?.totalTokens ?? inputTokens + outputTokens,
  };
  // Reasoning tokens are part of the output tokens (core's TokenUsage rule), so never more.
  if (usage.reasoningTokens === undefined && reasoningTokens !== undefined) {
    usage.reasoningTokens = Math.min(reasoningTokens, outputTokens);
  }
  const resolved: ResolvedScriptTurn = {
    toolCalls,
    usage,
    finish: turn.finish ?? (toolCalls.length > 0 ? 'tool_calls' : 'stop'),
    chunkSize: Math.max(1, turn.chunkSize ?? DEFAULT_CHUNK_SIZE),
  };
  if (turn.reasoning) resolved.reasoning = turn.reasoning;
  if (turn.text) resolved.text = turn.text;
  return resolved;
}

/**
 * Splits `text` into pieces of `size` code points: never inside a surrogate pair (so every piece
 * is valid JSON text), but freely between a base character and its combining marks, as real
 * tokenisers do.
 */
export function chunkString(text: string, size: number): string[] {
  const codePoints = Array.from(text);
  const chunks: string[] = [];
  for (let start = 0; start < codePoints.length; start += size) {
    chunks.push(codePoints.slice(start, start + size).join(''));
  }
  return chunks;
}

/**
 * The arguments as the object that JSON-response APIs (Anthropic `input`, Gemini `args`) carry;
 * a script's deliberately invalid JSON string is passed on as the string itself.
 */
export function argumentsValue(call: ResolvedToolCall): unknown {
  try {
    return JSON.parse(call.arguments) as unknown;
  } catch {
    return call.arguments;
  }
}
