import type { CalibratedTokenizer, CompressionPipeline } from '@cairn/compression';
import {
  type ApprovalEntry,
  CairnError,
  type ConversationMessage,
  definedFields,
  type ModelMessage,
  mergeToolPolicies,
  readToolLedger,
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
import { settleCalls, settlementForInput } from './ledger/settle-calls.js';
import { createTurnLedger } from './ledger/turn-ledger.js';
import type { RuntimeEventListener } from './runtime-types.js';
import { hasSomethingToAnswer } from './something-to-answer.js';
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
  /** Who may decide this turn's approvals, instead of the runtime's `askedOf`. */
  askedOf?: string;
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
  /** The approval requests the turn stopped for (stored; see `runtime.approvals`). */
  waiting?: ApprovalEntry[];
  /** A turn without new input found nothing to answer: no model was called. */
  idle?: true;
}

// Where a turn's tools run: handed to each call.
function turnContextOf(env: TurnEnvironment, conversationId: string, session: TurnRequest['session']) {
  return {
    conversationId,
    ...definedFields({ projectRoot: env.projectRoot, runId: session.runId, agentId: session.agentId }),
  };
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
  const persist = async (messages: ConversationMessage[], key?: string): Promise<ConversationMessage[]> => {
    const stored = await writer.persist(messages, key);
    for (const message of stored) {
      if (message.role === 'assistant') lastAssistant = message;
    }
    return stored;
  };

  const host = withTurnTools(env.host, request.extraTools);
  const ledgerSettings =
    request.askedOf === undefined ? env.ledger : { ...env.ledger, askedOf: request.askedOf };
  const ledger = createTurnLedger({ writer, settings: ledgerSettings, now: env.now, session });

  try {
    const history = await store.load(conversationId);
    if (request.inputs.length > 0) {
      history.push(...(await persistInputs(history)));
    } else {
      // Nothing new was said: the turn goes on from the store, its calls settled first.
      const settled = await settleStoredCalls(history);
      history.push(...settled.stored);
      if (settled.waiting.length > 0) return { waiting: settled.waiting };
      if (!hasSomethingToAnswer(history)) return { idle: true };
    }
    const pipeline = env.pipelineFor(model, conversationId);
    const context = buildTurnContext(env, request, { history, host, pipeline });
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
        context: turnContextOf(env, conversationId, session),
        policy: turnToolPolicy(env, agent),
        maxTurns: turns,
        // Every approval is stored, then decided (here or anywhere); every run is claimed first.
        approve: ledger.approve,
        beforeRun: ledger.beforeRun,
        ...definedFields({
          toolConcurrency: env.toolConcurrency,
          maxToolResultChars: env.maxToolResultChars,
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
          const [stored] = await persist([storedAssistantMessage(message, session)]);
          if (stored !== undefined) ledger.setAssistant(stored);
        },
        // Why an answer was refused (structured output): the model reads it, so the log keeps it.
        onUserMessage: async (message) => {
          await persist([storedUserMessage(message.id, message.createdAt, message.content, session)]);
        },
        // The message as stored (a big output offloaded): the loop sends it as the next turn will.
        // Under an id the call's place gives: a result is stored once, whoever settles the call.
        onToolMessage: async (message) => {
          const id = ledger.resultId(message.tool_call_id) ?? message.id;
          return (await persist([storedToolMessage({ ...message, id }, session)]))[0];
        },
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
    await ledger.supersedeUnanswered();
    if (loop.success) {
      const waiting = loop.waiting === undefined ? undefined : ledger.waiting;
      return { loop, ...definedFields({ lastAssistant, waiting }) };
    }
    return await failed(loop.error, loop);
  } catch (error) {
    // A CairnError (a store down, a bad message) is the turn's result; anything else is a bug.
    if (!CairnError.is(error)) throw error;
    return await failed(error);
  }

  // The user's words with what they settle (see `settlementForInput`), in one append. A decision
  // stored meanwhile by someone else makes the append conflict: it is worked out again from the store.
  async function persistInputs(history: ConversationMessage[]): Promise<ConversationMessage[]> {
    const key = request.inputs.at(-1)?.id as string;
    let log = history;
    for (let attempt = 1; ; attempt++) {
      const settlement = settlementForInput(readToolLedger(log), log, {
        createdAt: env.now().toISOString(),
        session,
      });
      try {
        return await persist([...settlement, ...request.inputs], key);
      } catch (error) {
        if (settlement.length === 0 || attempt >= 3 || !CairnError.is(error, 'STORE_CONFLICT')) throw error;
        log = await store.load(conversationId);
        history.splice(0, history.length, ...log);
      }
    }
  }

  async function settleStoredCalls(history: ConversationMessage[]) {
    const ledger = readToolLedger(history);
    const turnLedger = createTurnLedger({
      writer,
      settings: env.ledger,
      now: env.now,
      session,
      known: ledger,
    });
    return settleCalls({
      ledger,
      log: history,
      turnLedger,
      host,
      execution: {
        ...turnContextOf(env, conversationId, session),
        policy: mergeToolPolicies(turnToolPolicy(env, agent)),
        // The tools' own signal: none when the caller gave none (nothing can cancel them then).
        signal: request.signal ?? new AbortController().signal,
      },
      writer,
      session,
      now: env.now,
    });
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
