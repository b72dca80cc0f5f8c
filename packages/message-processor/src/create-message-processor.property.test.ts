import {
  type AgentOutput,
  type ConversationMessage,
  isValidConversationMessage,
  type JsonValue,
} from '@cairn/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createMessageProcessor } from './create-message-processor.js';
import { DisplayView } from './display-view.js';
import { LiveDisplay } from './live-display.js';
import { toDisplayMessages } from './to-display-messages.js';

const timestamp = '2026-11-22T10:00:00.000Z';
const blockId = fc.constantFrom('b1', 'b2', 'b3');
const callId = fc.constantFrom('c1', 'c2', 'c3', 'c4');
const base = fc.record(
  { messageId: fc.constantFrom('m1', 'm2', 'm3'), parentToolUseId: fc.constantFrom('c1') },
  { requiredKeys: [] },
);
// Now and then a value nested thousands of levels deep (valid JSON, hostile to recursive code).
const deep = fc.integer({ min: 1, max: 12_000 }).map((depth) => {
  let value: JsonValue = 'leaf';
  for (let level = 0; level < depth; level++) value = level % 3 === 0 ? [value] : { a: value };
  return value;
});
const jsonValue = fc.oneof({ weight: 9, arbitrary: fc.jsonValue() }, { weight: 1, arbitrary: deep });
// Parts a result or a user message may carry: text, images (sized or not), a PDF, a part type
// this version does not know.
const part = fc.oneof(
  fc.string().map((text) => ({ type: 'text' as const, text })),
  fc.record(
    {
      type: fc.constant('image' as const),
      mediaType: fc.constantFrom('image/png', 'image/jpeg'),
      source: fc.constant({ type: 'base64' as const, data: 'iVBORw0KGgo=' }),
      width: fc.integer({ min: 1, max: 4000 }),
      height: fc.integer({ min: 1, max: 4000 }),
    },
    { requiredKeys: ['type', 'mediaType', 'source'] },
  ),
  fc.constant({
    type: 'file' as const,
    mediaType: 'application/pdf',
    source: { type: 'blob' as const, sha256: 'a'.repeat(64), size: 10 },
    fileName: 'r.pdf',
  }),
  fc.constant({ type: 'audio', format: 'wav' }),
);
const parts = fc.array(part, { minLength: 1, maxLength: 4 });
const toolName = fc.constantFrom('Edit', 'Write', 'Read', 'Bash', 'glob', 'run_shell_command', 'mystery', '');

const event: fc.Arbitrary<AgentOutput> = fc
  .tuple(
    base,
    fc.oneof(
      fc.record({ type: fc.constant('text_delta' as const), id: blockId, delta: fc.string() }),
      fc.record({ type: fc.constant('text' as const), id: blockId, text: fc.string() }),
      fc.record({ type: fc.constant('reasoning_delta' as const), id: blockId, delta: fc.string() }),
      fc.record({
        type: fc.constant('reasoning' as const),
        id: blockId,
        text: fc.string(),
        redacted: fc.boolean(),
      }),
      fc.record(
        { type: fc.constant('tool_input_delta' as const), id: callId, toolName, delta: fc.string() },
        { requiredKeys: ['type', 'id', 'delta'] },
      ),
      fc.record({ type: fc.constant('tool_use' as const), id: callId, toolName, input: jsonValue }),
      fc.record(
        {
          type: fc.constant('tool_result' as const),
          toolUseId: callId,
          toolName,
          output: fc.string(),
          content: parts,
          isError: fc.boolean(),
          structured: jsonValue,
        },
        { requiredKeys: ['type', 'toolUseId', 'output', 'isError'] },
      ),
      fc.record(
        { type: fc.constant('user_message' as const), text: fc.string(), content: parts },
        { requiredKeys: ['type', 'text'] },
      ),
      fc.record({
        type: fc.constant('error' as const),
        code: fc.constantFrom('AGENT_FAILED' as const, 'LLM_BAD_RESPONSE' as const),
        message: fc.string(),
        retryable: fc.boolean(),
        fatal: fc.boolean(),
      }),
      fc.record({
        type: fc.constant('session_start' as const),
        provider: fc.constantFrom('claude-code', 'gemini-cli'),
        sessionId: fc.uuid(),
        cwd: fc.constantFrom('/w', '/x'),
      }),
      fc.record({ type: fc.constant('finish' as const), reason: fc.constant('stop' as const) }),
      fc.record({ type: fc.constant('session_result' as const), isError: fc.boolean() }),
      fc.record({ type: fc.constant('unknown' as const), raw: fc.jsonValue() }),
    ),
  )
  .map(([fields, body]) => ({ timestamp, ...fields, ...body }) as AgentOutput);

