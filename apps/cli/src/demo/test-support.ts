import type { ScriptTurn } from '@cairn/testing';
import { demoTurn } from './demo-script.js';

export const TOUR_TOOLS = ['read_file', 'edit_file', 'list_dir', 'run_command'] as const;

/** A Chat Completions request body offering `tools` (by name). */
export function requestBody(
  messages: unknown[],
  tools: readonly string[] = TOUR_TOOLS,
): Record<string, unknown> {
  return {
    model: 'cairn-demo',
    messages,
    tools: tools.map((name) => ({ type: 'function', function: { name, parameters: { type: 'object' } } })),
  };
}

/**
 * Plays the demo from one user message, answering its tool calls with `results` in order (as the
 * tool host would), and returns every turn: the calls made, then the answer without one.
 */
export function playDemo(
  results: readonly string[],
  options: { tools?: readonly string[]; before?: unknown[] } = {},
): { turns: ScriptTurn[]; messages: unknown[] } {
  const messages: unknown[] = [...(options.before ?? []), { role: 'user', content: 'Show me around.' }];
  const turns: ScriptTurn[] = [];
  for (let index = 0; index <= results.length; index++) {
    const turn = demoTurn(requestBody(messages, options.tools));
    turns.push(turn);
    const call = turn.toolCalls?.[0];
    const result = results[index];
    if (call === undefined || result === undefined) break;
    messages.push({
      role: 'assistant',
      content: turn.text ?? null,
      tool_calls: [
        {
          id: call.id,
          type: 'function',
          function: { name: call.name, arguments: JSON.stringify(call.arguments) },
        },
      ],
    });
    messages.push({ role: 'tool', tool_call_id: call.id, content: result });
  }
  return { turns, messages };
}
