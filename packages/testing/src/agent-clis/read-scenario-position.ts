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
    isRecord(block) && typeof block.text === 'string' && (block.type === undefined || block.type === 'text')
      ? [block.text]
      : [],
  );
}

/**
 * Reads a Messages API (`messages`, role `assistant`) or Gemini (`contents`, role `model`) request
 * body: the last `[scenario:NAME]` marker in a user text picks the script, the model messages after
 * that user message give the turn. `undefined` when no user text carries a marker.
 */
export function readScenarioPosition(body: unknown): ScenarioPosition | undefined {
  if (!isRecord(body)) return undefined;
  const list = Array.isArray(body.messages)
    ? body.messages
    : Array.isArray(body.contents)
      ? body.contents
      : [];
  const messages = list.filter(isRecord);
  for (let index = messages.length - 1; index >= 0; index -= 1) {
    const message = messages[index] as Record<string, unknown>;
    if (message.role !== 'user') continue;
    const markers = userTexts(message).flatMap((text) => [...text.matchAll(MARKER)].map((match) => match[1]));
    const scenario = markers.at(-1);
    if (scenario === undefined) continue;
    const turn = messages
      .slice(index + 1)
      .filter((later) => later.role === 'assistant' || later.role === 'model').length;
    return { scenario, turn, messageCount: messages.length };
  }
  return undefined;
}
