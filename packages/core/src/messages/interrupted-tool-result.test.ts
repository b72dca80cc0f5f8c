import { describe, expect, it } from 'vitest';
import { isValidConversationMessage } from './conversation-message.js';
import { createInterruptedToolResult, INTERRUPTED_TOOL_RESULT_TEXT } from './interrupted-tool-result.js';
import { toOpenAIMessage } from './to-openai-message.js';

const createdAt = '2026-11-22T10:00:00.000Z';

describe('createInterruptedToolResult', () => {
  it('answers the call with a valid tool message marked interrupted', () => {
    const message = createInterruptedToolResult({
      id: 'r1',
      toolCallId: 'call_1',
      toolName: 'Bash',
      createdAt,
      reason: 'the agent exited',
    });
    expect(isValidConversationMessage(message)).toBe(true);
    expect(message).toMatchObject({ role: 'tool', tool_call_id: 'call_1', isError: true, interrupted: true });
    expect(message.content).toBe(`${INTERRUPTED_TOOL_RESULT_TEXT} (the agent exited)`);
  });

  it('reaches a model as a plain tool result, without the marker', () => {
    const message = createInterruptedToolResult({ id: 'r1', toolCallId: 'call_1', createdAt });
    expect(message.toolName).toBeUndefined();
    expect(toOpenAIMessage(message)).toEqual({
      role: 'tool',
      tool_call_id: 'call_1',
      content: INTERRUPTED_TOOL_RESULT_TEXT,
    });
  });
});
