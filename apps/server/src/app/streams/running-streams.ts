import { EventLog, type UIMessageChunk } from '@cairn/runtime';

/**
 * The other processes of a cluster (`cairn-server --workers N`): a reloaded page may ask any worker to
 * resume a chat turn that another one runs. Absent for a single process.
 */
export interface UIStreamPeers {
  /** This process began (`true`) or ended (`false`) running chat turns of the conversation. */
  announce(conversationId: string, running: boolean): void;
  /** How this process answers a peer that follows one of its running turns. */
  serve(lookup: (conversationId: string) => EventLog<UIMessageChunk> | undefined): void;
  /** The running turn of another process, replayed from its first chunk and followed live; none: `undefined`. */
  follow(conversationId: string): Promise<AsyncIterable<UIMessageChunk> | undefined>;
}

/**
 * The UI message streams of the `POST /v1/chat` turns running in this instance, every chunk kept
 * from the first while the turn runs, so `GET /v1/chat/{id}/stream` (a reloaded page resuming)
 * replays the answer so far and follows it live. Forgotten when the turn ends.
 */
export class RunningUIStreams {
  private readonly byConversation = new Map<string, EventLog<UIMessageChunk>[]>();

  constructor(private readonly peers?: UIStreamPeers) {
    peers?.serve((conversationId) => this.running(conversationId));
  }

  /** A new turn's log; `finish` closes and forgets it. */
  begin(conversationId: string): { log: EventLog<UIMessageChunk>; finish(): void } {
    const log = new EventLog<UIMessageChunk>();
    const logs = this.byConversation.get(conversationId) ?? [];
    logs.push(log);
    this.byConversation.set(conversationId, logs);
    if (logs.length === 1) this.peers?.announce(conversationId, true);
    return {
      log,
      finish: () => {
        log.close();
        const remaining = (this.byConversation.get(conversationId) ?? []).filter((other) => other !== log);
        if (remaining.length > 0) {
          this.byConversation.set(conversationId, remaining);
          return;
        }
        this.byConversation.delete(conversationId);
        this.peers?.announce(conversationId, false);
      },
    };
  }

  /** The stream of the conversation's running turn (the first, when another waits behind it). */
  running(conversationId: string): EventLog<UIMessageChunk> | undefined {
    return this.byConversation.get(conversationId)?.[0];
  }

  /** The running turn's stream, here or (in a cluster) in another worker; none: `undefined`. */
  async resume(conversationId: string): Promise<AsyncIterable<UIMessageChunk> | undefined> {
    const log = this.running(conversationId);
    if (log !== undefined) return log.read();
    return this.peers?.follow(conversationId);
  }
}
