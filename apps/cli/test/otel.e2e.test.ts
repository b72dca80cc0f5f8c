import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type MockProviderServer, startMockProviderServer } from '@cairn/testing';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cliEnv, ensureCliBuilt, mockEnv, runCairn, tempDir } from './cli-process.js';
import { CLAUDE_SESSION, installFakeAgent, savedTranscript } from './fixtures/agent/agent-test-support.js';

beforeAll(ensureCliBuilt, 120_000);

interface Exported {
  path: string;
  body: Record<string, unknown>;
}

// A loopback OTLP/HTTP receiver: keeps each JSON export it is sent, by path.
async function startOtlpReceiver() {
  const exports: Exported[] = [];
  const read = async (request: IncomingMessage) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  };
  const server = createServer(async (request, response) => {
    exports.push({ path: request.url ?? '', body: JSON.parse(await read(request)) });
    response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    exports,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

type Attribute = { key: string; value: Record<string, unknown> };
type Span = { name: string; traceId: string; spanId: string; parentSpanId?: string; attributes: Attribute[] };
type ResourceSpans = { resource: { attributes: Attribute[] }; scopeSpans: { spans: Span[] }[] };
const value = (attributes: Attribute[], key: string) =>
  Object.values(attributes.find((attribute) => attribute.key === key)?.value ?? {})[0];

let provider: MockProviderServer | undefined;
let receiver: Awaited<ReturnType<typeof startOtlpReceiver>> | undefined;
afterEach(async () => {
  await provider?.close();
  await receiver?.close();
  provider = undefined;
  receiver = undefined;
});

describe('cairn --otel', () => {
  it('exports the turn’s spans and the GenAI metrics over OTLP/HTTP before it exits', async () => {
    provider = await startMockProviderServer({
      provider: 'openai',
      turns: [{ text: 'Paris.', usage: { inputTokens: 11, outputTokens: 2 } }],
    });
    receiver = await startOtlpReceiver();
    const env = mockEnv(tempDir('otel'), provider.baseURL, {
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_SERVICE_NAME: 'cairn-e2e',
      OTEL_RESOURCE_ATTRIBUTES: 'deployment.environment.name=test',
    });
    const run = await runCairn(['-p', 'Capital of France?', '--otel'], { env });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Paris.');

    const traces = receiver.exports.filter((exported) => exported.path === '/v1/traces');
    const resourceSpans = traces.flatMap((exported) => exported.body.resourceSpans as ResourceSpans[]);
    const spans = resourceSpans.flatMap((resource) => resource.scopeSpans.flatMap((scope) => scope.spans));
    expect(spans.map((span) => span.name).sort()).toEqual(['chat mock-model', 'invoke_agent']);
    const agent = spans.find((span) => span.name === 'invoke_agent');
    const chat = spans.find((span) => span.name === 'chat mock-model');
    expect(chat?.parentSpanId).toBe(agent?.spanId);
    expect(value(chat?.attributes ?? [], 'gen_ai.provider.name')).toBe('openai');
    expect(value(chat?.attributes ?? [], 'gen_ai.usage.input_tokens')).toBe(11);
    const resource = resourceSpans[0]?.resource.attributes ?? [];
    expect(value(resource, 'service.name')).toBe('cairn-e2e');
    expect(value(resource, 'deployment.environment.name')).toBe('test');

    const metricNames = receiver.exports
      .filter((exported) => exported.path === '/v1/metrics')
      .flatMap((exported) => JSON.stringify(exported.body).match(/gen_ai\.client\.[a-z_.]+/g) ?? []);
    expect(new Set(metricNames)).toEqual(
      new Set(['gen_ai.client.token.usage', 'gen_ai.client.operation.duration']),
    );
  });

  it('cairn agent --otel exports the agent CLI run as an invoke_agent span', async () => {
    receiver = await startOtlpReceiver();
    const dataDir = tempDir('otel-agent');
    const claude = await installFakeAgent(dataDir, 'claude');
    const transcript = await savedTranscript(CLAUDE_SESSION, { cwd: dataDir, prompt: 'Fix the typo' });
    const env = cliEnv(dataDir, {
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      FAKE_AGENT_TRANSCRIPT: transcript,
    });
    const run = await runCairn(['agent', 'claude', 'Fix the typo', '--command', claude, '--otel'], { env });
    expect(run.code).toBe(0);
    const spans = receiver.exports
      .filter((exported) => exported.path === '/v1/traces')
      .flatMap((exported) =>
        (exported.body.resourceSpans as ResourceSpans[]).flatMap((resource) =>
          resource.scopeSpans.flatMap((scope) => scope.spans),
        ),
      );
    const agent = spans.find((span) => span.name === 'invoke_agent Claude Code');
    expect(value(agent?.attributes ?? [], 'gen_ai.operation.name')).toBe('invoke_agent');
    expect(value(agent?.attributes ?? [], 'gen_ai.conversation.id')).toMatch(/^agent-/);
  });
});
