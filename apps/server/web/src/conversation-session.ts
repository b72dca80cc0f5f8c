import type { ConversationMessage } from '@cairn/core';
import {
  abortTurn,
  followMessages,
  loadDisplayMessages,
  sendMessage,
  type TurnEvent,
  UnauthorizedError,
} from './api-client.js';
import { LiveDisplay } from './live-display.js';

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
  turnRunning: boolean;
  error: string | undefined;
}

export interface SessionHooks {
  onUnauthorized(): void;
  /** A turn ended: the conversation list may have changed. */
  onTurnEnd(): void;
}

const INITIAL_STATE: ConversationViewState = {
  loading: true,
  messages: [],
  draft: '',
  runningTools: [],
  sentText: undefined,
  turnRunning: false,
  error: undefined,
};

// Reconnecting the live feed: quickly at first, then backing off while the server is away.
const FIRST_RETRY_MS = 500;
const MAX_RETRY_MS = 10_000;

/**
 * One open conversation: its display view, kept live from one source at a time — the turn's own
 * event stream while this page runs a turn, else the conversation's `/events` feed (turns run
 * from elsewhere).
 */
export class ConversationSession {
  private state = INITIAL_STATE;
  private display = new LiveDisplay([]);
  private readonly listeners = new Set<() => void>();
  private readonly lifetime = new AbortController();
  private feed: AbortController | undefined;

  constructor(
    readonly conversationId: string,
    private readonly hooks: SessionHooks,
  ) {}

  get snapshot(): ConversationViewState {
    return this.state;
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async open(): Promise<void> {
    await this.reload();
    this.update({ loading: false });
    this.startFeed();
  }

  close(): void {
    this.lifetime.abort();
    this.listeners.clear();
  }

  async send(content: string): Promise<void> {
    if (this.state.turnRunning || this.closed) return;
    this.stopFeed();
    this.update({ turnRunning: true, sentText: content, draft: '', runningTools: [], error: undefined });
    try {
      await sendMessage(
        this.conversationId,
        content,
        (event) => this.onTurnEvent(event),
        this.lifetime.signal,
      );
    } catch (error) {
      this.fail(error);
    }
    if (this.closed) return;
    this.update({ turnRunning: false, sentText: undefined, draft: '', runningTools: [] });
    if (this.display.needsReload) await this.reload();
    this.startFeed();
    this.hooks.onTurnEnd();
  }

  async abort(): Promise<void> {
    try {
      await abortTurn(this.conversationId);
    } catch (error) {
      this.fail(error);
    }
  }

  private get closed(): boolean {
    return this.lifetime.signal.aborted;
  }

  private onTurnEvent(event: TurnEvent): void {
    if (event.type === 'message') {
      this.showStored(event.message);
    } else if (event.type === 'agent_output') {
      const { output } = event;
      if (output.type === 'text_delta') this.update({ draft: this.state.draft + output.delta });
      else if (output.type === 'tool_use') {
        this.update({
          runningTools: [...this.state.runningTools, { id: output.id, toolName: output.toolName }],
        });
      }
    } else if (!event.success && event.error !== undefined && !this.endsWithStoredError()) {
      // A failure the log does not record (an outage): only the turn's last event says what happened.
      this.update({ error: event.error.message });
    }
  }

  private showStored(message: ConversationMessage): void {
    const shown = this.display.push(message);
    const finished = new Set(shown.map((display) => display.toolExecution?.toolUseId));
    this.update({
      messages: this.display.messages(),
      ...(message.role === 'user' ? { sentText: undefined } : {}),
      // The stored assistant message holds the text streamed so far.
      ...(message.role === 'assistant' ? { draft: '' } : {}),
      runningTools: this.state.runningTools.filter((tool) => !finished.has(tool.id)),
    });
  }

  private endsWithStoredError(): boolean {
    return this.state.messages.at(-1)?.partType === 'error';
  }

  private async reload(): Promise<void> {
    try {
      this.display = new LiveDisplay(await loadDisplayMessages(this.conversationId, this.lifetime.signal));
      this.update({ messages: this.display.messages() });
    } catch (error) {
      this.fail(error);
    }
  }

  private startFeed(): void {
    if (this.closed) return;
    this.stopFeed();
    const feed = new AbortController();
    this.feed = feed;
    void this.follow(feed.signal);
  }

  private stopFeed(): void {
    this.feed?.abort();
    this.feed = undefined;
  }

  private async follow(signal: AbortSignal): Promise<void> {
    let retryMs = FIRST_RETRY_MS;
    const stopped = () => signal.aborted || this.closed;
    while (!stopped()) {
      // One connection: dropped early when the feed brings something only a reload can show.
      const connection = new AbortController();
      try {
        await followMessages(
          this.conversationId,
          this.display.lastSeq,
          (message) => {
            retryMs = FIRST_RETRY_MS;
            this.showStored(message);
            if (this.display.needsReload) connection.abort();
          },
          AbortSignal.any([signal, connection.signal]),
        );
      } catch (error) {
        if (stopped()) return;
        if (error instanceof UnauthorizedError) return this.fail(error);
      }
      if (this.display.needsReload) {
        await this.reload();
        continue;
      }
      await sleep(retryMs, signal);
      retryMs = Math.min(retryMs * 2, MAX_RETRY_MS);
    }
  }

  private fail(error: unknown): void {
    if (this.closed) return;
    if (error instanceof UnauthorizedError) {
      this.hooks.onUnauthorized();
      return;
    }
    if (error instanceof DOMException && error.name === 'AbortError') return;
    this.update({ error: error instanceof Error ? error.message : String(error) });
  }

  private update(change: Partial<ConversationViewState>): void {
    this.state = { ...this.state, ...change };
    for (const listener of this.listeners) listener();
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}
