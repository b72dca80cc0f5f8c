import type { ConversationMessage } from '@cairn/core';
import {
  ApiRequestError,
  abortTurn,
  type FeedStart,
  followMessages,
  followRunningTurn,
  loadDisplayMessages,
  regenerateAnswer,
  sendMessage,
  type TurnEvent,
  UnauthorizedError,
} from './api-client.js';
import { type ApprovalDecisionBody, decideApproval } from './approvals/approval-api.js';
import { type ConversationViewState, INITIAL_STATE, type SessionHooks } from './conversation-view-state.js';
import { type FeedAnchor, isAnchor, LiveDisplay } from './live-display.js';
import { isPageLeaving } from './page-leaving.js';
import { writeQueued } from './unsent-text.js';

// Reconnecting the live feed: quickly at first, then backing off while the server is away.
const FIRST_RETRY_MS = 500;
const MAX_RETRY_MS = 10_000;

/**
 * One open conversation: its display view, kept live from one source at a time — a turn's own event
 * stream while one runs (sent from this page, or followed with `GET …/turn` when another tab, a page
 * before a reload or another client started it), else the conversation's `/events` feed.
 *
 * The feed is resumed with the last `id` it sent (`<seq>-<epoch>`): the epoch names this incarnation
 * of the conversation id, whose seqs start again at 1 when a deleted id is used again, so the server
 * answers `deleted` rather than another conversation's messages. Before the feed has sent an id (the
 * view came from the display view or a turn), it starts again at the last message shown and checks it
 * comes back unchanged. A deleted conversation is cleared and loaded again from scratch: it may exist anew.
 */
