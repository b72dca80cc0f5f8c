import type { AgentOutput, ConversationMessage, ConversationSummary } from '@cairn/core';
import { definedFields } from '@cairn/core';
import { readServerSentEvents } from './sse-reader.js';
import { readToken } from './token-store.js';

/** A row of `GET /v1/conversations` (the store's summary, as JSON). */
export type { ConversationSummary };

/** What a streamed turn reports, in order. */
export type TurnEvent =
  | { type: 'agent_output'; output: AgentOutput }
  | { type: 'message'; message: ConversationMessage }
  | { type: 'done'; success: boolean; error?: { code: string; message: string } };

/** The server wants a (valid) bearer token. */
export class UnauthorizedError extends Error {
  constructor() {
    super('a valid API token is required');
    this.name = 'UnauthorizedError';
  }
}

/** Any other error answer: `{ error: { code, message } }`. */
export class ApiRequestError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'ApiRequestError';
  }
}

// The server's `limit` maximum for the display view.
const DISPLAY_PAGE_SIZE = 1000;

export const conversationPath = (id: string) => `/v1/conversations/${encodeURIComponent(id)}`;

export async function request(path: string, init: RequestInit = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  const token = readToken();
  if (token !== undefined) headers.set('authorization', `Bearer ${token}`);
  const response = await fetch(path, { ...init, headers });
  if (response.status === 401) throw new UnauthorizedError();
  if (!response.ok) throw await errorOf(response);
  return response;
}

async function errorOf(response: Response): Promise<ApiRequestError> {
  const body = (await response.json().catch(() => undefined)) as
    | { error?: { code?: string; message?: string } }
    | undefined;
  const { code = 'HTTP_ERROR', message = `the server answered ${response.status}` } = body?.error ?? {};
  return new ApiRequestError(response.status, code, message);
}

export async function json<T>(path: string, init?: RequestInit): Promise<T> {
  return (await (await request(path, init)).json()) as T;
}

export const postJson = (body: unknown, extraHeaders: Record<string, string> = {}): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', ...extraHeaders },
  body: JSON.stringify(body),
});

export async function listConversations(): Promise<ConversationSummary[]> {
  const page = await json<{ conversations: ConversationSummary[] }>('/v1/conversations?limit=100');
  return page.conversations;
}

/** A model a turn may pick (`GET /v1/models`). */
export interface OfferedModel {
  id: string;
  provider: string;
  /** What a turn that names no model uses. */
  default: boolean;
}

export async function listModels(): Promise<OfferedModel[]> {
  return (await json<{ models: OfferedModel[] }>('/v1/models')).models;
}

// A turn's query: the message it replaces, the model it asks for.
function turnQuery(options: { branchFrom?: number | undefined; model?: string | undefined }): string {
  const query = new URLSearchParams();
  if (options.branchFrom !== undefined) query.set('branchFrom', String(options.branchFrom));
  if (options.model !== undefined) query.set('model', options.model);
  const text = query.toString();
  return text === '' ? '' : `?${text}`;
}

/** A fresh conversation id; the conversation exists once its first message is posted. */
export async function createConversation(): Promise<string> {
  return (await json<{ id: string }>('/v1/conversations', postJson({}))).id;
}

/** The conversation as a UI shows it (tool calls merged with their results); empty when it has no messages yet. */
export async function loadDisplayMessages(id: string, signal?: AbortSignal): Promise<ConversationMessage[]> {
  const messages: ConversationMessage[] = [];
  const seen = new Set<string>();
  let fromSeq = 1;
  for (;;) {
    const query = `view=display&limit=${DISPLAY_PAGE_SIZE}&fromSeq=${fromSeq}`;
    let page: ConversationMessage[];
    try {
      page = (
        await json<{ messages: ConversationMessage[] }>(`${conversationPath(id)}/messages?${query}`, {
          ...definedFields({ signal }),
        })
      ).messages;
    } catch (error) {
      if (error instanceof ApiRequestError && error.status === 404) return messages;
      throw error;
    }
    // Display messages of one log message share its seq: the next page starts at the last seq again.
    for (const message of page) {
      if (seen.has(message.id)) continue;
      seen.add(message.id);
      messages.push(message);
    }
    const lastSeq = page.at(-1)?.seq;
    if (page.length < DISPLAY_PAGE_SIZE || lastSeq === undefined || lastSeq <= fromSeq) return messages;
    fromSeq = lastSeq;
  }
}

// Text alone goes as JSON; with files, as multipart/form-data (the text field, then the files in order).
function messageBody(content: string, files: readonly File[]): RequestInit {
  if (files.length === 0) return postJson({ content }, { accept: 'text/event-stream' });
  const form = new FormData();
  if (content.trim() !== '') form.append('content', content);
  for (const file of files) form.append('file', file, file.name);
  return { method: 'POST', headers: { accept: 'text/event-stream' }, body: form };
}

