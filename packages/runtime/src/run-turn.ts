import {
  type CalibratedTokenizer,
  type CompressionPipeline,
  createCompactionRecord,
} from '@cairn/compression';
import { buildLlmMessagesFromConversation, type ModeProfiles, type RunContext } from '@cairn/context-builder';
import {
  type AgentOutput,
  CairnError,
  type ConversationMessage,
  type ConversationStore,
  type ModelAdapter,
  type ModelMessage,
  type Tool,
  type ToolExecutionOptions,
  type ToolPolicy,
  toCairnError,
} from '@cairn/core';
import { type ChatToolLoopResult, chatToolLoop, type FailState, type ToolRegistry } from '@cairn/loop';
import { messagesForProvider } from './messages-for-provider.js';
import type { RuntimeAgent, RuntimeEvent, RuntimeEventListener, RuntimeLogger } from './runtime-types.js';
import {
  type SessionFields,
  storedAssistantMessage,
  storedErrorMessage,
  storedToolMessage,
} from './stored-messages.js';
import { withTurnTools } from './with-turn-tools.js';

const STORE_ATTEMPTS = 3;

function calibratedTokenizerOf(pipeline: CompressionPipeline | undefined): CalibratedTokenizer | undefined {
  const tokenizer = pipeline?.tokenizer;
  return tokenizer !== undefined && 'calibrate' in tokenizer ? (tokenizer as CalibratedTokenizer) : undefined;
}

// A store that is briefly unavailable (a busy database, a lock) is tried again, a little later.
async function withStoreRetry<T>(write: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await write();
    } catch (error) {
      if (attempt >= STORE_ATTEMPTS || !CairnError.is(error) || !error.retryable) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50 * 2 ** attempt));
    }
  }
}

/** What one turn needs from the runtime. */
export interface TurnEnvironment {
  store: ConversationStore;
  host: ToolRegistry;
  /** A compression pipeline for one turn of a conversation on `model` (none when compression is off). */
  pipelineFor(model: ModelAdapter, conversationId: string): CompressionPipeline | undefined;
  maxTurns?: number;
  toolConcurrency?: number;
  toolPolicy?: ToolPolicy;
  projectRoot?: string;
  approve?: ToolExecutionOptions['approve'];
  modeProfiles?: Partial<ModeProfiles>;
  generateId: () => string;
  now: () => Date;
  logger?: RuntimeLogger;
}

export interface TurnRequest {
  conversationId: string;
  model: ModelAdapter;
  session: SessionFields;
  /** Stored before anything else: the user's words survive whatever happens next. */
  inputs: ConversationMessage[];
  agent?: RuntimeAgent;
  runContext?: RunContext;
  dataContext?: string | Record<string, unknown>;
  signal?: AbortSignal;
  onEvent?: RuntimeEventListener;
  /** Tools for this turn only, beside the runtime's (a workflow's step tools). */
  extraTools?: readonly Tool[];
  /** The failing-call state the loop starts from (a run keeps it between turns). */
  failState?: Partial<FailState>;
}

export interface TurnResult {
  loop?: ChatToolLoopResult;
  /** The stored error message when the turn failed. */
  errorMessage?: ConversationMessage;
  error?: CairnError;
  lastAssistant?: ConversationMessage;
}

function dataContextText(dataContext: string | Record<string, unknown>): string {
  return typeof dataContext === 'string' ? dataContext : JSON.stringify(dataContext, null, 2);
}

/**
 * One turn, seed 7-5 step by step: store the user's messages → load the history → build the
 * context → compress it when over the trigger (the summary stored as a compaction record) → the
 * tool loop, storing each assistant and tool message as it happens → on failure, the error stored
 * as an assistant message, so the next turn ("continue") resumes from the stored history.
 */