export class ConversationSession {
  private state = INITIAL_STATE;
  private display = new LiveDisplay([]);
  private readonly listeners = new Set<() => void>();
  private readonly lifetime = new AbortController();
  private feed: AbortController | undefined;
  /** The last `id` the feed sent, for this view's conversation: where it resumes. */
  private lastEventId: string | undefined;
  // Text blocks of the running turn that came as deltas (their closing `text` event repeats them).
  private readonly streamedBlocks = new Set<string>();
  // The files of the queued message (the state names them).
  private queuedFiles: readonly File[] = [];
  // A look for the running turn is under way.
  private watching = false;
  /** The model the page's turns ask for; `undefined`: the server's default. */
  model: string | undefined;

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
    // A turn may be running (this page's before a reload, another tab's): show it live.
    await this.watchRunningTurn();
  }

  close(): void {
    this.lifetime.abort();
    this.stopFeed();
    this.listeners.clear();
  }

  /** Sends a message; while a turn runs, queues it to go when that turn ends. */
  async send(content: string, files: readonly File[] = []): Promise<void> {
    if (this.closed) return;
    if (this.state.turnRunning) {
      this.queuedFiles = files;
      writeQueued(this.conversationId, content);
      this.update({ queued: { text: content, files: files.map((file) => file.name) } });
      return;
    }
    await this.runTurn({ text: content, files: files.map((file) => file.name) }, (onEvent, signal) =>
      sendMessage(this.conversationId, content, files, onEvent, signal, { model: this.model }),
    );
  }

  /** Sends `content` in place of the user message at `seq`: a branch, the original kept in the log. */
  async edit(seq: number, content: string): Promise<void> {
    if (this.closed || this.state.turnRunning) return;
    await this.runTurn({ text: content, files: [] }, (onEvent, signal) =>
      sendMessage(this.conversationId, content, [], onEvent, signal, { branchFrom: seq, model: this.model }),
    );
  }

  /** Answers the user message at `seq` again (regenerate, or retry after a failure); the old answer is kept in the log. */
  async regenerate(seq: number): Promise<void> {
    if (this.closed || this.state.turnRunning) return;
    await this.runTurn(undefined, (onEvent, signal) =>
      regenerateAnswer(this.conversationId, seq, onEvent, signal, this.model),
    );
  }

  /**
   * Decides the waiting approval request `approvalId`; the turn it continues is followed like a sent
   * message's. The server's refusal (409 decided already, 410 expired, 400 a refused edit) is returned
   * for the card to show, not the page's error; the conversation is loaded again after either.
   */
  async decide(approvalId: string, body: ApprovalDecisionBody): Promise<ApiRequestError | undefined> {
    if (this.closed || this.state.turnRunning) return undefined;
    let refused: ApiRequestError | undefined;
    await this.runTurn(undefined, async (onEvent, signal) => {
      // The decision is stored before the turn's stream starts, which never sends it: only a reload shows it.
      this.display.needsReload = true;
      try {
        await decideApproval(this.conversationId, approvalId, body, onEvent, signal);
      } catch (error) {
        if (!(error instanceof ApiRequestError)) throw error;
        refused = error;
      }
    });
    return refused;
  }

  // A turn this page starts: shown live from its own stream (the feed waits), `sent` until stored.
  private async runTurn(
    sent: { text: string; files: readonly string[] } | undefined,
    start: (onEvent: (event: TurnEvent) => void, signal: AbortSignal) => Promise<void>,
  ): Promise<void> {
    this.stopFeed();
    this.streamedBlocks.clear();
    this.update({
      turnRunning: true,
      sentText: sent?.text,
      sentFiles: sent?.files ?? [],
      draft: '',
      runningTools: [],
      error: undefined,
      deleted: false,
    });
    try {
      await start((event) => this.onTurnEvent(event), this.lifetime.signal);
    } catch (error) {
      this.fail(error);
    }
    await this.turnEnded(true);
  }

  /** Takes the queued message back (to edit it): nothing is sent. */
  unqueue(): { text: string; files: readonly File[] } | undefined {
    const { queued } = this.state;
    if (queued === undefined) return undefined;
    const files = this.queuedFiles;
    this.queuedFiles = [];
    writeQueued(this.conversationId, '');
    this.update({ queued: undefined });
    return { text: queued.text, files };
  }

  /**
   * Shows the conversation's running turn live, if one runs (this page's before a reload, another
   * tab's, another client's): the live feed pauses meanwhile, as when this page sends.
   */
  private async watchRunningTurn(): Promise<void> {
    if (this.closed || this.state.turnRunning || this.watching) return;
    this.watching = true;
    this.stopFeed();
    this.streamedBlocks.clear();
    let found = false;
    try {
      found = await followRunningTurn(
        this.conversationId,
        (event) => {
          if (!found) {
            found = true;
            this.update({ turnRunning: true, draft: '', runningTools: [], error: undefined });
          }
          this.onTurnEvent(event);
        },
        this.lifetime.signal,
      );
    } catch (error) {
      this.fail(error);
    }
    this.watching = false;
    await this.turnEnded(found);
  }

  // After a turn (or a look for one): the live feed again, then the queued message if there is one.
  private async turnEnded(hadTurn: boolean): Promise<void> {
    // A turn's stream cut off by leaving the page did not end the turn: the queued message stays stored for the next page.
    if (this.closed || isPageLeaving()) return;
    this.update({ turnRunning: false, sentText: undefined, sentFiles: [], draft: '', runningTools: [] });
    if (this.display.needsReload) await this.reload();
    this.startFeed();
    if (hadTurn) this.hooks.onTurnEnd();
    const queued = this.unqueue();
    if (queued !== undefined) await this.send(queued.text, queued.files);
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
      const { message } = event;
      // The server leaves out an answer's `content` that only repeats the text streamed since the last message.
      const streamed =
        message.role === 'assistant' && message.content === undefined && this.state.draft !== '';
      // Block ids are the model call's own: the next call may use them again.
      this.streamedBlocks.clear();
      this.showStored(streamed ? { ...message, content: this.state.draft } : message);
    } else if (event.type === 'agent_output') {
      const { output } = event;
      if (output.type === 'text_delta') {
        this.streamedBlocks.add(output.id);
        this.update({ draft: this.state.draft + output.delta });
      } else if (output.type === 'text' && !this.streamedBlocks.has(output.id)) {
        // A block that came whole (no deltas).
        this.update({ draft: this.state.draft + output.text });
      } else if (output.type === 'tool_use') {
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
    if (shown.length > 0 || message.partType === 'title') this.hooks.onMessageStored(message);
    const finished = new Set(shown.map((display) => display.toolExecution?.toolUseId));
    this.update({
      messages: this.display.messages(),
      ...(message.role === 'user' ? { sentText: undefined, sentFiles: [] } : {}),
      // The stored assistant message holds the text streamed so far.
      ...(message.role === 'assistant' ? { draft: '' } : {}),
      runningTools: this.state.runningTools.filter((tool) => !finished.has(tool.id)),
    });
  }

  private endsWithStoredError(): boolean {
    return this.state.messages.at(-1)?.partType === 'error';
  }

  /** Shows the display view as stored now; false when it could not be loaded or `signal` aborted. */
  private async reload(signal = this.lifetime.signal): Promise<boolean> {
    try {
      const messages = await loadDisplayMessages(this.conversationId, signal);
      if (signal.aborted || this.closed) return false;
      this.display = new LiveDisplay(messages);
      this.update({ messages: this.display.messages() });
      return true;
    } catch (error) {
      this.fail(error);
      return false;
    }
  }

  /** The conversation the view showed was deleted: shows what the id holds now, from scratch. */
  private async reopen(signal: AbortSignal): Promise<void> {
    this.lastEventId = undefined;
    this.display = new LiveDisplay([]);
    this.update({ loading: true, messages: [], draft: '', runningTools: [], error: undefined });
    const loaded = await this.reload(signal);
    if (this.closed) return;
    this.update({ loading: false, deleted: loaded && this.state.messages.length === 0 });
    this.hooks.onListChanged();
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

  /**
   * Where the feed starts: after its last `id`; else one message early, at the view's anchor, after a
   * bare seq (the server says `deleted` at once if that seq is gone), to check the anchor comes again.
   */
  private feedStart(): { start: FeedStart; anchor?: FeedAnchor } {
    if (this.lastEventId !== undefined) return { start: { lastEventId: this.lastEventId } };
    const anchor = this.display.anchor();
    if (anchor === undefined) {
      const { lastSeq } = this.display;
      // Nothing shown: whatever the id holds is this view's conversation.
      return { start: lastSeq === 0 ? { fromSeq: 1 } : { lastEventId: String(lastSeq) } };
    }
    return { start: anchor.seq > 1 ? { lastEventId: String(anchor.seq - 1) } : { fromSeq: 1 }, anchor };
  }

  private async follow(signal: AbortSignal): Promise<void> {
    let retryMs = FIRST_RETRY_MS;
    const stopped = () => signal.aborted || this.closed;
    while (!stopped()) {
      // One connection: dropped early when the feed brings something only a reload can show.
      const connection = new AbortController();
      const { start, anchor } = this.feedStart();
      let checked = anchor === undefined;
      let gone = false;
      const drop = () => {
        gone = true;
        connection.abort();
      };
      try {
        await followMessages(
          this.conversationId,
          start,
          (event) => {
            // Events parsed from the same chunk still come after an abort.
            if (connection.signal.aborted) return;
            if (event.type === 'deleted') return drop();
            // Not the message shown at that seq: the id names another conversation now.
            if (!checked && anchor !== undefined && !isAnchor(anchor, event.message)) return drop();
            checked = true;
            retryMs = FIRST_RETRY_MS;
            if (event.id !== undefined) this.lastEventId = event.id;
            this.showStored(event.message);
            // Someone else's turn began (its user message is stored first): follow it live.
            if (event.message.role === 'user' && !this.state.turnRunning) void this.watchRunningTurn();
            if (this.state.deleted) {
              // Created again after the view saw it deleted.
              this.update({ deleted: false });
              this.hooks.onListChanged();
            }
            if (this.display.needsReload) connection.abort();
          },
          AbortSignal.any([signal, connection.signal]),
        );
      } catch (error) {
        if (stopped()) return;
        if (error instanceof UnauthorizedError) return this.fail(error);
      }
      if (stopped()) return;
      if (gone) {
        await this.reopen(signal);
        retryMs = FIRST_RETRY_MS;
        continue;
      }
      if (this.display.needsReload) {
        await this.reload(signal);
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
