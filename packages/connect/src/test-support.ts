import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CairnError } from '@cairn/core';
import { simulatedDelay, unusedLoopbackPort } from '@cairn/testing';

export interface ModelsServer {
  /** `http://127.0.0.1:<port>/v1`. */
  baseURL: string;
  /** The headers of each request received. */
  requests: IncomingHttpHeaders[];
  close(): Promise<void>;
}

/** A loopback server answering every request with `status` and `body` (JSON), after `delayMs`. */
export async function startModelsServer(
  answer: { status?: number; body?: unknown; delayMs?: number } = {},
): Promise<ModelsServer> {
  const requests: IncomingHttpHeaders[] = [];
  const server = createServer((request, response) => {
    requests.push(request.headers);
    void simulatedDelay(answer.delayMs ?? 0).then(() => {
      response.writeHead(answer.status ?? 200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(answer.body ?? { object: 'list', data: [] }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A base URL nothing listens on, nor can come to in a parallel run. */
export const closedPortURL = async (): Promise<string> => `http://127.0.0.1:${await unusedLoopbackPort()}/v1`;

/** An OpenAI-style model list. */
export const modelList = (...ids: string[]) => ({
  object: 'list',
  data: ids.map((id) => ({ id, object: 'model', owned_by: 'library' })),
});

/** The code, message and fix of the `CairnError` the promise rejects with (anything else fails the test). */
export async function failure(
  promise: Promise<unknown>,
): Promise<{ code: string; message: string; fix: unknown }> {
  const error = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  if (!CairnError.is(error)) throw new Error(`expected a CairnError, got ${String(error)}`);
  return { code: error.code, message: error.message, fix: error.details?.fix };
}
