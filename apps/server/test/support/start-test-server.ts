import type { ConversationStore, Tool } from '@cairn/core';
import { createAgentRuntime, type WorkflowPackage } from '@cairn/runtime';
import { createMemoryConversationStore } from '@cairn/storage';
import { ScriptedModel, type ScriptTurn } from '@cairn/testing';
import { vi } from 'vitest';
import type { ServerAppHandle, ServerAppOptions } from '../../src/app/create-server-app.js';
import type { ConversationEventBus } from '../../src/events/conversation-events.js';
import { createInProcessEventBus } from '../../src/events/in-process-event-bus.js';
import { createInProcessTurnLock } from '../../src/turn-lock/in-process-turn-lock.js';
import type { ConversationTurnLock } from '../../src/turn-lock/turn-lock.js';
import { serveApp } from './serve-app.js';

export interface TestServerOptions
  extends Pick<
    ServerAppOptions,
    'apiToken' | 'bodyLimitBytes' | 'attachmentLimitBytes' | 'maxConcurrentTurns' | 'logger' | 'rateLimit'
  > {
  /** The model's replies, one per model call. */
  turns?: ScriptTurn[];
  store?: ConversationStore;
  /** Another server's view of the world (PostgreSQL): its bus and lock. In-process ones by default. */
  events?: ConversationEventBus;
  turnLock?: ConversationTurnLock;
  /** More models a turn may pick (`GET /v1/models`), after the scripted default (`scripted-model`). */
  otherModels?: ScriptedModel[];
  /** Tools the model may call (none by default). */
  tools?: readonly Tool[];
  /** Workflow packages for `/v1/runs` (none by default). */
  workflows?: WorkflowPackage[];
}

export interface TestServer {
  baseURL: string;
  store: ConversationStore;
  events: ConversationEventBus;
  handle: ServerAppHandle;
  /** `fetch` against the server, with the API token when there is one. */
  request(path: string, init?: RequestInit): Promise<Response>;
  /** POSTs `body` as JSON (an event stream when `accept` is `text/event-stream`). */
  post(path: string, body?: unknown, accept?: string): Promise<Response>;
  /** POSTs a user message and waits for the JSON turn result. */
  postMessage(conversationId: string, content: string): Promise<Response>;
  close(): Promise<void>;
}

/** The app on a real HTTP server (127.0.0.1, random port) over a memory store and a scripted model. */
export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const store = options.store ?? createMemoryConversationStore();
  const model = new ScriptedModel({ turns: options.turns ?? [] });
  const runtime = createAgentRuntime({
    store,
    model,
    ...(options.tools === undefined ? {} : { tools: options.tools }),
    ...(options.workflows === undefined ? {} : { workflows: options.workflows }),
    settings: { compression: false },
  });
  const events = options.events ?? createInProcessEventBus();
  const turnLock = options.turnLock ?? createInProcessTurnLock();
  const {
    turns: _turns,
    store: _store,
    events: _events,
    turnLock: _lock,
    otherModels = [],
    tools: _tools,
    ...appOptions
  } = options;
  const served = await serveApp({
    store,
    runtime,
    events,
    turnLock,
    ...(otherModels.length === 0 ? {} : { models: [model, ...otherModels] }),
    ...appOptions,
  });
  return {
    ...served,
    store,
    events,
    postMessage: (conversationId, content) =>
      served.post(`/v1/conversations/${conversationId}/messages`, { content }),
  };
}

/** Resolves once `condition` holds, polling every 10 ms (fails the test after `timeoutMs`). */
export async function waitFor(condition: () => boolean, timeoutMs = 5_000): Promise<void> {
  await vi.waitFor(
    () => {
      if (!condition()) throw new Error('waitFor: condition not met in time');
    },
    { timeout: timeoutMs, interval: 10 },
  );
}
