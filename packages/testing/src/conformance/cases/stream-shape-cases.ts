import type { ModelAdapter } from '@cairn/core';
import { expect } from 'vitest';
import type { ScriptFinish, ScriptTurn } from '../../script-turn.js';
import { assertWellFormedStream } from '../assert-well-formed-stream.js';
import { collectStream } from '../collect-stream.js';
import type { ModelAdapterConformanceCase } from '../conformance-options.js';
import { conformanceRequest, TIME_TOOL, WEATHER_TOOL } from '../conformance-requests.js';
import { normalizeToolCallIds } from '../normalize-tool-call-ids.js';

/** Every kind of block in one reply. */
export const RICH_TURN: ScriptTurn = {
  reasoning: 'The user wants weather and time; two tool calls.',
  text: 'Checking the weather and the time.',
  toolCalls: [
    { name: WEATHER_TOOL.name, arguments: { city: 'Paris', unit: 'C' } },
    { name: TIME_TOOL.name, arguments: { zone: 'Europe/Paris' } },
  ],
  usage: { inputTokens: 50, outputTokens: 30 },
  chunkSize: 6,
};

const UNICODE = 'Emoji 👩🏽‍💻🎉, CJK 漢字かな한국어, combining e\u0301 a\u0308 n\u0303, RTL مرحبا.';

const FINISHES: Array<{ turn: ScriptTurn; reason: ScriptFinish }> = [
  { turn: { text: 'Done.' }, reason: 'stop' },
  { turn: { toolCalls: [{ name: WEATHER_TOOL.name, arguments: { city: 'Oslo' } }] }, reason: 'tool_calls' },
  { turn: { text: 'Cut short by the token li', finish: 'length' }, reason: 'length' },
  { turn: { text: 'I cannot help with', finish: 'content_filter' }, reason: 'content_filter' },
];

async function finishOf(adapter: ModelAdapter, streaming: boolean) {
  const request = conformanceRequest('Go.');
  if (!streaming) return adapter.generate(request);
  const { events, result, error } = await collectStream(adapter.stream(request));
  assertWellFormedStream(events);
  if (result === undefined) throw error;
  const finish = events.at(-1);
  expect(finish).toMatchObject({ type: 'finish', reason: result.finishReason });
  expect(
    finish?.type === 'finish' ? finish.rawReason : undefined,
    "the finish event's rawReason is the result's rawFinishReason",
  ).toBe(result.rawFinishReason);
  return result;
}

export const STREAM_SHAPE_CASES: ModelAdapterConformanceCase[] = [
  {
    group: 'stream shape',
    name: 'generate and stream produce the same final message, usage and finish reason',
    turns: [RICH_TURN, RICH_TURN],
    async run({ adapter }) {
      const generated = await adapter.generate(conformanceRequest('Weather and time?'));
      const { events, result } = await collectStream(adapter.stream(conformanceRequest('Weather and time?')));
      assertWellFormedStream(events);
      expect(result, 'the stream succeeded').toBeDefined();
      expect(normalizeToolCallIds(result?.message ?? generated.message)).toEqual(
        normalizeToolCallIds(generated.message),
      );
      expect(result?.usage).toEqual(generated.usage);
      expect(result?.finishReason).toBe(generated.finishReason);
    },
  },
  {
    group: 'stream shape',
    name: 'every started block ends, and finish comes exactly once, last',
    turns: [RICH_TURN],
    async run({ adapter }) {
      const { events, result } = await collectStream(adapter.stream(conformanceRequest('Weather and time?')));
      assertWellFormedStream(events);
      const types = new Set(events.map((event) => event.type));
      for (const type of ['text_delta', 'text', 'tool_use', 'usage', 'finish'] as const) {
        expect(types.has(type), `a ${type} event`).toBe(true);
      }
      expect(result?.message.tool_calls).toHaveLength(2);
    },
  },
  {
    group: 'stream shape',
    name: 'finish reason is tool_calls exactly when the message has tool calls (stop, length, content_filter)',
    turns: FINISHES.flatMap(({ turn }) => [turn, turn]),
    async run({ adapter, protocol }) {
      // The API's own reason must be kept (`rawFinishReason`, the finish event's `rawReason`).
      for (const { reason } of FINISHES) {
        for (const streaming of [false, true]) {
          const result = await finishOf(adapter, streaming);
          const label = `${streaming ? 'stream' : 'generate'} of a '${reason}' turn`;
          expect(result.finishReason, label).toBe(reason);
          expect((result.message.tool_calls ?? []).length > 0, label).toBe(reason === 'tool_calls');
          expect(result.rawFinishReason, `${label}: the provider's own reason is kept`).toBe(
            protocol.rawFinishReasons[reason],
          );
        }
      }
    },
  },
  {
    group: 'stream shape',
    name: 'unicode survives chunking: emoji, CJK, combining marks split across chunks',
    turns: [0, 1].map(() => ({
      text: UNICODE,
      toolCalls: [{ name: WEATHER_TOOL.name, arguments: { city: UNICODE } }],
      chunkSize: 1,
    })),
    async run({ adapter }) {
      const generated = await adapter.generate(conformanceRequest('Unicode please.'));
      expect(generated.message.content).toBe(UNICODE);
      expect(JSON.parse(generated.message.tool_calls?.[0]?.function.arguments ?? 'null')).toEqual({
        city: UNICODE,
      });
      const { events, result } = await collectStream(adapter.stream(conformanceRequest('Unicode please.')));
      assertWellFormedStream(events);
      const text = events.flatMap((event) => (event.type === 'text_delta' ? [event.delta] : [])).join('');
      expect(text).toBe(UNICODE);
      expect(result?.message.content).toBe(UNICODE);
      expect(JSON.parse(result?.message.tool_calls?.[0]?.function.arguments ?? 'null')).toEqual({
        city: UNICODE,
      });
    },
  },
];
