import {
  type ConversationMessage,
  type ModelAssistantMessage,
  type ModelRequest,
  parseConversationMessage,
  toModelMessage,
} from '@cairn/core';
import { expect } from 'vitest';
import { resolveScriptTurn } from '../../resolve-script-turn.js';
import type { ModelAdapterConformanceCase } from '../conformance-options.js';
import { conformanceRequest, SYSTEM_PROMPT, TIME_TOOL, WEATHER_TOOL } from '../conformance-requests.js';
import { RICH_TURN } from './stream-shape-cases.js';

const FOREIGN = 'conformance-foreign';
const FOREIGN_SIGNATURE = 'FOREIGN-SIGNATURE-MUST-NOT-BE-SENT';
const CREATED_AT = '2025-01-01T00:00:00.000Z';

/** The stored form of a conversation: system, user, the model's reply, its tool results (one failed), a follow-up. */
function conversation(reply: ModelAssistantMessage): ConversationMessage[] {
  const calls = reply.tool_calls ?? [];
  return [
    { id: 'm1', role: 'system', content: SYSTEM_PROMPT, createdAt: CREATED_AT },
    { id: 'm2', role: 'user', content: 'Weather and time in Paris?', createdAt: CREATED_AT },
    { id: 'm3', createdAt: CREATED_AT, ...reply },
    ...calls.map(
      (call, index): ConversationMessage => ({
        id: `m${4 + index}`,
        role: 'tool',
        tool_call_id: call.id,
        toolName: call.function.name,
        content: index === 0 ? '{"temperature":21,"unit":"C"}' : 'time service unreachable',
        ...(index === 0 ? {} : { isError: true }),
        createdAt: CREATED_AT,
      }),
    ),
  ];
}

const requestOf = (messages: ConversationMessage[]): ModelRequest => ({
  messages: messages.map(toModelMessage),
  tools: [WEATHER_TOOL, TIME_TOOL],
});

export const ROUND_TRIP_CASES: ModelAdapterConformanceCase[] = [
  {
    group: 'round trip',
    name: 'a conversation persisted and reloaded converts back to the same request body',
    turns: [RICH_TURN, { text: 'It is 21 °C; the time service failed.' }, { text: 'Same answer.' }],
    async run({ adapter, server, protocol }) {
      const first = await adapter.generate(conformanceRequest('Weather and time in Paris?'));
      const stored = conversation(first.message);
      await adapter.generate(requestOf(stored));
      const reloaded = (JSON.parse(JSON.stringify(stored)) as unknown[]).map(parseConversationMessage);
      await adapter.generate(requestOf(reloaded));
      const [, sent, resent] = server.requests;
      expect(resent?.body, 'the reloaded conversation converts to the same body').toEqual(sent?.body);
      const body = JSON.stringify(sent?.body);
      for (const text of [SYSTEM_PROMPT, 'time service unreachable', 'temperature', WEATHER_TOOL.name]) {
        expect(body, `the request carries ${text}`).toContain(text);
      }
      if (protocol.reasoningSignature !== undefined) {
        const signature = protocol.reasoningSignature(resolveScriptTurn(RICH_TURN, String));
        expect(body, 'the reasoning signature is replayed to the same provider').toContain(signature);
      }
    },
  },
  {
    group: 'round trip',
    name: "another provider's replay data is never sent",
    turns: [{ text: 'Fine.' }],
    async run({ adapter, server }) {
      const foreign = { [FOREIGN]: { signature: FOREIGN_SIGNATURE } };
      await adapter.generate({
        messages: [
          { role: 'system', content: SYSTEM_PROMPT },
          { role: 'user', content: 'Weather in Paris?' },
          {
            role: 'assistant',
            content: 'Checking.',
            reasoning: [{ text: 'Thought elsewhere.', providerMetadata: foreign }],
            tool_calls: [
              {
                id: 'call_foreign_1',
                type: 'function',
                function: { name: WEATHER_TOOL.name, arguments: '{"city":"Paris"}' },
              },
            ],
            providerMetadata: { [FOREIGN]: { call_foreign_1: { signature: FOREIGN_SIGNATURE } } },
          },
          { role: 'tool', tool_call_id: 'call_foreign_1', content: '{"temperature":21}' },
        ],
        tools: [WEATHER_TOOL, TIME_TOOL],
      });
      expect(JSON.stringify(server.requests[0]?.body)).not.toContain(FOREIGN_SIGNATURE);
    },
  },
];
