import { EventLog } from '@cairn/runtime';

/** Which running streams a cluster's peers follow: chat turns' UI message streams, or turns' own events. */
export type RunningStreamKind = 'ui' | 'turn';

/**
 * The other processes of a cluster (`cairn-server --workers N`): a reloaded page may ask any worker to
 * resume a turn that another one runs. Absent for a single process.
 */
export interface RunningStreamPeers<T> {
  /** This process began (`true`) or ended (`false`) running turns of the conversation. */
  announce(conversationId: string, running: boolean): void;
  /** How this process answers a peer that follows one of its running turns. */
  serve(lookup: (conversationId: string) => EventLog<T> | undefined): void;
  /** The running turn of another process, replayed from its first event and followed live; none: `undefined`. */
  follow(conversationId: string): Promise<AsyncIterable<T> | undefined>;
}

/**
 * The streams of the turns running in this instance, every event kept from the first while the turn
 * runs, so a reader that comes late (a reloaded page, another tab) replays the turn so far and follows
 * it live. Forgotten when the turn ends.
 */
export class RunningStreams<T> {
  private readonly byConversation = new Map<string, EventLog<T>[]>();

  constructor(private readonly peers?: RunningStreamPeers<T>) {
    peers?.serve((conversationId) => this.running(conversationId));
  }

  /** A new turn's log; `finish` closes and forgets it. */
  begin(conversationId: string): { log: EventLog<T>; finish(): void } {
    const log = new EventLog<T>();
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
  running(conversationId: string): EventLog<T> | undefined {
    return this.byConversation.get(conversationId)?.[0];
  }

  /** The running turn's stream, here or (in a cluster) in another worker; none: `undefined`. */
  async resume(conversationId: string): Promise<AsyncIterable<T> | undefined> {
    const log = this.running(conversationId);
    if (log !== undefined) return log.read();
    return this.peers?.follow(conversationId);
  }
}

/** Makes a cluster's peers for one kind of running stream (each kind is served and followed on its own). */
export type StreamPeersFactory = <T>(kind: RunningStreamKind) => RunningStreamPeers<T>;
