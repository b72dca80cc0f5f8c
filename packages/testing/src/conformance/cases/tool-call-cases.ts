import type { AgentOutput } from '@cairn/core';
import { expect } from 'vitest';
import { assertWellFormedStream } from '../assert-well-formed-stream.js';
import { collectStream } from '../collect-stream.js';
import type { ModelAdapterConformanceCase } from '../conformance-options.js';
import { conformanceRequest, TIME_TOOL, WEATHER_TOOL } from '../conformance-requests.js';

const PARIS = { city: 'Paris', unit: 'C' };
const ZONE = { zone: 'Europe/Paris' };
const LONG_ARGUMENTS = { city: 'Rio de Janeiro', unit: 'C', note: 'long enough to arrive in several pieces' };

const toolUses = (events: AgentOutput[]) =>
  events.flatMap((event) => (event.type === 'tool_use' ? [event] : []));

export const TOOL_CALL_CASES: ModelAdapterConformanceCase[] = [
  {
    group: 'tool calls',
    name: 'generate returns a single tool call with JSON-string arguments; the tools are sent',
    turns: [{ toolCalls: [{ name: WEATHER_TOOL.name, arguments: PARIS }] }],
    async run({ adapter, server }) {
      const result = await adapter.generate(conformanceRequest('Weather in Paris?'));
      const calls = result.message.tool_calls ?? [];
      expect(calls).toHaveLength(1);
      expect(calls[0]?.id).toMatch(/\S/);
      expect(calls[0]?.type).toBe('function');
      expect(calls[0]?.function.name).toBe(WEATHER_TOOL.name);
      expect(JSON.parse(calls[0]?.function.arguments ?? 'null')).toEqual(PARIS);
      expect(result.message.content ?? null, 'no text: content is null').toBeNull();
      expect(result.finishReason).toBe('tool_calls');
      const body = JSON.stringify(server.requests[0]?.body);
      for (const expected of [WEATHER_TOOL.name, WEATHER_TOOL.description, TIME_TOOL.name, '"city"']) {
        expect(body, `the request body carries ${expected}`).toContain(expected);
      }
    },
  },
  {
    group: 'tool calls',
    name: 'stream returns parallel tool calls after text, in order, with distinct ids',
    turns: [
      {
        text: 'Let me check both.',
        toolCalls: [
          { name: WEATHER_TOOL.name, arguments: PARIS },
          { name: TIME_TOOL.name, arguments: ZONE },
        ],
        chunkSize: 4,
      },
    ],
    async run({ adapter }) {
      const { events, result } = await collectStream(adapter.stream(conformanceRequest('Weather and time?')));
      assertWellFormedStream(events);
      const uses = toolUses(events);
      expect(uses.map((use) => [use.toolName, use.input])).toEqual([
        [WEATHER_TOOL.name, PARIS],
        [TIME_TOOL.name, ZONE],
      ]);
      expect(new Set(uses.map((use) => use.id)).size, 'distinct tool call ids').toBe(2);
      expect(result?.message.content).toBe('Let me check both.');
      expect(
        result?.message.tool_calls?.map((call) => [
          call.id,
          call.function.name,
          JSON.parse(call.function.arguments),
        ]),
      ).toEqual(uses.map((use) => [use.id, use.toolName, use.input]));
      expect(result?.finishReason).toBe('tool_calls');
    },
  },
  {
    group: 'tool calls',
    name: 'tool-argument deltas arrive as tool_input_delta before their tool_use',
    turns: [
      {
        toolCalls: [
          { name: WEATHER_TOOL.name, arguments: LONG_ARGUMENTS },
          { name: TIME_TOOL.name, arguments: ZONE },
        ],
        chunkSize: 4,
      },
    ],
    async run({ adapter, protocol }) {
      const { events } = await collectStream(adapter.stream(conformanceRequest('Weather in Rio?')));
      assertWellFormedStream(events);
      for (const use of toolUses(events)) {
        const useIndex = events.indexOf(use);
        const deltas = events.flatMap((event, index) =>
          event.type === 'tool_input_delta' && event.id === use.id ? [{ index, delta: event.delta }] : [],
        );
        expect(deltas.length, `tool_input_delta events for ${use.toolName}`).toBeGreaterThan(0);
        // An API sending each call whole (Gemini) has one delta to stream.
        if (protocol.toolArgumentsWhole !== true)
          expect(deltas.length, 'arguments streamed in pieces').toBeGreaterThan(1);
        expect(
          deltas.every((delta) => delta.index < useIndex),
          'deltas come before tool_use',
        ).toBe(true);
        expect(JSON.parse(deltas.map((delta) => delta.delta).join(''))).toEqual(use.input);
      }
      expect(toolUses(events).map((use) => use.input)).toEqual([LONG_ARGUMENTS, ZONE]);
    },
  },
];