describe('createMessageProcessor (properties)', () => {
  it('never throws, emits only valid messages, answers every call, and shows what the log says', () => {
    fc.assert(
      fc.property(fc.array(event, { maxLength: 60 }), fc.boolean(), fc.boolean(), (events, merge, live) => {
        const log: ConversationMessage[] = [];
        const display: ConversationMessage[] = [];
        const liveView = new DisplayView();
        const liveDisplay = new LiveDisplay((message) => liveView.add(message));
        let next = 0;
        const processor = createMessageProcessor({
          merge,
          onLogMessage: (message) => log.push(message),
          onDisplayMessage: (message) => {
            display.push(message);
            liveDisplay.logged(message);
          },
          ...(live ? { onLiveDisplayMessage: liveDisplay.live } : {}),
          generateId: () => `id${++next}`,
        });
        for (const item of events) processor.push(item);
        processor.end();

        expect(processor.pendingToolCalls).toBe(0);
        for (const message of [...log, ...display]) expect(isValidConversationMessage(message)).toBe(true);
        const view = new DisplayView();
        for (const message of display) view.add(message);
        const reloaded = toDisplayMessages(log, { merge });
        expect(view.messages).toEqual(reloaded);
        // Live, the same messages end up shown (each execution where its call started, so the
        // order may differ). Only a live text the model later emptied is not in the log's view.
        if (live && merge) {
          const shown = new Map(liveView.messages.map((message) => [message.id, message]));
          for (const message of reloaded) expect(shown.get(message.id)).toEqual(message);
          const reloadedIds = new Set(reloaded.map((message) => message.id));
          for (const message of liveView.messages)
            if (!reloadedIds.has(message.id)) expect(message.partType).not.toBe('tool_execution');
        }

        // Every call in the log is answered by a later tool message; every result event is in the log.
        log.forEach((message, index) => {
          for (const call of message.tool_calls ?? []) {
            expect(log.slice(index + 1).some((later) => later.tool_call_id === call.id)).toBe(true);
          }
        });
        const results = events.filter((item) => item.type === 'tool_result');
        const toolMessages = log.filter((m) => m.role === 'tool' && !m.interrupted);
        expect(toolMessages).toHaveLength(results.length);
        // A result's parts are its message's content, as they came.
        for (const [index, result] of results.entries())
          expect(toolMessages[index]?.content).toEqual(result.content ?? result.output);
        // An execution exposes parts only as a result of its call had them.
        for (const message of view.messages) {
          const execution = message.toolExecution;
          if (execution?.content === undefined) continue;
          expect(execution.content.some((p) => p.type !== 'text')).toBe(true);
          const answers = toolMessages.filter((m) => m.tool_call_id === execution.toolUseId);
          expect(answers.map((m) => m.content)).toContainEqual(execution.content);
        }
        // Merged, nothing is left unshown: every call becomes exactly one tool_execution.
        if (merge) {
          const calls = log.flatMap((m) => m.tool_calls ?? []).length;
          expect(view.messages.filter((m) => m.partType === 'tool_execution')).toHaveLength(calls);
        }
      }),
      { numRuns: 300 },
    );
  });
});
