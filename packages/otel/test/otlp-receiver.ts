import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A span as the OTLP/HTTP JSON encoding carries it (the fields the tests read). */
export interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes: { key: string; value: Record<string, unknown> }[];
}

async function body(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** A loopback OTLP/HTTP receiver: decodes each JSON export to `/v1/traces` and keeps its spans. */
export async function startOtlpReceiver() {
  const spans: OtlpSpan[] = [];
  const resources: Record<string, unknown>[] = [];
  const server = createServer(async (request, response) => {
    const text = await body(request);
    if (request.method === 'POST' && request.url === '/v1/traces') {
      const exported = JSON.parse(text) as {
        resourceSpans: { resource: Record<string, unknown>; scopeSpans: { spans: OtlpSpan[] }[] }[];
      };
      for (const resourceSpans of exported.resourceSpans) {
        resources.push(resourceSpans.resource);
        for (const scope of resourceSpans.scopeSpans) spans.push(...scope.spans);
      }
    }
    response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    spans,
    resources,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** An attribute's value, whatever its OTLP type (`stringValue`, `intValue`, `arrayValue`, …). */
export function otlpAttribute(span: OtlpSpan, key: string): unknown {
  const value = span.attributes.find((attribute) => attribute.key === key)?.value;
  if (value === undefined) return undefined;
  const [kind, raw] = Object.entries(value)[0] as [string, unknown];
  if (kind === 'intValue') return Number(raw);
  if (kind === 'arrayValue') {
    return ((raw as { values?: Record<string, unknown>[] }).values ?? []).map(
      (item) => Object.values(item)[0],
    );
  }
  return raw;
}
