import { isRecord } from '../is-record.js';

/** Where a request stands in a scenario: which script, and how many model turns it already holds. */
export interface ScenarioPosition {
  scenario: string;
  /** Assistant/model messages after the user message carrying the marker. */
  turn: number;
  /** All messages (Claude) or contents (Gemini) of the request. */
  messageCount: number;
}

const MARKER = /\[scenario:([\w-]+)\]/g;

/** The user-typed texts of one message: strings and text blocks/parts, never tool results. */
function userTexts(message: Record<string, unknown>): string[] {
  const { content, parts } = message;
  if (typeof content === 'string') return [content];
  const blocks = Array.isArray(content) ? content : Array.isArray(parts) ? parts : [];
  return blocks.flatMap((block) =>
    isRecord(block) &&
    typeof block.text === 'string' &&
    (block.type === undefined || block.type === 'text' || block.type === 'input_text')
      ? [block.text]
      : [],
  );
}

// What the model produced, among a Responses API request's input items.
const isModelItem = (item: Record<string, unknown>) =>
  item.role === 'assistant' ||
  item.type === 'reasoning' ||
  item.type === 'function_call' ||
  item.type === 'custom_tool_call';

/** Model turns among Responses input items: each unbroken run of model items is one response. */
function responsesTurns(items: Record<string, unknown>[]): number {
  return items.filter(
    (item, index) => isModelItem(item) && !(index > 0 && isModelItem(items[index - 1] ?? {})),
  ).length;
}

/**
 * Reads a Messages API or Chat Completions (`messages`, role `assistant`), Gemini (`contents`, role
 * `model`) or Responses API (`input`: a model turn is its run of reasoning, message and call items)
 * request body: the last `[scenario:NAME]` marker in a user text picks the script, the model messages after
 * that user message give the turn. `undefined` when no user text carries a marker.
 */
export function readScenarioPosition(body: unknown): ScenarioPosition | undefined {
  if (!isRecord(body)) return undefined;
  const responses = Array.isArray(body.input);
  const list = Array.isArray(body.messages)
    ? body.messages
    : Array.isArray(body.contents)
      ? body.contents
      : responses
        ? (body.input as unknown[])
        : [];
  const messages = list.filter(isRecord);
  for (let index = messages.length - 1; index >= 0; index -= 1) {
    const message = messages[index] as Record<string, unknown>;
    if (message.role !== 'user') continue;
    const markers = userTexts(message).flatMap((text) => [...text.matchAll(MARKER)].map((match) => match[1]));
    const scenario = markers.at(-1);
    if (scenario === undefined) continue;
    const later = messages.slice(index + 1);
    const turn = responses
      ? responsesTurns(later)
      : later.filter((message) => message.role === 'assistant' || message.role === 'model').length;
    return { scenario, turn, messageCount: messages.length };
  }
  return undefined;
}
