import { CairnError, definedFields } from '@cairn/core';
import { z } from '@hono/zod-openapi';
import type { PostMessageBody } from '../attachments/message-content.js';

// What the AI SDK's `UIMessage` part types the server reads; other parts pass the schema untouched.
const UIMessagePartSchema = z
  .object({
    type: z.string(),
    text: z.string().optional(),
    mediaType: z.string().optional(),
    url: z.string().optional(),
    filename: z.string().optional(),
    // A tool part's state and (answered by `addToolApprovalResponse`) its approval.
    state: z.string().optional(),
    approval: z
      .object({ id: z.string(), approved: z.boolean().optional(), reason: z.string().optional() })
      .passthrough()
      .optional(),
  })
  .passthrough();

const UIMessageSchema = z
  .object({
    id: z.string(),
    role: z.enum(['system', 'user', 'assistant']),
    parts: z.array(UIMessagePartSchema),
    metadata: z.unknown().optional(),
  })
  .passthrough()
  .openapi('UIMessage');

/** The body `DefaultChatTransport` from the `ai` package posts (plus any `body` the app adds). */
export const ChatRequestSchema = z
  .object({
    id: z.string().openapi({ description: 'The chat id: the Cairn conversation id (created when absent)' }),
    messages: z.array(UIMessageSchema).openapi({
      description:
        'The chat as the client has it. Only the last message is read (on `submit-message`): a new user ' +
        'message, or the assistant message whose approvals the client answered ' +
        '(`addToolApprovalResponse`); the context comes from the server’s store, never from this list.',
    }),
    trigger: z.enum(['submit-message', 'regenerate-message']).default('submit-message'),
    messageId: z.string().optional(),
    model: z.string().min(1).max(200).optional().openapi({
      description:
        'One of the server’s models (`GET /v1/models`) for this turn (`useChat`: `body: { model }`)',
    }),
  })
  .passthrough()
  .openapi('ChatRequest');

export type ChatRequest = z.infer<typeof ChatRequestSchema>;
type UIMessagePart = z.infer<typeof UIMessagePartSchema>;

const DATA_URL = /^data:([^;,]+)?(?:;[^;,]*)*;base64,(.*)$/s;

// A file part of a `UIMessage` as an upload: the client sends files as data URLs
// (`convertFileListToFileUIParts`); a remote URL is refused (the server fetches nothing).
function uploadOf(part: UIMessagePart, index: number): Exclude<PostMessageBody['content'], string>[number] {
  const match = DATA_URL.exec(part.url ?? '');
  if (match === null) {
    throw new CairnError(
      'INVALID_ARGUMENT',
      `messages[-1].parts[${index}]: a file must come as a base64 data URL`,
    );
  }
  const mediaType = part.mediaType ?? match[1] ?? 'application/octet-stream';
  return {
    type: mediaType.startsWith('image/') ? 'image' : 'file',
    mediaType,
    source: { type: 'base64', data: match[2] ?? '' },
    ...definedFields({ fileName: part.filename }),
  };
}

/**
 * The new user message of a `submit-message` request as a posted message's content (text and file
 * parts in order; other parts, such as `step-start` or `data-*`, are not the user's words).
 */
export function newUserMessage(request: ChatRequest): PostMessageBody {
  const last = request.messages.at(-1);
  if (last?.role !== 'user') {
    throw new CairnError('INVALID_ARGUMENT', 'messages: the last message must be the new user message');
  }
  const content = last.parts.flatMap((part, index) => {
    if (part.type === 'text') return [{ type: 'text' as const, text: part.text ?? '' }];
    if (part.type === 'file') return [uploadOf(part, index)];
    return [];
  });
  if (content.length === 0) throw new CairnError('INVALID_ARGUMENT', 'messages[-1]: no text or file part');
  // Plain text is stored as text, as `POST …/messages` with a string stores it.
  const [only] = content;
  if (content.length === 1 && only?.type === 'text') return { content: only.text };
  return { content };
}

/** An approval the client answered: a tool part of the last message in state `approval-responded`. */
export interface ApprovalResponse {
  approvalId: string;
  approved: boolean;
  reason?: string;
}

const isToolPart = (part: UIMessagePart) => part.type === 'dynamic-tool' || part.type.startsWith('tool-');

/**
 * The approvals answered in the last message, when it is the assistant's (what `useChat` sends back
 * after `addToolApprovalResponse`, with `sendAutomaticallyWhen`); undefined when it is a user message.
 */
export function approvalResponses(request: ChatRequest): ApprovalResponse[] | undefined {
  const last = request.messages.at(-1);
  if (last?.role !== 'assistant') return undefined;
  const answered = last.parts.flatMap((part): ApprovalResponse[] => {
    const { approval } = part;
    if (!isToolPart(part) || part.state !== 'approval-responded') return [];
    if (approval?.approved === undefined) return [];
    return [
      {
        approvalId: approval.id,
        approved: approval.approved,
        ...definedFields({ reason: approval.reason }),
      },
    ];
  });
  if (answered.length === 0) {
    throw new CairnError(
      'INVALID_ARGUMENT',
      'messages: the last message must be the new user message, or an assistant message with answered approvals',
    );
  }
  return answered;
}
