// The shapes later packages must produce from the shared real transcripts, written out by hand
// with the transcripts' own values (Claude Code --include-partial-messages turn 1; Gemini API
// turn 1): they must be valid, survive JSON, and replay to the right provider only.
import { describe, expect, it } from 'vitest';
import {
  type AgentOutput,
  type ConversationMessage,
  isValidConversationMessage,
  parseAgentOutput,
  parseConversationMessage,
  toModelMessage,
  toOpenAIMessage,
} from '../src/index.js';

const timestamp = '2026-11-22T08:49:48.458Z';
const messageId = 'msg_01MockA3919580002xxxxxxx';
const toolUseId = 'toolu_01MockA3919560001xxxxxxx';
const writeInput = {
  file_path: '/home/dev/work-claude-partial/hello.txt',
  content: 'Hello, world!\nThis file was written by the mock model.\n',
};
const anthropicSignature = { anthropic: { signature: 'bW9jay1zaWduYXR1cmUtbm90LXJlYWw=' } };

describe('a Claude Code turn (thinking, text and a tool call sharing one message id, then its result)', () => {
  const events: AgentOutput[] = [
    {
      type: 'reasoning_delta',
      timestamp,
      id: `${messageId}:0`,
      delta: 'The user wants a file cr',
      messageId,
    },
    {
      type: 'reasoning',
      timestamp,
      id: `${messageId}:0`,
      text: 'The user wants a file created first; I will use the Write tool.',
      messageId,
      providerMetadata: anthropicSignature,
    },
    {
      type: 'text',
      timestamp,
      id: `${messageId}:1`,
      text: "I'll create hello.txt with a greeting.",
      messageId,
    },
    {
      type: 'tool_input_delta',
      timestamp,
      id: toolUseId,
      toolName: 'Write',
      delta: '{"file_path":',
      messageId,
    },
    { type: 'tool_use', timestamp, id: toolUseId, toolName: 'Write', input: writeInput, messageId },
    {
      type: 'tool_result',
      timestamp,
      toolUseId,
      toolName: 'Write',
      output: 'File created successfully at: /home/dev/work-claude-partial/hello.txt',
      isError: false,
      structured: {
        type: 'create',
        filePath: writeInput.file_path,
        content: writeInput.content,
        structuredPatch: [],
        originalFile: null,
      },
    },
  ];

  const log: ConversationMessage[] = [
    {
      id: messageId,
      role: 'assistant',
      content: "I'll create hello.txt with a greeting.",
      reasoning: [
        {
          text: 'The user wants a file created first; I will use the Write tool.',
          providerMetadata: anthropicSignature,
        },
      ],
      tool_calls: [
        {
          id: toolUseId,
          type: 'function',
          function: { name: 'Write', arguments: JSON.stringify(writeInput) },
        },
      ],
      createdAt: timestamp,
      mode: 'agent',
    },
    {
      id: `${toolUseId}-result`,
      role: 'tool',
      tool_call_id: toolUseId,
      toolName: 'Write',
      content: 'File created successfully at: /home/dev/work-claude-partial/hello.txt',
      isError: false,
      structuredResult: {
        type: 'create',
        filePath: writeInput.file_path,
        structuredPatch: [],
        originalFile: null,
      },
      createdAt: timestamp,
    },
  ];

  it('every event is a valid AgentOutput and survives JSON', () => {
    for (const event of events) expect(parseAgentOutput(JSON.parse(JSON.stringify(event)))).toEqual(event);
  });

  it('the log messages are valid and keep reasoning, signature and structured result through JSON', () => {
    for (const message of log)
      expect(parseConversationMessage(JSON.parse(JSON.stringify(message)))).toEqual(message);
  });

  it('the model message keeps the thinking signature for Anthropic; the OpenAI message drops it', () => {
    const [assistant] = log as [ConversationMessage];
    expect(toModelMessage(assistant)).toMatchObject({
      reasoning: [{ providerMetadata: anthropicSignature }],
    });
    expect(toOpenAIMessage(assistant)).toEqual({
      role: 'assistant',
      content: "I'll create hello.txt with a greeting.",
      tool_calls: assistant.tool_calls,
    });
  });
});

describe('a Gemini turn (thought signature on a function call that has no id)', () => {
  it('keys the per-call signature by the synthesised call id inside the gemini namespace', () => {
    const callId = 'gemini-call-0';
    const assistant: ConversationMessage = {
      id: 'mockResp4610830002',
      role: 'assistant',
      content: "I'll create hello.txt with a greeting.",
      reasoning: [
        {
          text: '**Planning the file task**\n\nI need to create hello.txt first, so I will call write_file.',
        },
      ],
      tool_calls: [{ id: callId, type: 'function', function: { name: 'write_file', arguments: '{}' } }],
      providerMetadata: {
        gemini: { thoughtSignatures: { [callId]: 'bW9jay10aG91Z2h0LXNpZ25hdHVyZS1ub3QtcmVhbA==' } },
      },
      createdAt: timestamp,
    };
    expect(isValidConversationMessage(assistant)).toBe(true);
    expect(toModelMessage(assistant).providerMetadata?.gemini).toEqual(assistant.providerMetadata?.gemini);
  });
});
