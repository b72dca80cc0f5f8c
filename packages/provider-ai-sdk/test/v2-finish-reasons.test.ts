import { createOpenAICompatible } from '@ai-sdk/openai-compatible-v2';
import { type ScriptFinish, startMockProviderServer } from '@cairn/testing';
import { collectStream } from '@cairn/testing/conformance';
import { afterEach, describe, expect, it } from 'vitest';
import { createAiSdkAdapter } from '../src/index.js';

// The conformance case on finish reasons is skipped for LanguageModelV2 only for its raw-reason
// check (V2 has no raw reason); the rest of it is here: the reasons, and tool calls exactly with
// `tool_calls`, from generate and stream.
const FINISHES: Array<{
  reason: ScriptFinish;
  turn: Parameters<typeof startMockProviderServer>[0]['turns'];
}> = [
  { reason: 'stop', turn: [{ text: 'Done.' }, { text: 'Done.' }] },
  {
    reason: 'tool_calls',
    turn: [0, 1].map(() => ({ toolCalls: [{ name: 'get_weather', arguments: { city: 'Oslo' } }] })),
  },
  { reason: 'length', turn: [0, 1].map(() => ({ text: 'Cut short', finish: 'length' as const })) },
  {
    reason: 'content_filter',
    turn: [0, 1].map(() => ({ text: 'I cannot', finish: 'content_filter' as const })),
  },
];

const servers: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

describe('a LanguageModelV2 (@ai-sdk/openai-compatible 1) finishes', () => {
  it.each(FINISHES)(
    'with $reason, the same from generate and stream, and no raw reason',
    async ({ reason, turn }) => {
      const server = await startMockProviderServer({ provider: 'openai', turns: turn });
      servers.push(server);
      const model = createAiSdkAdapter(
        createOpenAICompatible({
          name: 'mock',
          baseURL: server.baseURL,
          apiKey: 'k',
          includeUsage: true,
        }).chatModel('m'),
      );
      const request = {
        messages: [{ role: 'user' as const, content: 'Go.' }],
        tools: [{ name: 'get_weather', description: 'Weather', inputSchema: { type: 'object' } }],
      };
      const generated = await model.generate(request);
      const { result: streamed } = await collectStream(model.stream(request));
      for (const result of [generated, streamed]) {
        expect(result?.finishReason).toBe(reason);
        expect((result?.message.tool_calls ?? []).length > 0).toBe(reason === 'tool_calls');
        expect(result?.rawFinishReason).toBeUndefined();
      }
    },
  );
});
