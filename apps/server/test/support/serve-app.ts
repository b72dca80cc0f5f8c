// The app made from the options given, on a real HTTP server (127.0.0.1, random port): the plumbing
// every server test harness shares.
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { expect, vi } from 'vitest';
import {
  createServerApp,
  type ServerAppHandle,
  type ServerAppOptions,
} from '../../src/app/create-server-app.js';

export interface AppServer {
  baseURL: string;
  handle: ServerAppHandle;
  /** `fetch` against the server, with the API token when there is one. */
  request(path: string, init?: RequestInit): Promise<Response>;
  /** POSTs `body` as JSON; `accept` asks for an event stream when it is `text/event-stream`. */
  post(path: string, body?: unknown, accept?: string): Promise<Response>;
  /** Stops the server and closes the store, bus and lock. */
  close(): Promise<void>;
}

/** `createServerApp(options)` on 127.0.0.1 (random port). */
export async function serveApp(options: ServerAppOptions): Promise<AppServer> {
  const handle = createServerApp(options);
  const { server, port } = await new Promise<{ server: ReturnType<typeof serve>; port: number }>(
    (resolve) => {
      const started = serve(
        { fetch: handle.app.fetch, hostname: '127.0.0.1', port: 0 },
        (info: AddressInfo) => resolve({ server: started, port: info.port }),
      );
    },
  );
  const baseURL = `http://127.0.0.1:${port}`;
  const request = (path: string, init: RequestInit = {}) => {
    const headers = new Headers(init.headers);
    if (options.apiToken !== undefined && !headers.has('authorization')) {
      headers.set('authorization', `Bearer ${options.apiToken}`);
    }
    return fetch(`${baseURL}${path}`, { ...init, headers });
  };
  return {
    baseURL,
    handle,
    request,
    post: (path, body, accept) =>
      request(path, {
        method: 'POST',
        headers: {
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...(accept === undefined ? {} : { accept }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      }),
    async close() {
      handle.abortAll();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        if ('closeAllConnections' in server) server.closeAllConnections();
      });
      // Aborted agents and turns store their end before the store may close (up to 10 s, then it closes all the same).
      await vi
        .waitFor(() => expect(handle.activeTurns()).toBe(0), { timeout: 10_000, interval: 10 })
        .catch(() => {});
      await Promise.all([options.events.close(), options.turnLock.close(), options.store.close()]);
    },
  };
}
