import type { CalibratedTokenizer, CompressionPipeline } from '@cairn/compression';
import {
  CairnError,
  type ConversationMessage,
  definedFields,
  type ModelMessage,
  type Tool,
  toCairnError,
} from '@cairn/core';
import {
  type ChatToolLoopResult,
  chatToolLoop,
  DEFAULT_MAX_TURNS,
  type FailState,
  type StructuredOutput,
} from '@cairn/loop';
import { afterRetry } from './after-retry.js';
import { createConversationWriter } from './conversation-writer.js';
import type { RuntimeEventListener } from './runtime-types.js';
import {
  storedAssistantMessage,
  storedErrorMessage,
  storedToolMessage,
  storedUserMessage,
} from './stored-messages.js';
import { storedPartsReader } from './stored-parts-reader.js';
import { traceTurn } from './trace-turn.js';
import {
  buildTurnContext,
  compressTurnContext,
  type TurnContextRequest,
  turnToolPolicy,
} from './turn-context.js';
import type { TurnEnvironment } from './turn-environment.js';
import { withTurnTools } from './with-turn-tools.js';

function calibratedTokenizerOf(pipeline: CompressionPipeline | undefined): CalibratedTokenizer | undefined {
  const tokenizer = pipeline?.tokenizer;
  return tokenizer !== undefined && 'calibrate' in tokenizer ? (tokenizer as CalibratedTokenizer) : undefined;
}

export interface TurnRequest extends TurnContextRequest {
  conversationId: string;
  /** Stored before anything else: the user's words survive whatever happens next. */
  inputs: ConversationMessage[];
  signal?: AbortSignal;
  onEvent?: RuntimeEventListener;
  /** Tools for this turn only, beside the runtime's (a workflow's step tools). */
  extraTools?: readonly Tool[];
  /** The failing-call state the loop starts from (a run keeps it between turns). */
  failState?: Partial<FailState>;
  /** Structured output of the answer (`chat({ output })`). */
  output?: StructuredOutput<unknown>;
  outputRetries?: number;
}

export interface TurnResult {
  loop?: ChatToolLoopResult<unknown>;
  /** The stored error message when the turn failed. */
  errorMessage?: ConversationMessage;
  error?: CairnError;
  lastAssistant?: ConversationMessage;
}

/**
 * One chat turn, step by step: store the user's messages → load the history → build the
 * context → compress it when over the trigger (the summary stored as a compaction record) → the
 * tool loop, storing each assistant and tool message as it happens → on failure, the error stored
 * as an assistant message, so the next turn ("continue") resumes from the stored history.
 */
export function runTurn(env: TurnEnvironment, request: TurnRequest): Promise<TurnResult> {
  return traceTurn(env, request, playTurn);
}

