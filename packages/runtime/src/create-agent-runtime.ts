import { CompressionPipeline, createModelSummarizer, createTokenizer } from '@cairn/compression';
import {
  assertSafeId,
  CairnError,
  createMessageIds,
  type ModelAdapter,
  type Tool,
  type ToolHost,
} from '@cairn/core';
import { createToolHost, type ToolRegistry } from '@cairn/loop';
import { ConversationQueue } from './conversation-queue.js';
import { runTurn, type TurnEnvironment } from './run-turn.js';
import type { AgentRuntimeOptions, ChatParams, ChatResult } from './runtime-types.js';
import { storedUserMessage } from './stored-messages.js';

/** What an application calls. */
export interface AgentRuntime {
  /** One chat turn (seed 7-5); a failure is stored and returned, not thrown. */
  chat(params: ChatParams): Promise<ChatResult>;
}

const NO_USAGE = { inputTokens: 0, outputTokens: 0 };

function registryOf(tools: AgentRuntimeOptions['tools']): ToolRegistry {
  if (tools === undefined) return createToolHost([]);
  if (Array.isArray(tools)) return createToolHost(tools as readonly Tool[]);
  if ('tools' in tools) return tools as ToolRegistry;
  // A host that cannot list its tools still runs them; the prompt then names none.
  const host = tools as ToolHost;
  return {
    tools: [],
    get: () => undefined,
    getVisibleTools: (visibility) => host.getVisibleTools(visibility),
    execute: (call, execution) => host.execute(call, execution),
  };
}

/**
 * The runtime: chat turns that store everything as it happens and resume from the store after a
 * restart — no history in memory. Turns on one conversation run one at a time.
 */
export function createAgentRuntime(options: AgentRuntimeOptions): AgentRuntime {
  const settings = options.settings ?? {};
  const generateId = settings.generateId ?? createMessageIds();
  const now = settings.now ?? (() => new Date());
  const queue = new ConversationQueue();
  // One pipeline per model: its tokenizer's counts and calibration belong to that model.
  const pipelines = new WeakMap<ModelAdapter, CompressionPipeline>();
  const compression = settings.compression;

  const env: TurnEnvironment = {
    store: options.store,
    host: registryOf(options.tools),
    pipelineFor(model) {
      if (compression === false) return undefined;
      let pipeline = pipelines.get(model);
      if (pipeline === undefined) {
        const { summarize = true, ...pipelineOptions } = compression ?? {};
        pipeline = new CompressionPipeline({
          tokenBudget: model.capabilities.contextWindowTokens ?? 128_000,
          tokenizer: createTokenizer({ provider: model.provider, model: model.modelId }),
          ...(summarize ? { summarizer: createModelSummarizer(model) } : {}),
          ...pipelineOptions,
        });
        pipelines.set(model, pipeline);
      }
      return pipeline;
    },
    generateId,
    now,
    ...(settings.maxTurns === undefined ? {} : { maxTurns: settings.maxTurns }),
    ...(settings.toolConcurrency === undefined ? {} : { toolConcurrency: settings.toolConcurrency }),
    ...(settings.toolPolicy === undefined ? {} : { toolPolicy: settings.toolPolicy }),
    ...(settings.projectRoot === undefined ? {} : { projectRoot: settings.projectRoot }),
    ...(settings.approve === undefined ? {} : { approve: settings.approve }),
    ...(settings.modeProfiles === undefined ? {} : { modeProfiles: settings.modeProfiles }),
    ...(options.logger === undefined ? {} : { logger: options.logger }),
  };

  return {
    async chat(params) {
      if (typeof params.userInput !== 'string' || params.userInput.trim() === '') {
        throw new CairnError('INVALID_ARGUMENT', 'userInput must be a non-empty string');
      }
      const conversationId = params.conversationId ?? generateId();
      assertSafeId('conversationId', conversationId);
      const mode = params.mode ?? 'chat';
      const session = { mode, ...(params.agent?.id === undefined ? {} : { agentId: params.agent.id }) };
      return queue.run(conversationId, async () => {
        const createdAt = now().toISOString();
        const inputs = [...(params.extraUserMessages ?? []), params.userInput].map((text) =>
          storedUserMessage(generateId(), createdAt, text, session),
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
