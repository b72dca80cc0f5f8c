// Shared by the render tests (no test of its own).
import {
  approvalDecisionRecord,
  approvalRequestRecord,
  type ConversationMessage,
  type JsonValue,
} from '@cairn/core';
import type { RuntimeEvent } from '@cairn/runtime';
import type { OutputStream } from '../io.js';
import { createColors } from './colors.js';

export const plainColors = createColors(false);
export const ansiColors = createColors(true);

// ESC followed by '[': the start of every colour code picocolors writes.
export const ANSI = '\u001b[';

const createdAt = '2025-01-24T10:00:00.000Z';

export interface CapturedStream extends OutputStream {
  /** Everything written, in order. */
  readonly text: string;
  readonly chunks: string[];
}

/** A stream that keeps what is written to it; a terminal when `isTTY`. */
export function captureStream(options: { isTTY?: boolean; columns?: number } = {}): CapturedStream {
  const chunks: string[] = [];
  return {
    ...options,
    chunks,
    write(chunk: string) {
      chunks.push(chunk);
      return true;
    },
    get text() {
      return chunks.join('');
    },
  };
}

/** The runtime's event for a message it stored, as a live view gets it. */
export function persisted(message: ConversationMessage): RuntimeEvent {
  return { type: 'runtime', event: 'message_persisted', conversationId: 'c1', message };
}

/** An assistant message calling `toolName` with `input` (call id `call_<id>`). */
export function toolCallMessage(
  id: string,
  toolName: string,
  input: JsonValue,
  content: string | null = null,
) {
  return {
    id,
    role: 'assistant',
    createdAt,
    content,
    tool_calls: [
      { id: `call_${id}`, type: 'function', function: { name: toolName, arguments: JSON.stringify(input) } },
    ],
  } satisfies ConversationMessage;
}

/**
 * The ledger's records about the first call of `call` (a `toolCallMessage`): its approval request
 * (id `<call id>.a0`) and the decision that approves it.
 */
export function approvalRecords(call: ReturnType<typeof toolCallMessage>) {
  const first = call.tool_calls[0] as (typeof call.tool_calls)[number];
  const request = approvalRequestRecord(
    { createdAt },
    {
      assistantMessageId: call.id,
      callIndex: 0,
      toolCallId: first.id,
      toolName: first.function.name,
      input: JSON.parse(first.function.arguments) as JsonValue,
      askedOf: 'local',
    },
  );
  const approved = approvalDecisionRecord(
    { createdAt },
    { requestId: request.id, outcome: 'approve', decidedBy: 'local', decidedAt: createdAt },
  );
  return { request, approved };
}

/** The result of the call made by message `callMessageId`. */
export function toolResultMessage(
  id: string,
  callMessageId: string,
  fields: Partial<ConversationMessage> & { content: string },
): ConversationMessage {
  return { id, role: 'tool', createdAt, tool_call_id: `call_${callMessageId}`, ...fields };
}

export function textMessage(id: string, role: 'user' | 'assistant', content: string): ConversationMessage {
  return { id, role, createdAt, content };
}

/**
 * A stored log as Cairn's runtime writes it: the user asks, the model edits a file with
 * `edit_file` (its result carries the original file) and runs the tests with `run_command`, which
 * fail; then it answers.
 */
export function editAndFailedTestLog(): ConversationMessage[] {
  return [
    textMessage('u1', 'user', 'Make x a const and run the tests.'),
    toolCallMessage(
      'a1',
      'edit_file',
      { path: 'src/a.ts', old_string: 'let x = 1;', new_string: 'const x = 1;' },
      'Editing src/a.ts.',
    ),
    toolResultMessage('t1', 'a1', {
      content: 'Updated src/a.ts (1 replacement)',
      duration: 12,
      structuredResult: {
        type: 'update',
        filePath: 'src/a.ts',
        originalFile: 'let x = 1;\nexport { x };\n',
        replacements: 1,
      },
    }),
    toolCallMessage('a2', 'run_command', { command: 'npm test' }),
    toolResultMessage('t2', 'a2', {
      content: 'Exit code 1\nrunning 1 test\n[stderr]\nFAIL src/a.test.ts\nexpected 2, received 1',
      isError: true,
      duration: 2_300,
      structuredResult: {
        stdout: 'running 1 test\n',
        stderr: 'FAIL src/a.test.ts\nexpected 2, received 1\n',
        exitCode: 1,
      },
    }),
    textMessage('a3', 'assistant', 'The test expects x to be 2.'),
  ];
}
