import {
  assertSafeId,
  CairnError,
  type ConversationMessage,
  definedFields,
  KeyedSerialQueue,
} from '@cairn/core';
import type { StructuredOutput } from '@cairn/loop';
import { assertBranchPoint } from './branch-point.js';
import { compressConversation, summarizingPipelineFor } from './compress-conversation.js';
import { type ApprovalsApi, createApprovalsApi } from './ledger/approvals-api.js';
import { runTurn, type TurnRequest, type TurnResult } from './run-turn.js';
import { createRunApi, type RunApi, runIdOfConversation } from './runs/index.js';
import type {
  AgentRuntimeOptions,
  ChatParams,
  ChatResult,
  CompressParams,
  CompressResult,
  ResumeParams,
} from './runtime-types.js';
import { type SessionFields, storedUserMessage } from './stored-messages.js';
import { type ChatStream, createChatStream } from './stream/chat-stream.js';
import { createTurnEnvironment } from './turn-environment.js';

/** What an application calls. */
export interface AgentRuntime {
  /** One chat turn, every message stored as it happens; a failure is stored and returned, not thrown. */
  chat<OUTPUT = never>(params: ChatParams<OUTPUT>): Promise<ChatResult<OUTPUT>>;
  /**
   * The same turn as `chat`, returned at once as it happens: iterate its events, read `textStream`,
   * await `result`, or answer an AI SDK client with `toUIMessageStreamResponse()`. The turn runs
   * (and is stored) whether or not anything reads it; breaking out of a loop does not abort it.
   */
  stream<OUTPUT = never>(params: ChatParams<OUTPUT>): ChatStream<OUTPUT>;
  /**
   * Compresses a stored conversation now, whatever its usage (a `/compress` command): everything
   * before the recent window and the latest request is summarised, and the summary stored as a
   * compaction record the next turns send instead. Waits for a running turn; never runs beside one.
   * Throws `INVALID_ID`, `STORE_NOT_FOUND` (no messages), `INVALID_ARGUMENT` (compression off).
   */
  compress(params: CompressParams): Promise<CompressResult>;
  /**
   * Continues a conversation from the store, in this process, whichever process left it: the calls of
   * its last answer without a result are settled (decided ones run or are denied, an interrupted one
   * runs again only if its tool is idempotent), then the model answers. When a call still waits for a
   * decision, nothing runs and `waiting` lists it; when nothing is owed an answer, no model is called.
   */
  resume(params: ResumeParams): Promise<ChatResult>;
  /** Approval requests and their decisions (see `RuntimeSettings.approve`). */
  approvals: ApprovalsApi;
  /** Workflow runs: state in the store, so another runtime continues where this one stopped. */
  runs: RunApi;
}

const NO_USAGE = { inputTokens: 0, outputTokens: 0 };

// What a turn that ran no model call returns, beside how it ended.
const noTurn = (conversationId: string, ended: Partial<ChatResult<never>>): ChatResult<never> => ({
  conversationId,
  success: true,
  text: '',
  usage: { turns: [], total: NO_USAGE },
  turns: 0,
  finishReason: 'stop',
  ...ended,
});

const cancelled = (conversationId: string): ChatResult<never> =>
  noTurn(conversationId, {
    success: false,
    error: new CairnError('LLM_ABORTED', 'the turn was cancelled before it started'),
    finishReason: 'aborted',
  });

const invalid = (problem: string) => new CairnError('INVALID_ARGUMENT', problem);

// The session the messages a call writes carry; its fields checked first.
function sessionOf(params: Pick<ChatParams, 'mode' | 'agent'>): SessionFields {
  if (params.mode !== undefined && params.mode !== 'chat' && params.mode !== 'agent') {
    throw invalid(
      `mode must be 'chat' or 'agent' (runs have their own API), got ${JSON.stringify(params.mode)}`,
    );
  }
  if (params.agent?.id !== undefined) assertSafeId('agent id', params.agent.id);
  return {
    mode: params.mode ?? 'chat',
    ...(params.agent?.id === undefined ? {} : { agentId: params.agent.id }),
  };
}

// Checked before anything is written: a bad call must not leave half a turn in the store.
function checkChatParams(params: ChatParams<unknown>): SessionFields {
  const { userInput } = params;
  const empty =
    typeof userInput === 'string'
      ? userInput.trim() === ''
      : !Array.isArray(userInput) || userInput.length === 0;
  if (empty) throw invalid('userInput must be non-empty text or a non-empty list of content parts');
  if (params.extraUserMessages?.some((text) => typeof text !== 'string' || text.trim() === '')) {
    throw invalid('extraUserMessages must be non-empty strings');
  }
  if (
    params.branchFrom !== undefined &&
    !(Number.isSafeInteger(params.branchFrom) && params.branchFrom > 0)
  ) {
    throw invalid('branchFrom must be the seq of a user message (a positive integer)');
  }
  return sessionOf(params);
}

