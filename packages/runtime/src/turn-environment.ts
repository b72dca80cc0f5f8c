import { CompressionPipeline, createModelSummarizer, createTokenizer } from '@cairn/compression';
import { createMessageIds, type ModelAdapter, type Tokenizer, type Tool, type ToolHost } from '@cairn/core';
import { createToolHost, type ToolRegistry } from '@cairn/loop';
import type { TurnEnvironment } from './run-turn.js';
import type { AgentRuntimeOptions } from './runtime-types.js';

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

/** What every turn of a runtime shares: the store, the tools, a compression pipeline per model, ids, clock. */
export function createTurnEnvironment(options: Omit<AgentRuntimeOptions, 'model'>): TurnEnvironment {
  const settings = options.settings ?? {};
  const compression = settings.compression;
  // A tokenizer per model (its counts are cached per message, whatever the conversation); a pipeline
  // per turn, since its thrash guard is about one conversation's request.
  const tokenizers = new WeakMap<ModelAdapter, Tokenizer>();
  return {
    store: options.store,
    host: registryOf(options.tools),
    pipelineFor(model) {
      if (compression === false) return undefined;
      let tokenizer = tokenizers.get(model);
      if (tokenizer === undefined) {
        tokenizer = createTokenizer({ provider: model.provider, model: model.modelId });
        tokenizers.set(model, tokenizer);
      }
      const { summarize = true, ...pipelineOptions } = compression ?? {};
      return new CompressionPipeline({
        tokenBudget: model.capabilities.contextWindowTokens ?? 128_000,
        tokenizer,
        ...(summarize ? { summarizer: createModelSummarizer(model) } : {}),
        ...pipelineOptions,
      });
    },
    generateId: settings.generateId ?? createMessageIds(),
    now: settings.now ?? (() => new Date()),
    ...(settings.maxTurns === undefined ? {} : { maxTurns: settings.maxTurns }),
    ...(settings.toolConcurrency === undefined ? {} : { toolConcurrency: settings.toolConcurrency }),
    ...(settings.toolPolicy === undefined ? {} : { toolPolicy: settings.toolPolicy }),
    ...(settings.projectRoot === undefined ? {} : { projectRoot: settings.projectRoot }),
    ...(settings.approve === undefined ? {} : { approve: settings.approve }),
    ...(settings.modeProfiles === undefined ? {} : { modeProfiles: settings.modeProfiles }),
    ...(options.logger === undefined ? {} : { logger: options.logger }),
  };
}
