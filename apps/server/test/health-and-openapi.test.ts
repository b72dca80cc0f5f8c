import { afterEach, describe, expect, it } from 'vitest';
import { jsonBody } from './support/json-body.js';
import { startTestServer, type TestServer } from './support/start-test-server.js';

// The parts of the document the test reads.
interface OpenApiDocument {
  openapi: string;
  paths: Record<string, Record<string, { security?: unknown }>>;
  components: { schemas: Record<string, unknown>; securitySchemes: Record<string, unknown> };
  security?: unknown;
}

let server: TestServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('probes', () => {
  it('answers /healthz and /readyz', async () => {
    server = await startTestServer();
    for (const path of ['/healthz', '/readyz']) {
      const response = await fetch(`${server.baseURL}${path}`);
      expect(response.status, path).toBe(200);
      expect(await jsonBody(response)).toEqual({ status: 'ok' });
      expect(response.headers.get('x-request-id')).toEqual(expect.any(String));
    }
  });
});

describe('GET /openapi.json', () => {
  it('documents every route, its schemas and the bearer scheme', async () => {
    server = await startTestServer({ apiToken: 'secret-token-for-tests' });
    const document = await jsonBody<OpenApiDocument>(await fetch(`${server.baseURL}/openapi.json`));
    expect(document.openapi).toBe('3.1.0');
    // Rename and search, which the web page codes against.
    expect(Object.keys(document.paths['/v1/conversations/{id}'] ?? {}).sort()).toEqual(['delete', 'patch']);
    expect(JSON.stringify(document.paths['/v1/conversations']?.get)).toContain('"name":"q"');
    expect(document.components.schemas).toHaveProperty('RenameConversationRequest');
    // Durable approvals: a turn's result says what it waits for; a decision has its own body.
    expect(document.components.schemas).toHaveProperty('Approval');
    expect(document.components.schemas).toHaveProperty('ApprovalDecisionBody');
    expect(Object.keys(document.paths).sort()).toEqual([
      '/healthz',
      '/metrics',
      '/readyz',
      '/v1/agent-sessions',
      '/v1/agent-sessions/{id}/abort',
      '/v1/chat',
      '/v1/chat/{id}/stream',
      '/v1/conversations',
      '/v1/conversations/{id}',
      '/v1/conversations/{id}/abort',
      '/v1/conversations/{id}/approvals',
      '/v1/conversations/{id}/approvals/{approvalId}',
      '/v1/conversations/{id}/attachments/{sha256}',
      '/v1/conversations/{id}/events',
      '/v1/conversations/{id}/messages',
      '/v1/conversations/{id}/regenerate',
      '/v1/conversations/{id}/resume',
      '/v1/conversations/{id}/turn',
      '/v1/models',
      '/v1/runs',
      '/v1/runs/{id}',
      '/v1/runs/{id}/abort',
      '/v1/runs/{id}/messages',
      '/v1/workflows',
    ]);
    expect(Object.keys(document.paths['/v1/conversations/{id}/messages'] ?? {})).toEqual(['get', 'post']);
    expect(document.components.schemas).toHaveProperty('ConversationMessage');
    expect(document.components.schemas).toHaveProperty('AgentOutput');
    expect(document.components.securitySchemes.bearer).toEqual({ type: 'http', scheme: 'bearer' });
    expect(document.security).toEqual([{ bearer: [] }]);
    expect(document.paths['/healthz']?.get?.security).toEqual([]);
    // What middleware answers is documented too: auth, the body limit, the media type, outages.
    const post = document.paths['/v1/conversations/{id}/messages']?.post as {
      responses: Record<string, { headers?: object }>;
    };
    expect(Object.keys(post.responses).sort()).toEqual([
      '200',
      '400',
      '401',
      '413',
      '415',
      '429',
      '500',
      '503',
    ]);
    expect(post.responses['429']?.headers).toHaveProperty('Retry-After');
    const list = document.paths['/v1/conversations']?.get as { responses: Record<string, unknown> };
    expect(list.responses).toHaveProperty('401');
    expect(list.responses).toHaveProperty('429');
    expect(list.responses).not.toHaveProperty('413');
    expect(document.paths['/healthz']?.get).not.toHaveProperty(['responses', '401']);
    // References inside the embedded JSON Schemas resolve within the document.
    for (const [, pointer = ''] of JSON.stringify(document).matchAll(/"\$ref":"#\/([^"]+)"/g)) {
      const target = pointer
        .split('/')
        .reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], document);
      expect(target, pointer).toBeDefined();
    }
  });
});