/** How a turn is asked for: in place of the user message at `branchFrom` (an edit), on `model`. */
export interface TurnOptions {
  branchFrom?: number | undefined;
  model?: string | undefined;
}

/**
 * Posts a user message (its text and any attached files) and reports the turn as it runs; resolves
 * after `done` (or when the stream breaks). A refused attachment is an `ApiRequestError` (413, 415, 400).
 */
export async function sendMessage(
  id: string,
  content: string,
  files: readonly File[],
  onEvent: (event: TurnEvent) => void,
  signal?: AbortSignal,
  options: TurnOptions = {},
): Promise<void> {
  const response = await request(`${conversationPath(id)}/messages${turnQuery(options)}`, {
    ...messageBody(content, files),
    ...definedFields({ signal }),
  });
  await readTurnEvents(response, onEvent);
}

/** Answers the user message at `seq` again (a regeneration, or a retry after a failure), reporting the turn. */
export async function regenerateAnswer(
  id: string,
  seq: number,
  onEvent: (event: TurnEvent) => void,
  signal?: AbortSignal,
  model?: string,
): Promise<void> {
  const response = await request(`${conversationPath(id)}/regenerate${turnQuery({ model })}`, {
    ...postJson({ seq }, { accept: 'text/event-stream' }),
    ...definedFields({ signal }),
  });
  await readTurnEvents(response, onEvent);
}

/**
 * Follows the conversation's running turn, whoever started it (another tab, this page before a reload,
 * another client): its events from the first, then live, until `done`. False when no turn runs.
 */
export async function followRunningTurn(
  id: string,
  onEvent: (event: TurnEvent) => void,
  signal: AbortSignal,
): Promise<boolean> {
  const response = await request(`${conversationPath(id)}/turn`, {
    headers: { accept: 'text/event-stream' },
    signal,
  });
  if (response.status === 204) return false;
  await readTurnEvents(response, onEvent);
  return true;
}

/** Reads a turn's event stream (`POST …/messages`, `GET …/turn`, a decision's) until `done`. */
export async function readTurnEvents(response: Response, onEvent: (event: TurnEvent) => void): Promise<void> {
  if (response.body === null) return;
  for await (const event of readServerSentEvents(response.body)) {
    const data = JSON.parse(event.data) as unknown;
    if (event.event === 'agent_output') onEvent({ type: 'agent_output', output: data as AgentOutput });
    else if (event.event === 'message') onEvent({ type: 'message', message: data as ConversationMessage });
    else if (event.event === 'done') {
      onEvent({ type: 'done', ...(data as Omit<Extract<TurnEvent, { type: 'done' }>, 'type'>) });
      return;
    }
  }
}

/** The bytes of a stored image or file part, fetched with the token (an `<img src>` could not send it). */
export async function fetchAttachment(id: string, sha256: string, signal?: AbortSignal): Promise<Blob> {
  return (
    await request(`${conversationPath(id)}/attachments/${encodeURIComponent(sha256)}`, {
      ...definedFields({ signal }),
    })
  ).blob();
}

/** What a conversation's live feed reports. */
export type FeedEvent =
  /** A stored message; `id` is the event's `<seq>-<epoch>`, the point to resume after it. */
  | { type: 'message'; message: ConversationMessage; id: string | undefined }
  /**
   * The conversation the feed followed is gone: deleted, or deleted and created again under the same
   * id (its seqs start again at 1). The server ends the stream after it.
   */
  | { type: 'deleted' };

/**
 * Where a feed starts: after `lastEventId` (an `id` the feed sent, `<seq>-<epoch>`, which the server
 * checks is still this conversation's; a bare seq is only checked to exist), or at `fromSeq` with no
 * check at all.
 */
export type FeedStart = { lastEventId: string } | { fromSeq: number };

/** Reports the conversation's stored messages from `start`, live, until the stream ends or `signal` aborts. */
export async function followMessages(
  id: string,
  start: FeedStart,
  onEvent: (event: FeedEvent) => void,
  signal: AbortSignal,
): Promise<void> {
  const resume = 'lastEventId' in start;
  const response = await request(
    `${conversationPath(id)}/events${resume ? '' : `?fromSeq=${start.fromSeq}`}`,
    {
      headers: { accept: 'text/event-stream', ...(resume ? { 'last-event-id': start.lastEventId } : {}) },
      signal,
    },
  );
  if (response.body === null) return;
  for await (const event of readServerSentEvents(response.body)) {
    if (event.event === 'message') {
      onEvent({ type: 'message', message: JSON.parse(event.data) as ConversationMessage, id: event.id });
    } else if (event.event === 'deleted') {
      onEvent({ type: 'deleted' });
      return;
    }
  }
}

/** Asks the server to abort the conversation's running turn (not one queued behind it); whether one was running. */
export async function abortTurn(id: string): Promise<boolean> {
  return (await json<{ aborted: boolean }>(`${conversationPath(id)}/abort`, { method: 'POST' })).aborted;
}
