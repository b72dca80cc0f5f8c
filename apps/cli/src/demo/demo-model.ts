import type { ResolvedModel } from '@cairn/connect';
import { createOpenAIAdapter } from '@cairn/provider-openai';
import { startMockProviderServer } from '@cairn/testing';
import { demoTurn } from './demo-script.js';

/** Pause between streamed chunks, so the demo visibly streams. */
const DEFAULT_CHUNK_DELAY_MS = 12;

/**
 * Starts the offline demo model: a loopback server speaking OpenAI Chat Completions, answering
 * with the demo script, behind the real OpenAI adapter, so everything above it runs as with a
 * real provider. `close()` stops the server.
 */
export async function startDemoModel(options: { chunkDelayMs?: number } = {}): Promise<ResolvedModel> {
  const chunkDelayMs = options.chunkDelayMs ?? DEFAULT_CHUNK_DELAY_MS;
  const server = await startMockProviderServer({
    provider: 'openai',
    turns: (request) => {
      // The server keeps every request, each a whole conversation; the script needs none of them.
      server.requests.length = 0;
      return { ...demoTurn(request.body), chunkDelayMs };
    },
  });
  return {
    adapter: createOpenAIAdapter({ baseURL: server.baseURL, apiKey: 'demo', model: 'cairn-demo' }),
    provider: 'demo',
    modelId: 'cairn-demo',
    source: 'offline demo',
    demo: true,
    close: () => server.close(),
  };
}
