import { randomUUID } from 'node:crypto';
import {
  CairnError,
  definedFields,
  type MessageContent,
  type ModelAdapter,
  type Telemetry,
  toCairnError,
} from '@cairn/core';
import {
  type ContinuedCall,
  createUIMessageChunkMapper,
  type UIMessageChunk,
  uiTurnOutcome,
} from '@cairn/runtime';
import { createRoute, z } from '@hono/zod-openapi';
import { readMessageContent } from '../attachments/message-content.js';
import {
  approvalResponses,
  type ChatRequest,
  ChatRequestSchema,
  newUserMessage,
} from '../chat/chat-request.js';
import { decideChatApprovals } from '../chat/decide-chat-approvals.js';
import { uiStreamResponse } from '../chat/ui-stream-response.js';
import { apiError, errorResponse, publicTurnError, toPublicError } from '../http/api-error.js';
import { ConversationParamsSchema, SafeIdSchema } from '../http/api-schemas.js';
import { callerId } from '../http/caller-id.js';
import { errorFields } from '../http/error-fields.js';
import type { RouteDeps } from '../route-deps.js';
import type { ServerApp } from '../server-env.js';
import { RunningStreams } from '../streams/running-streams.js';
import { pickModel } from '../turns/pick-model.js';
import { tooManyTurns } from '../turns/registered-turn.js';
import { runConversationTurn } from '../turns/run-conversation-turn.js';
import { storedUserInput } from '../turns/stored-user-input.js';
import type { TurnRouteDeps } from './turn-routes.js';

const UI_STREAM_DESCRIPTION =
  'The AI SDK UI message stream (`x-vercel-ai-ui-message-stream: v1`): `data: <chunk JSON>` events ' +
  '(`start` with `messageMetadata.conversationId`, `start-step`/`finish-step` per model call, text, ' +
  'reasoning, `dynamic` tool input and output parts, `tool-approval-request` for a call that waits for ' +
  'approval (the turn then finishes on `tool-calls`), `tool-output-denied` for a refused one, `error` ' +
  'with `<CairnError code>: <message>`, ' +
  '`finish` with the finish reason and `messageMetadata` { conversationId, model, usage }, or `abort`), ' +
  'then `data: [DONE]`. A `: keep-alive` comment is sent every 15 s.';

const chatRoute = createRoute({
  method: 'post',
  path: '/v1/chat',
  summary: 'Run a chat turn for an AI SDK client (`useChat`, `DefaultChatTransport`)',
  description:
    'Takes what `DefaultChatTransport` from the `ai` package sends and answers with the UI message ' +
    'stream. The chat `id` is the conversation id. `submit-message`: the last message (a user message; ' +
    'its text and file parts, files as base64 data URLs checked like any attachment) is stored and ' +
    'answered; the rest of `messages` is ignored — the context comes from the store. ' +
    'When the last message is the assistant message whose approvals the client answered ' +
    '(`addToolApprovalResponse`; `sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses`), ' +
    'each answer is stored as the decision of its request (by this caller, once: a request decided ' +
    'otherwise or by someone else is 409) and the answer goes on in that message: the approved calls run, ' +
    'the refused ones are denied, the model answers. ' +
    '`regenerate-message`: the last user message is stored again as a branch in its place and answered ' +
    'anew; the log is append-only, so the earlier answer stays stored, off the conversation as it stands ' +
    '(neither the model nor the display view sees it). Disconnecting does not stop the turn (reload and ' +
    'resume with `GET /v1/chat/{id}/stream`); stop it with `POST /v1/conversations/{id}/abort`, and the ' +
    'stream ends with an `abort` chunk.',
  request: {
    body: { required: true, content: { 'application/json': { schema: ChatRequestSchema } } },
  },
  responses: {
    200: {
      description: 'The turn as it happens',
      content: {
        'text/event-stream': { schema: z.string().openapi({ description: UI_STREAM_DESCRIPTION }) },
      },
    },
    400: errorResponse(
      'Invalid id or body; the last message neither a user message nor answered approvals; a refused attachment',
    ),
    403: errorResponse('An answered approval is asked of another caller (`APPROVAL_FORBIDDEN`)'),
    404: errorResponse('No such approval request (`APPROVAL_NOT_FOUND`)'),
    409: errorResponse('An answered approval was decided otherwise already (`APPROVAL_ALREADY_DECIDED`)'),
    410: errorResponse('An answered approval expired (`APPROVAL_EXPIRED`)'),
    413: errorResponse('Body, or the attachments in total, over the size limit'),
    415: errorResponse('An attachment of a media type not allowed'),
    429: errorResponse('Too many turns running on this instance; retry after `Retry-After` seconds'),
  },
});

