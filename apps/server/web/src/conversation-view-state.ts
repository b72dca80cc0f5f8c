import type { ConversationMessage } from '@cairn/core';

/** A tool the model called whose result has not been stored yet. */
export interface RunningTool {
  id: string;
  toolName: string;
}

export interface ConversationViewState {
  loading: boolean;
  /** The display view: stored messages, tool calls merged with their results. */
  messages: readonly ConversationMessage[];
  /** Reply text streamed by the model and not stored yet. */
  draft: string;
  runningTools: readonly RunningTool[];
  /** The message being sent, until the server has stored it. */
  sentText: string | undefined;
  /** The names of the files sent with it. */
  sentFiles: readonly string[];
  /** A turn runs: sent from here, from another tab, or by another client. */
  turnRunning: boolean;
  /** A message sent while a turn ran: it goes when that turn ends. */
  queued: { text: string; files: readonly string[] } | undefined;
  error: string | undefined;
  /** The conversation was deleted while open (and has not been created again). */
  deleted: boolean;
}

export interface SessionHooks {
  onUnauthorized(): void;
  /** A message was stored in the conversation (by this page or anyone else). */
  onMessageStored(message: ConversationMessage): void;
  /** A turn ended: the conversation list may have changed. */
  onTurnEnd(): void;
  /** The conversation was deleted, or created again after that: the conversation list has changed. */
  onListChanged(): void;
}

export const INITIAL_STATE: ConversationViewState = {
  loading: true,
  messages: [],
  draft: '',
  runningTools: [],
  sentText: undefined,
  sentFiles: [],
  turnRunning: false,
  queued: undefined,
  error: undefined,
  deleted: false,
};
