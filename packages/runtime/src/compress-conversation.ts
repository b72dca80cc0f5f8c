import type { CompressionPipeline } from '@cairn/compression';
import { CairnError, definedFields, type ModelAdapter } from '@cairn/core';
import { createConversationWriter } from './conversation-writer.js';
import type { CompressResult, RuntimeEventListener } from './runtime-types.js';
import { buildTurnContext, compressTurnContext, type TurnContextRequest } from './turn-context.js';
import type { TurnEnvironment } from './turn-environment.js';

/**
 * The pipeline `compress` forces, or `INVALID_ARGUMENT`. It must summarise: only a summary outlasts
 * the call (as a compaction record); cut tool outputs and left-out turns would be back in the next
 * turn's request, which is built from the store.
 */
export function summarizingPipelineFor(
  env: Pick<TurnEnvironment, 'pipelineFor'>,
  model: ModelAdapter,
  conversationId: string,
): CompressionPipeline {
  const pipeline = env.pipelineFor(model, conversationId);
  if (pipeline === undefined) {
    throw new CairnError('INVALID_ARGUMENT', 'compression is turned off for this runtime');
  }
  if (pipeline.summarizer === undefined) {
    throw new CairnError(
      'INVALID_ARGUMENT',
      'compress stores a summary, and this runtime does not summarise (compression.summarize is false)',
    );
  }
  return pipeline;
}

export interface ConversationCompression extends TurnContextRequest {
  conversationId: string;
  pipeline: CompressionPipeline;
  signal?: AbortSignal;
  onEvent?: RuntimeEventListener;
}

/**
 * `runtime.compress` (a user's `/compress`; the caller runs it on the conversation's queue): the
 * request the next turn would send, built from the store as a turn builds it, compressed now
 * whatever its usage, its summary stored as a compaction record — the next turn sends that and
 * does not summarise again. `STORE_NOT_FOUND` for a conversation without messages.
 */
export async function compressConversation(
  env: TurnEnvironment,
  request: ConversationCompression,
): Promise<CompressResult> {
  const { conversationId, pipeline } = request;
  const history = await env.store.load(conversationId);
  if (history.length === 0) {
    throw new CairnError('STORE_NOT_FOUND', `Conversation ${conversationId} has no messages`, {
      details: { conversationId },
    });
  }
  const writer = createConversationWriter(env, conversationId, request.onEvent);
  const context = buildTurnContext(env, request, { history, host: env.host, pipeline });
  const { result, records } = await compressTurnContext(env, writer, {
    conversationId,
    pipeline,
    context,
    session: request.session,
    force: true,
    ...definedFields({ signal: request.signal }),
  });
  return {
    conversationId,
    compressed: result.compressed,
    tokensBefore: result.before.tokens,
    tokensAfter: result.after.tokens,
    steps: result.steps.map((step) => step.step),
    summaries: records.length,
    ...definedFields({ reason: result.reason }),
  };
}
