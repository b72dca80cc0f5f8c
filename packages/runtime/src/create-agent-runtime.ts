import { assertSafeId, CairnError, KeyedSerialQueue } from '@cairn/core';

import { runTurn } from './run-turn.js';
import { createRunApi, type RunApi } from './runs/index.js';
import type { AgentRuntimeOptions, ChatParams, ChatResult } from './runtime-types.js';
import { storedUserMessage } from './stored-messages.js';
import { createTurnEnvironment } from './turn-environment.js';

/** What an application calls. */
export interface AgentRuntime {
  /** One chat turn (seed 7-5); a failure is stored and returned, not thrown. */
  chat(params: ChatParams): Promise<ChatResult>;
  /** Workflow runs (seed 7-7): state in the store, so another runtime continues where this one stopped. */
  runs: RunApi;
}

const NO_USAGE = { inputTokens: 0, outputTokens: 0 };

const invalid = (problem: string) => new CairnError('INVALID_ARGUMENT', problem);

// Checked before anything is written: a bad call must not leave half a turn in the store.
function checkChatParams(params: ChatParams): void {
  if (typeof params.userInput !== 'string' || params.userInput.trim() === '') {
    throw invalid('userInput must be a non-empty string');
  }
  if (params.mode !== undefined && params.mode !== 'chat' && params.mode !== 'agent') {
    throw invalid(
      `mode must be 'chat' or 'agent' (runs have their own API), got ${JSON.stringify(params.mode)}`,
    );
  }
  if (params.extraUserMessages?.some((text) => typeof text !== 'string' || text.trim() === '')) {
    throw invalid('extraUserMessages must be non-empty strings');
  }
  if (params.agent?.id !== undefined) assertSafeId('agent id', params.agent.id);
}

/**
 * The runtime: chat turns and workflow runs that store everything as it happens and resume from
 * the store after a restart — no history in memory. Turns on one conversation run one at a time.
 */
export function createAgentRuntime(options: AgentRuntimeOptions): AgentRuntime {
  const env = createTurnEnvironment(options);
  const queue = new KeyedSerialQueue();
  const runs = createRunApi({
    env,
    model: options.model,
    queue,
    ...(options.workflows === undefined ? {} : { workflows: options.workflows }),
  });

  return {
    runs,
    async chat(params) {
      checkChatParams(params);
      const conversationId = params.conversationId ?? env.generateId();
      assertSafeId('conversationId', conversationId);
      const mode = params.mode ?? 'chat';
      const session = { mode, ...(params.agent?.id === undefined ? {} : { agentId: params.agent.id }) };
      return queue.run(conversationId, async () => {
        // Cancelled while waiting for the turn before it: nothing was said to anyone, nothing is stored.
        if (params.signal?.aborted) {
          return {
            conversationId,
            success: false,
            error: new CairnError('LLM_ABORTED', 'the turn was cancelled before it started'),
            usage: { turns: [], total: NO_USAGE },
            turns: 0,
            finishReason: 'aborted',
          };
        }
        const createdAt = env.now().toISOString();
        const inputs = [...(params.extraUserMessages ?? []), params.userInput].map((text) =>
          storedUserMessage(env.generateId(), createdAt, text, session),
        );
        const turn = await runTurn(env, {
          conversationId,
          model: params.model ?? options.model,
          session,
          inputs,
          ...(params.agent === undefined ? {} : { agent: params.agent }),
          ...(params.dataContext === undefined ? {} : { dataContext: params.dataContext }),
          ...(params.signal === undefined ? {} : { signal: params.signal }),
          ...(params.onEvent === undefined ? {} : { onEvent: params.onEvent }),
        });
        const message = turn.errorMessage ?? turn.lastAssistant;
        return {
          conversationId,
          success: turn.error === undefined,
          ...(message === undefined ? {} : { message }),
          ...(turn.error === undefined ? {} : { error: turn.error }),
          usage: turn.loop?.usage ?? { turns: [], total: NO_USAGE },
          turns: turn.loop?.turns ?? 0,
          finishReason: turn.loop?.finishReason ?? 'error',
        };
      });
    },
  };
}
