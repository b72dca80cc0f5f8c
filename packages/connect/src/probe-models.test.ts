import { afterEach, describe, expect, it } from 'vitest';
import { probeModels } from './probe-models.js';
import { closedPortURL, type ModelsServer, modelList, startModelsServer } from './test-support.js';

describe('probeModels', () => {
  let server: ModelsServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('lists the model ids of GET <base>/models, sending the key when given', async () => {
    server = await startModelsServer({ body: modelList('llama3.2', 'qwen3') });
    await expect(probeModels(`${server.baseURL}/`, { timeoutMs: 1000, apiKey: 'k-1' })).resolves.toEqual({
      reachable: true,
      status: 200,
      modelIds: ['llama3.2', 'qwen3'],
    });
    expect(server.requests[0]?.authorization).toBe('Bearer k-1');
  });

  it('counts any HTTP answer as reachable, and a body that is no model list as no models', async () => {
    server = await startModelsServer({ status: 401, body: { error: 'no key' } });
    await expect(probeModels(server.baseURL, { timeoutMs: 1000 })).resolves.toEqual({
      reachable: true,
      status: 401,
      modelIds: [],
    });
    await server.close();
    server = await startModelsServer({ body: { models: ['x'] } });
    await expect(probeModels(server.baseURL, { timeoutMs: 1000 })).resolves.toMatchObject({ modelIds: [] });
  });

  it('reports a refused connection and a server too slow to answer', async () => {
    await expect(probeModels(await closedPortURL(), { timeoutMs: 1000 })).resolves.toEqual({
      reachable: false,
      reason: 'ECONNREFUSED',
    });
    server = await startModelsServer({ delayMs: 500 });
    await expect(probeModels(server.baseURL, { timeoutMs: 50 })).resolves.toEqual({
      reachable: false,
      reason: 'no answer within 50 ms',
    });
  });
});