export async function runTurn(env: TurnEnvironment, request: TurnRequest): Promise<TurnResult> {
  const { store, logger } = env;
  const { conversationId, model, session } = request;
  // A listener is the caller's UI: its failure is logged, never the turn's failure.
  const emit = (event: AgentOutput | RuntimeEvent) => {
    try {
      request.onEvent?.(event);
    } catch (error) {
      logger?.warn(
        { conversationId, error: error instanceof Error ? error.name : typeof error },
        'event listener failed',
      );
    }
  };
  let lastAssistant: ConversationMessage | undefined;

  const persist = async (messages: ConversationMessage[]) => {
    if (messages.length === 0) return;
    // The first id as the key: the retry of an append that may have landed is not stored twice.
    const key = messages[0]?.id as string;
    const { messages: stored } = await withStoreRetry(() =>
      store.append(conversationId, messages, { idempotencyKey: key }),
    );
    for (const message of stored) {
      if (message.role === 'assistant') lastAssistant = message;
      emit({ type: 'runtime', event: 'message_persisted', conversationId, message });
    }
  };

  const host = withTurnTools(env.host, request.extraTools);

  try {
    await persist(request.inputs);
    const history = await store.load(conversationId);
    const pipeline = env.pipelineFor(model, conversationId);
    const agent = request.agent;
    const built = buildLlmMessagesFromConversation({
      messages: history,
      mode: session.mode,
      ...(agent === undefined ? {} : { agent }),
      tools: host.tools,
      toolPolicy: {
        ...(env.toolPolicy === undefined ? {} : { system: env.toolPolicy }),
        ...(agent?.toolPolicy === undefined ? {} : { agent: agent.toolPolicy }),
      },
      ...(request.runContext === undefined ? {} : { runContext: request.runContext }),
      settings: {
        ...(pipeline === undefined ? {} : { tokenizer: pipeline.tokenizer }),
        ...(env.modeProfiles === undefined ? {} : { modeProfiles: env.modeProfiles }),
      },
    });
    let messages: ModelMessage[] = messagesForProvider(built.messages, model.provider);
    if (request.dataContext !== undefined && messages[0]?.role === 'system') {
      messages[0] = {
        ...messages[0],
        content: `${messages[0].content}\n\nContext for this request:\n${dataContextText(request.dataContext)}`,
      };
    }
    if (pipeline !== undefined) {
      const compressed = await pipeline.compressIfNeeded(
        messages,
        request.signal === undefined ? {} : { signal: request.signal },
      );
      if (compressed.compressed !== false) {
        messages = compressed.messages;
        emit({
          type: 'runtime',
          event: 'compression_applied',
          conversationId,
          compressed: compressed.compressed,
          tokensBefore: compressed.before.tokens,
          tokensAfter: compressed.after.tokens,
          steps: compressed.steps.map((step) => step.step),
        });
        logger?.info(
          { conversationId, tokensBefore: compressed.before.tokens, tokensAfter: compressed.after.tokens },
          'context compressed',
        );
        const records = compressed.summaries.flatMap((summary) => {
          const record = createCompactionRecord({
            id: env.generateId(),
            createdAt: env.now().toISOString(),
            summary,
            sourceSeqs: built.sourceSeqs,
            ...session,
          });
          return record === undefined ? [] : [record];
        });
        await persist(records);
      }
    }
    // Each model call's reported input tokens calibrate the estimate (Anthropic, Gemini): the request
    // is the loop's message list as the call starts.
    const calibrated = calibratedTokenizerOf(pipeline);
    let sent: ModelMessage[] | undefined;
    const loop = await chatToolLoop({
      model,
      tools: host,
      ...request.failState,
      messages,
      context: {
        conversationId,
        ...(env.projectRoot === undefined ? {} : { projectRoot: env.projectRoot }),
        ...(session.runId === undefined ? {} : { runId: session.runId }),
        ...(session.agentId === undefined ? {} : { agentId: session.agentId }),
      },
      policy: {
        ...(env.toolPolicy === undefined ? {} : { system: env.toolPolicy }),
        ...(agent?.toolPolicy === undefined ? {} : { agent: agent.toolPolicy }),
      },
      ...(env.maxTurns === undefined ? {} : { maxTurns: env.maxTurns }),
      ...(env.toolConcurrency === undefined ? {} : { toolConcurrency: env.toolConcurrency }),
      ...(env.approve === undefined ? {} : { approve: env.approve }),
      ...(pipeline === undefined ? {} : { compressionPipeline: pipeline }),
      ...(request.signal === undefined ? {} : { signal: request.signal }),
      generateId: env.generateId,
      now: env.now,
      onEvent: emit,
      ...(calibrated === undefined
        ? {}
        : {
            onTurnStart: () => {
              sent = messages.slice();
            },
            onTurnEnd: ({ usage }) => {
              if (sent !== undefined && usage.inputTokens > 0) calibrated.calibrate(sent, usage.inputTokens);
            },
          }),
      onAssistantMessage: (message) => persist([storedAssistantMessage(message, session)]),
      onToolMessage: (message) => persist([storedToolMessage(message, session)]),
    });
    if (loop.success) return { loop, ...(lastAssistant === undefined ? {} : { lastAssistant }) };
    return await failed(loop.error as CairnError, loop);
  } catch (error) {
    // A CairnError (a store down, a bad message) is the turn's result; anything else is a bug.
    if (!CairnError.is(error)) throw error;
    return await failed(error);
  }

  async function failed(error: CairnError, loop?: ChatToolLoopResult): Promise<TurnResult> {
    logger?.warn({ conversationId, code: error.code }, 'turn failed');
    const errorMessage = storedErrorMessage(env.generateId(), env.now().toISOString(), error, session);
    try {
      await persist([errorMessage]);
    } catch (storeError) {
      // The store itself is failing: the caller still gets the error; nothing more can be kept.
      logger?.error(
        { conversationId, code: toCairnError(storeError, 'STORE_UNAVAILABLE').code },
        'could not store the error message',
      );
    }
    return {
      error,
      errorMessage,
      ...(loop === undefined ? {} : { loop }),
      ...(lastAssistant === undefined ? {} : { lastAssistant }),
    };
  }
}
