import { EventLog, type UIMessageChunk } from '@cairn/runtime';

/**
 * The UI message streams of the `POST /v1/chat` turns running in this instance, every chunk kept
 * from the first while the turn runs, so `GET /v1/chat/{id}/stream` (a reloaded page resuming)
 * replays the answer so far and follows it live. Forgotten when the turn ends.
 */
export class RunningUIStreams {
  private readonly byConversation = new Map<string, EventLog<UIMessageChunk>[]>();

  /** A new turn's log; `finish` closes and forgets it. */
  begin(conversationId: string): { log: EventLog<UIMessageChunk>; finish(): void } {
    const log = new EventLog<UIMessageChunk>();
    const logs = this.byConversation.get(conversationId) ?? [];
    logs.push(log);
    this.byConversation.set(conversationId, logs);
    return {
      log,
      finish: () => {
        log.close();
        const remaining = (this.byConversation.get(conversationId) ?? []).filter((other) => other !== log);
        if (remaining.length === 0) this.byConversation.delete(conversationId);
        else this.byConversation.set(conversationId, remaining);
      },
    };
  }

  /** The stream of the conversation's running turn (the first, when another waits behind it). */
  running(conversationId: string): EventLog<UIMessageChunk> | undefined {
    return this.byConversation.get(conversationId)?.[0];
  }
}

/** The log as a stream that replays it from the first chunk; cancelling stops reading only. */
export function readableOf(log: EventLog<UIMessageChunk>): ReadableStream<UIMessageChunk> {
  const chunks = log.read();
  return new ReadableStream<UIMessageChunk>({
    async pull(controller) {
      const next = await chunks.next();
      if (next.done) controller.close();
      else controller.enqueue(next.value);
    },
    async cancel() {
      await chunks.return();
    },
  });
}
