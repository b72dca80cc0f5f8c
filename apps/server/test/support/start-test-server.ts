import type { AddressInfo } from 'node:net';
import type { ConversationStore } from '@cairn/core';
import { createAgentRuntime } from '@cairn/runtime';
import { createMemoryConversationStore } from '@cairn/storage';
import { ScriptedModel, type ScriptTurn } from '@cairn/testing';
import { serve } from '@hono/node-server';
import {
  createServerApp,
  type ServerAppHandle,
  type ServerAppOptions,
} from '../../src/app/create-server-app.js';
import type { ConversationEventBus } from '../../src/events/conversation-events.js';
import { createInProcessEventBus } from '../../src/events/in-process-event-bus.js';
import { createInProcessTurnLock } from '../../src/turns/in-process-turn-lock.js';
import type { ConversationTurnLock } from '../../src/turns/turn-lock.js';

export interface TestServerOptions
  extends Pick<ServerAppOptions, 'apiToken' | 'bodyLimitBytes' | 'maxConcurrentTurns' | 'logger'> {
  /** The model's replies, one per model call. */
  turns?: ScriptTurn[];
  store?: ConversationStore;
  /** Another server's view of the world (PostgreSQL): its bus and lock. In-process ones by default. */
  events?: ConversationEventBus;
  turnLock?: ConversationTurnLock;
}

export interface TestServer {
  baseURL: string;
  store: ConversationStore;
  events: ConversationEventBus;
  handle: ServerAppHandle;
  /** `fetch` against the server, with the API token when there is one. */
  request(path: string, init?: RequestInit): Promise<Response>;
  /** POSTs a user message and waits for the JSON turn result. */
  postMessage(conversationId: string, content: string): Promise<Response>;
  close(): Promise<void>;
}

/** The app on a real HTTP server (127.0.0.1, random port) over a memory store and a scripted model. */
export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const store = options.store ?? createMemoryConversationStore();
  const model = new ScriptedModel({ turns: options.turns ?? [] });
  const runtime = createAgentRuntime({ store, model, settings: { compression: false } });
  const events = options.events ?? createInProcessEventBus();
  const turnLock = options.turnLock ?? createInProcessTurnLock();
  const { turns: _turns, store: _store, events: _events, turnLock: _lock, ...appOptions } = options;
  const handle = createServerApp({ store, runtime, events, turnLock, ...appOptions });
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
    store,
    events,
    handle,
    request,
    postMessage: (conversationId, content) =>
      request(`/v1/conversations/${conversationId}/messages`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ content }),
      }),
    async close() {
      handle.abortAll();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        // Live event streams would keep the server open.
        if ('closeAllConnections' in server) server.closeAllConnections();
      });
      await Promise.all([events.close(), turnLock.close(), store.close()]);
    },
  };
}

/** Resolves once `condition` holds, polling every 10 ms (fails the test after `timeoutMs`). */
export async function waitFor(condition: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('waitFor: condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