const resumeRoute = createRoute({
  method: 'get',
  path: '/v1/chat/{id}/stream',
  summary: 'Resume the UI message stream of the running chat turn (`useChat({ resume: true })`)',
  description:
    'The running `POST /v1/chat` turn of this conversation on this instance, from its first chunk ' +
    '(the chunks so far, then live), or 204 when none runs.',
  request: { params: ConversationParamsSchema },
  responses: {
    200: {
      description: 'The running turn',
      content: {
        'text/event-stream': { schema: z.string().openapi({ description: UI_STREAM_DESCRIPTION }) },
      },
    },
    204: { description: 'No chat turn of the conversation runs in this server (any of its workers)' },
    400: errorResponse('Invalid id'),
  },
});

export type ChatRouteDeps = TurnRouteDeps & Pick<RouteDeps, 'streamPeers'>;

/** What a chat turn answers: the user's words, or (absent) the approvals the client answered. */
interface ChatTurnInput {
  askedOf: string;
  content?: MessageContent;
  branchFrom?: number;
  model?: ModelAdapter | undefined;
  /** The calls of the client's message the answer goes on in (answered approvals). */
  continuing?: ContinuedCall[];
}

/**
 * The AI SDK UI message stream endpoints: an app built on `useChat` talks to the server unchanged.
 * Turns run like `POST /v1/conversations/{id}/messages` ones (turn lock, registry, abort, storage).
 */
export function registerChatRoutes(app: ServerApp, deps: ChatRouteDeps): void {
  const { registry } = deps;
  const running = new RunningStreams<UIMessageChunk>(deps.streamPeers?.('ui'));
  const streamFailed = (error: unknown) => deps.logger.error(errorFields(error), 'chat stream failed');

  // Starts the turn, detached from the request: its chunks go to a log every reader replays.
  function startTurn(
    conversationId: string,
    input: ChatTurnInput,
    controller: AbortController,
    telemetry?: Telemetry,
  ) {
    const { log, finish } = running.begin(conversationId);
    const mapper = createUIMessageChunkMapper(conversationId, {
      // A continued message keeps the client's id.
      ...(input.continuing === undefined ? { messageId: randomUUID() } : { continuing: input.continuing }),
      // Never the backend's own words (a store outage names hosts): as the other turn routes say it.
      onError: (error) => `${error.code}: ${publicTurnError(error).message}`,
    });
    const push = (chunks: UIMessageChunk[]) => {
      for (const chunk of chunks) log.push(chunk);
    };
    registry
      .track(
        runConversationTurn(deps, {
          conversationId,
          askedOf: input.askedOf,
          signal: controller.signal,
          onStarted: () => registry.started(controller),
          ...definedFields({
            telemetry,
            content: input.content,
            branchFrom: input.branchFrom,
            model: input.model,
          }),
          onEvent: (event) => push(mapper.push(event)),
        }),
      )
      .then(
        (result) => push(mapper.end(uiTurnOutcome(result))),
        // A thrown turn (the lock or the store failed) ends the stream as a failure, never silently.
        (error: unknown) => {
          deps.logger.error({ conversationId, ...errorFields(error) }, 'chat turn failed');
          push(
            mapper.end({
              conversationId,
              finishReason: 'error',
              error: toCairnError(error, 'STORE_UNAVAILABLE'),
            }),
          );
        },
      )
      .finally(() => {
        finish();
        registry.end(conversationId, controller);
      });
    return log;
  }

  app.openapi(chatRoute, async (c) => {
    const request: ChatRequest = c.req.valid('json');
    const id = SafeIdSchema.safeParse(request.id);
    if (!id.success) return apiError(c, 400, 'INVALID_ID', 'body.id: not a valid conversation id');
    const conversationId = id.data;
    const askedOf = callerId(c);
    let input: ChatTurnInput;
    try {
      const model = pickModel(deps.models, request.model);
      const answered = request.trigger === 'submit-message' ? approvalResponses(request) : undefined;
      if (answered !== undefined) {
        const continuing = await decideChatApprovals(deps.runtime, conversationId, answered, askedOf);
        input = { askedOf, continuing, model };
      } else if (request.trigger === 'regenerate-message') {
        const { content, seq } = await storedUserInput(deps.store, conversationId);
        input = { askedOf, content, branchFrom: seq, model };
      } else {
        const read = await readMessageContent(c, newUserMessage(request), deps.attachments);
        if ('refused' in read) return read.refused as never;
        input = { askedOf, content: read.content, model };
      }
    } catch (error) {
      const refused = CairnError.is(error) ? toPublicError(error) : undefined;
      if (refused === undefined || refused.status >= 500) throw error;
      return apiError(c, refused.status, refused.code, refused.message) as never;
    }
    const controller = registry.begin(conversationId);
    if (controller === undefined) return tooManyTurns(c);
    const log = startTurn(conversationId, input, controller, c.get('telemetry'));
    return uiStreamResponse(c, log.read(), deps.streamLimits, streamFailed) as never;
  });

  app.openapi(resumeRoute, async (c) => {
    const { id } = c.req.valid('param');
    // Here, or in a cluster the worker that runs the turn.
    const stream = await running.resume(id);
    if (stream === undefined) return c.body(null, 204);
    return uiStreamResponse(c, stream, deps.streamLimits, streamFailed) as never;
  });
}
