import { type CompressionPipeline, type CompressionResult, createCompactionRecord } from '@cairn/compression';
import {
  buildLlmMessagesFromConversation,
  type LayeredToolPolicy,
  type RunContext,
} from '@cairn/context-builder';
import { type ConversationMessage, definedFields, type ModelAdapter, type ModelMessage } from '@cairn/core';
import type { ToolRegistry } from '@cairn/loop';
import type { ConversationWriter } from './conversation-writer.js';
import { messagesForProvider } from './messages-for-provider.js';
import type { CompressionTrigger, RuntimeAgent } from './runtime-types.js';
import type { SessionFields } from './stored-messages.js';
import type { TurnEnvironment } from './turn-environment.js';

/** What shapes a turn's context besides the history: who it is for. */
export interface TurnContextRequest {
  model: ModelAdapter;
  session: SessionFields;
  agent?: RuntimeAgent;
  runContext?: RunContext;
  /** Facts for this turn only: added to the system prompt, not stored. */
  dataContext?: string | Record<string, unknown>;
}

export interface TurnContextSources {
  /** The conversation log, as the store loads it. */
  history: readonly ConversationMessage[];
  /** The tools of the turn (the runtime's, and the turn's own). */
  host: ToolRegistry;
  /** Counts tokens as compression will (none when compression is off). */
  pipeline: CompressionPipeline | undefined;
}

/** A turn's request before its tool loop. */
export interface TurnContext {
  messages: ModelMessage[];
  /** The log `seq` each of `messages` came from: what a compaction record covers. */
  sourceSeqs: (number | undefined)[];
}

/** The tool policy of a turn: the system's, narrowed by the agent's. */
export function turnToolPolicy(
  env: Pick<TurnEnvironment, 'toolPolicy'>,
  agent: RuntimeAgent | undefined,
): LayeredToolPolicy {
  return {
    ...definedFields({ system: env.toolPolicy, agent: agent?.toolPolicy }),
  };
}

function dataContextText(dataContext: string | Record<string, unknown>): string {
  return typeof dataContext === 'string' ? dataContext : JSON.stringify(dataContext, null, 2);
}

/**
 * The stored history as `request.model`'s context: system prompt, compaction records,
 * repaired tool pairs (`@cairn/context-builder`), only this provider's metadata, and the turn's
 * data context in the system prompt.
 */
export function buildTurnContext(
  env: Pick<TurnEnvironment, 'toolPolicy' | 'modeProfiles' | 'maxToolResultChars'>,
  request: TurnContextRequest,
  { history, host, pipeline }: TurnContextSources,
): TurnContext {
  const { agent } = request;
  const built = buildLlmMessagesFromConversation({
    messages: history,
    mode: request.session.mode,
    ...definedFields({ agent }),
    tools: host.tools,
    toolPolicy: turnToolPolicy(env, agent),
    ...definedFields({ runContext: request.runContext }),
    settings: {
      ...(pipeline === undefined ? {} : { tokenizer: pipeline.tokenizer }),
      ...definedFields({ modeProfiles: env.modeProfiles, maxToolResultChars: env.maxToolResultChars }),
    },
  });
  const messages = messagesForProvider(built.messages, request.model.provider);
  const [system] = messages;
  if (request.dataContext !== undefined && system?.role === 'system') {
    messages[0] = {
      ...system,
      content: `${system.content}\n\nContext for this request:\n${dataContextText(request.dataContext)}`,
    };
  }
  return { messages, sourceSeqs: built.sourceSeqs };
}

export interface TurnContextCompression {
  conversationId: string;
  pipeline: CompressionPipeline;
  context: TurnContext;
  session: SessionFields;
  /** Compress now, whatever the usage (`runtime.compress`); otherwise only over the trigger. */
  force?: boolean;
  /** Why it compresses when not over the trigger, for the `compression_applied` event. */
  trigger?: CompressionTrigger;
  signal?: AbortSignal;
}

export interface CompressedTurnContext {
  result: CompressionResult;
  /** The compaction records stored: the summaries the next builds send in place of their ranges. */
  records: ConversationMessage[];
}

/**
 * Compresses a turn's context and keeps what can last: each summary is stored as a compaction
 * record, so the next turn reuses it instead of summarising again. The caller hears
 * `compression_applied` when anything changed.
 */
export async function compressTurnContext(
  env: Pick<TurnEnvironment, 'generateId' | 'now' | 'logger'>,
  writer: ConversationWriter,
  { conversationId, pipeline, context, session, force = false, trigger, signal }: TurnContextCompression,
): Promise<CompressedTurnContext> {
  const options = signal === undefined ? {} : { signal };
  const result = force
    ? await pipeline.compressNow(context.messages, options)
    : await pipeline.compressIfNeeded(context.messages, options);
  if (result.compressed === false) return { result, records: [] };
  const tokensBefore = result.before.tokens;
  const tokensAfter = result.after.tokens;
  writer.emit({
    type: 'runtime',
    event: 'compression_applied',
    conversationId,
    compressed: result.compressed,
    tokensBefore,
    tokensAfter,
    steps: result.steps.map((step) => step.step),
    ...definedFields({ trigger }),
  });
  env.logger?.info({ conversationId, tokensBefore, tokensAfter }, 'context compressed');
  const records = result.summaries.flatMap((summary) => {
    const record = createCompactionRecord({
      id: env.generateId(),
      createdAt: env.now().toISOString(),
      summary,
      sourceSeqs: context.sourceSeqs,
      ...session,
    });
    return record === undefined ? [] : [record];
  });
  return { result, records: await writer.persist(records) };
}
