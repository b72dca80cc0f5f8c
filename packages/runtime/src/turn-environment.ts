import { CompressionPipeline, createModelSummarizer, createTokenizer } from '@cairn/compression';
import type { ModeProfiles } from '@cairn/context-builder';
import {
  type ConversationStore,
  createMessageIds,
  definedFields,
  type ModelAdapter,
  noopTelemetry,
  type Telemetry,
  type Tokenizer,
  type Tool,
  type ToolHost,
  type ToolPolicy,
} from '@cairn/core';
import { createToolHost, type ToolRegistry } from '@cairn/loop';
import { createProcessOwner } from './ledger/process-owner.js';
import type { LedgerSettings } from './ledger/turn-ledger.js';
import { createReadToolOutputTool } from './read-tool-output-tool.js';
import type { AgentRuntimeOptions, RuntimeLogger } from './runtime-types.js';
import { withTurnTools } from './with-turn-tools.js';

/** What the turns (and compressions) of a runtime share. */
export interface TurnEnvironment {
  store: ConversationStore;
  host: ToolRegistry;
  /** A compression pipeline for one turn of a conversation on `model` (none when compression is off). */
  pipelineFor(model: ModelAdapter, conversationId: string): CompressionPipeline | undefined;
  maxTurns?: number;
  toolConcurrency?: number;
  maxToolResultChars?: number;
  toolPolicy?: ToolPolicy;
  projectRoot?: string;
  /** How turns ask for approvals and claim their runs. */
  ledger: LedgerSettings;
  modeProfiles?: Partial<ModeProfiles>;
  generateId: () => string;
  now: () => Date;
  telemetry: Telemetry;
  logger?: RuntimeLogger;
}

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

// Empty texts: the context builder leaves a mode's text out of the system prompt.
const NO_MODE_PROFILES: ModeProfiles = { chat: '', agent: '', run: '', postCompletion: '' };

// Conversations whose tokenizer (and its calibration) a runtime keeps, least recently used dropped.
const CALIBRATED_CONVERSATIONS = 256;

/** What every turn of a runtime shares: the store, the tools, a compression pipeline per model, ids, clock. */
export function createTurnEnvironment(options: Omit<AgentRuntimeOptions, 'model'>): TurnEnvironment {
  const settings = options.settings ?? {};
  const compression = settings.compression;
  // A tokenizer per conversation and model, calibrated with the usage the provider reports on each
  // of the conversation's turns (the most recent conversations are kept); a pipeline per turn,
  // since its thrash guard is about one conversation's request.
  const tokenizers = new WeakMap<ModelAdapter, Map<string, Tokenizer>>();
  const tokenizerFor = (model: ModelAdapter, conversationId: string): Tokenizer => {
    let byConversation = tokenizers.get(model);
    if (byConversation === undefined) {
      byConversation = new Map();
      tokenizers.set(model, byConversation);
    }
    let tokenizer = byConversation.get(conversationId);
    if (tokenizer === undefined) {
      tokenizer = createTokenizer({ provider: model.provider, model: model.modelId });
      if (byConversation.size >= CALIBRATED_CONVERSATIONS) {
        byConversation.delete(byConversation.keys().next().value as string);
      }
    } else byConversation.delete(conversationId);
    byConversation.set(conversationId, tokenizer);
    return tokenizer;
  };
  return {
    store: options.store,
    // read_tool_output is the runtime's own, beside the application's tools: every turn (and every
    // context a compression measures) offers it.
    host:
      settings.readToolOutput === false
        ? registryOf(options.tools)
        : withTurnTools(registryOf(options.tools), [createReadToolOutputTool(options.store)]),
    pipelineFor(model, conversationId) {
      if (compression === false) return undefined;
      const tokenizer = tokenizerFor(model, conversationId);
      const { summarize = true, ...pipelineOptions } = compression ?? {};
      return new CompressionPipeline({
        tokenBudget: model.capabilities.contextWindowTokens ?? 128_000,
        tokenizer,
        ...(summarize ? { summarizer: createModelSummarizer(model) } : {}),
        ...pipelineOptions,
      });
    },
    ledger: {
      owner: createProcessOwner(),
      // Someone asked in this process decides here; otherwise anyone who may use the store may.
      askedOf: settings.approvals?.askedOf ?? (settings.approve === undefined ? 'any' : 'local'),
      ...definedFields({
        approvalTtlMs: settings.approvals?.ttlMs,
        decider: settings.approve,
        decidedBy: settings.approvals?.decidedBy,
      }),
    },
    generateId: settings.generateId ?? createMessageIds(),
    now: settings.now ?? (() => new Date()),
    telemetry: options.telemetry ?? noopTelemetry,
    ...definedFields({
      maxTurns: settings.maxTurns,
      toolConcurrency: settings.toolConcurrency,
      maxToolResultChars: settings.maxToolResultChars,
      toolPolicy: settings.toolPolicy,
      projectRoot: settings.projectRoot,
      modeProfiles: settings.modePrompt === false ? NO_MODE_PROFILES : settings.modeProfiles,
      logger: options.logger,
    }),
  };
}
