import { isCairnMessage } from './cluster-messages.js';

/** Messages sent as one over a cluster's IPC channel, in order. */
export interface IpcBatch<T> {
  cairn: 'batch';
  messages: T[];
}

/**
 * Sends what one turn of the event loop queued as one IPC message. Each `send` over Node's IPC
 * channel is a JSON line, a write syscall and a wake-up of the other process, and a busy worker
 * sends several for each chat turn it runs (the turn lock, the conversation's changes, the release).
 * The queue goes at the end of the loop's turn (`setImmediate`), in order; `flush()` sends it at
 * once, before a last word that must come after it.
 */
export class IpcOutbox<T> {
  #queued: T[] = [];
  #scheduled = false;

  constructor(private readonly write: (message: T | IpcBatch<T>) => void) {}

  send(message: T): void {
    this.#queued.push(message);
    if (this.#scheduled) return;
    this.#scheduled = true;
    setImmediate(() => {
      this.#scheduled = false;
      this.flush();
    });
  }

  flush(): void {
    const messages = this.#queued;
    if (messages.length === 0) return;
    this.#queued = [];
    this.write(messages.length === 1 ? (messages[0] as T) : { cairn: 'batch', messages });
  }
}

/** The messages `message` carries: a batch's, in order, or itself. */
export function unbatch(message: unknown): unknown[] {
  return isCairnMessage(message) && message.cairn === 'batch'
    ? (message as IpcBatch<unknown>).messages
    : [message];
}
