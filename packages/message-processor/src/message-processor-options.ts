import type { AgentOutput, ConversationMessage, ConversationMode } from '@cairn/core';
import type { DisplayOptions } from './create-display-projector.js';

/** Default wait for a tool result before the call is recorded as interrupted: 10 minutes. */
export const DEFAULT_PENDING_TIMEOUT_MS = 600_000;

export interface MessageProcessorOptions extends DisplayOptions {
  /** Each log message, in order, ready to persist (protocol-shaped: calls, then their results). */
  onLogMessage(message: ConversationMessage): void;
  /** The display view of the same log (see `createDisplayProjector`); off when absent. */
  onDisplayMessage?(message: ConversationMessage): void;
  /**
   * Live display, ahead of the log: when a call starts (`tool_use`), the text and reasoning its
   * assistant message has so far (each once, again only if it grew) and the call as a `running`
   * `tool_execution`, with the ids the log's display view gives them, so the finished execution
   * replaces the running one in place (`LiveDisplay` joins the two streams). The log is the same
   * with or without it: a running call is a display event, never stored, and a reloaded
   * conversation shows the finished view.
   */
  onLiveDisplayMessage?(message: ConversationMessage): void;
  /**
   * A call with no result after this long gets an interrupted result in the log, so a stalled
   * agent never holds memory or leaves the log incomplete. Default 10 minutes; `Infinity` waits
   * until `end()`.
   */
  pendingTimeoutMs?: number;
  /** Copied onto every log message (read once, when the processor is made). */
  messageFields?: MessageFields;
  /** Clock for durations and timeouts (milliseconds). */
  now?: () => number;
  /** Ids of new log messages. */
  generateId?: () => string;
}

/** Which session wrote the messages: set on every log message. */
export interface MessageFields {
  mode?: ConversationMode;
  runId?: string;
  agentId?: string;
}

export interface MessageProcessor {
  push(event: AgentOutput): void;
  /** The stream is over: the open message is emitted and waiting calls get interrupted results. */
  end(reason?: string): void;
  /** Calls still waiting for a result. */
  readonly pendingToolCalls: number;
}