// A turn's outcome as `chat` and `resume` return it.
function chatResultOf<OUTPUT>(conversationId: string, turn: TurnResult): ChatResult<OUTPUT> {
  if (turn.waiting !== undefined && turn.loop === undefined) {
    return noTurn(conversationId, { waiting: turn.waiting, finishReason: 'tool_calls' });
  }
  if (turn.idle) return noTurn(conversationId, {});
  const message = turn.errorMessage ?? turn.lastAssistant;
  const object = turn.loop?.success === true && 'object' in turn.loop ? turn.loop.object : undefined;
  return {
    conversationId,
    success: turn.error === undefined,
    // The loop validated it with `params.output`: it is an OUTPUT.
    ...(object === undefined ? {} : { object: object as OUTPUT }),
    ...definedFields({ message, error: turn.error, waiting: turn.waiting }),
    text: turn.loop?.text ?? '',
    usage: turn.loop?.usage ?? { turns: [], total: NO_USAGE },
    turns: turn.loop?.turns ?? 0,
    finishReason: turn.loop?.finishReason ?? 'error',
  };
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
    ...definedFields({ workflows: options.workflows, leaseTtlMs: options.settings?.runs?.leaseTtlMs }),
  });

  // One turn of the caller's session; a caller's telemetry scope (a server request's) makes it its child.
  const playTurn = (
    params: ChatParams<unknown> | ResumeParams,
    conversationId: string,
    session: SessionFields,
    inputs: ConversationMessage[],
    output: Pick<TurnRequest, 'output' | 'outputRetries'> = {},
  ) =>
    runTurn(params.telemetry === undefined ? env : { ...env, telemetry: params.telemetry }, {
      conversationId,
      model: params.model ?? options.model,
      session,
      inputs,
      ...definedFields({
        agent: params.agent,
        dataContext: params.dataContext,
        askedOf: params.askedOf,
        signal: params.signal,
        onEvent: params.onEvent,
        ...output,
      }),
    });

  const runtime: AgentRuntime = {
    runs,
    approvals: createApprovalsApi({ store: env.store, host: env.host, now: env.now }),
    stream<OUTPUT>(params: ChatParams<OUTPUT>): ChatStream<OUTPUT> {
      const conversationId = params.conversationId ?? env.generateId();
      const model = params.model ?? options.model;
      return createChatStream<OUTPUT>({
        conversationId,
        model: `${model.provider}/${model.modelId}`,
        run: (emit) =>
          runtime.chat<OUTPUT>({
            ...params,
            conversationId,
            onEvent: (event) => {
              emit(event);
              params.onEvent?.(event);
            },
          }),
      });
    },
    async chat<OUTPUT>(params: ChatParams<OUTPUT>): Promise<ChatResult<OUTPUT>> {
      const session = checkChatParams(params);
      const conversationId = params.conversationId ?? env.generateId();
      assertSafeId('conversationId', conversationId);
      return queue.run(conversationId, async () => {
        // Cancelled while waiting for the turn before it: nothing was said to anyone, nothing is stored.
        if (params.signal?.aborted) return cancelled(conversationId);
        if (params.branchFrom !== undefined)
          await assertBranchPoint(env.store, conversationId, params.branchFrom);
        const createdAt = env.now().toISOString();
        const inputs = [...(params.extraUserMessages ?? []), params.userInput].map((text) =>
          storedUserMessage(env.generateId(), createdAt, text, session),
        );
        // The first message stored starts the branch; the others follow it.
        if (params.branchFrom !== undefined)
          (inputs[0] as ConversationMessage).branchFrom = params.branchFrom;
        const turn = await playTurn(
          params,
          conversationId,
          session,
          inputs,
          definedFields({
            output: params.output as StructuredOutput<unknown>,
            outputRetries: params.outputRetries,
          }),
        );
        return chatResultOf<OUTPUT>(conversationId, turn);
      });
    },
    async resume(params) {
      const session = sessionOf(params);
      const { conversationId } = params;
      assertSafeId('conversationId', conversationId);
      if (runIdOfConversation(conversationId) !== undefined) {
        throw invalid(`${conversationId} is a workflow run's conversation: continue it with runs.continue`);
      }
      return queue.run(conversationId, async () => {
        if (params.signal?.aborted) return cancelled(conversationId);
        const turn = await playTurn(params, conversationId, session, []);
        return chatResultOf<never>(conversationId, turn);
      });
    },
    async compress(params) {
      const { conversationId } = params;
      assertSafeId('conversationId', conversationId);
      const session = sessionOf(params);
      const model = params.model ?? options.model;
      const pipeline = summarizingPipelineFor(env, model, conversationId);
      return queue.run(conversationId, () =>
        compressConversation(env, { ...params, model, session, pipeline }),
      );
    },
  };
  return runtime;
}