async function playTurn(env: TurnEnvironment, request: TurnRequest): Promise<TurnResult> {
  const { store, logger } = env;
  const { conversationId, model, session, agent } = request;
  const writer = createConversationWriter(env, conversationId, request.onEvent);
  let lastAssistant: ConversationMessage | undefined;
  const persist = async (messages: ConversationMessage[]): Promise<ConversationMessage[]> => {
    const stored = await writer.persist(messages);
    for (const message of stored) {
      if (message.role === 'assistant') lastAssistant = message;
    }
    return stored;
  };

  const host = withTurnTools(env.host, request.extraTools);

  try {
    await persist(request.inputs);
    const pipeline = env.pipelineFor(model, conversationId);
    const context = buildTurnContext(env, request, {
      history: await store.load(conversationId),
      host,
      pipeline,
    });
    let messages: ModelMessage[] = context.messages;
    if (pipeline !== undefined) {
      const compressed = await compressTurnContext(env, writer, {
        conversationId,
        pipeline,
        context,
        session,
        ...definedFields({ signal: request.signal }),
      });
      messages = compressed.result.messages;
    }
    // Each model call's reported input tokens calibrate the estimate (Anthropic, Gemini): the request
    // is the loop's message list as the call starts.
    const calibrated = calibratedTokenizerOf(pipeline);
    const maxTurns = env.maxTurns ?? DEFAULT_MAX_TURNS;
    const runLoop = (
      loopMessages: ModelMessage[],
      failState: Partial<FailState> | undefined,
      turns: number,
    ) => {
      let sent: ModelMessage[] | undefined;
      return chatToolLoop({
        model,
        tools: host,
        ...failState,
        messages: loopMessages,
        context: {
          conversationId,
          ...definedFields({ projectRoot: env.projectRoot, runId: session.runId, agentId: session.agentId }),
        },
        policy: turnToolPolicy(env, agent),
        maxTurns: turns,
        ...definedFields({
          toolConcurrency: env.toolConcurrency,
          maxToolResultChars: env.maxToolResultChars,
          approve: env.approve,
          compressionPipeline: pipeline,
          signal: request.signal,
          output: request.output,
          outputRetries: request.outputRetries,
        }),
        // After compression, before each call: the bytes of the images and files still in the request.
        prepareMessages: storedPartsReader(store, conversationId),
        generateId: env.generateId,
        now: env.now,
        telemetry: env.telemetry,
        onEvent: writer.emit,
        ...(calibrated === undefined
          ? {}
          : {
              onTurnStart: () => {
                sent = loopMessages.slice();
              },
              onTurnEnd: ({ usage }) => {
                if (sent !== undefined && usage.inputTokens > 0)
                  calibrated.calibrate(sent, usage.inputTokens);
              },
            }),
        onAssistantMessage: async (message) => {
          await persist([storedAssistantMessage(message, session)]);
        },
        // Why an answer was refused (structured output): the model reads it, so the log keeps it.
        onUserMessage: async (message) => {
          await persist([storedUserMessage(message.id, message.createdAt, message.content, session)]);
        },
        // The message as stored (a big output offloaded): the loop sends it as the next turn will.
        onToolMessage: async (message) => (await persist([storedToolMessage(message, session)]))[0],
      });
    };
    let loop = await runLoop(messages, request.failState, maxTurns);
    if (!loop.success && loop.error.code === 'LLM_CONTEXT_OVERFLOW' && pipeline !== undefined) {
      // The model refused the request as too long (the estimate was off, or its window is smaller
      // than it says): everything so far is stored, so the request is built again from the store,
      // compressed whatever the estimate says, and the call tried once more. A second overflow fails.
      const compacted = await compactAfterOverflow(pipeline);
      if (compacted !== undefined) {
        const failState = {
          lastFailFingerprint: loop.lastFailFingerprint,
          consecutiveFailCount: loop.consecutiveFailCount,
        };
        const retried = await runLoop(compacted, failState, Math.max(1, maxTurns - loop.turns + 1));
        loop = afterRetry(loop, retried);
      }
    }
    if (loop.success) return { loop, ...definedFields({ lastAssistant }) };
    return await failed(loop.error, loop);
  } catch (error) {
    // A CairnError (a store down, a bad message) is the turn's result; anything else is a bug.
    if (!CairnError.is(error)) throw error;
    return await failed(error);
  }

  // The turn's request, from the store, compressed now (the compaction record stored and reported);
  // undefined when there was nothing to compress or the summary failed: the overflow stands.
  async function compactAfterOverflow(pipeline: CompressionPipeline): Promise<ModelMessage[] | undefined> {
    if (request.signal?.aborted) return undefined;
    const context = buildTurnContext(env, request, {
      history: await store.load(conversationId),
      host,
      pipeline,
    });
    const { result } = await compressTurnContext(env, writer, {
      conversationId,
      pipeline,
      context,
      session,
      force: true,
      trigger: 'context_overflow',
      ...definedFields({ signal: request.signal }),
    });
    if (result.compressed === false) {
      logger?.warn({ conversationId, reason: result.reason }, 'context overflow: nothing to compress');
      return undefined;
    }
    return result.messages;
  }

  async function failed(error: CairnError, loop?: ChatToolLoopResult<unknown>): Promise<TurnResult> {
    logger?.warn({ conversationId, code: error.code }, 'turn failed');
    const errorMessage = storedErrorMessage(env.generateId(), env.now().toISOString(), error, session);
    // After an answer cut off mid-stream, that answer tells the model it was cut off (see the context
    // builder); a note of its own would make two assistant messages in a row, which servers whose chat
    // templates want the roles to alternate refuse. The user still sees it. The same after an answer
    // that did not validate: the model reads that answer, and the next turn's question follows it.
    if (loop?.message?.interrupted || error.code === 'OUTPUT_INVALID') errorMessage.includeInContext = false;
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
      ...definedFields({ loop, lastAssistant }),
    };
  }
}
