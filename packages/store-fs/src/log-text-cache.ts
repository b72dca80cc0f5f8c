/** One conversation's records as text, as of a byte length of its log, under one lock lease. */
interface Entry {
  lease: object;
  size: number;
  text: string;
}

/**
 * The text of the logs this store instance holds leases on, so that a load (each turn's) reads no
 * file: while a lease is held without a break no other process can append, so the text is the
 * file's as long as its length is the one the log's state gives. Least recently used entries go
 * beyond `maxChars` in all.
 */
export class LogTextCache {
  readonly #entries = new Map<string, Entry>();
  #chars = 0;

  constructor(private readonly maxChars: number) {}

  /** The text for `size` bytes of the log under `lease`, if it is known. */
  get(conversationId: string, lease: object, size: number): string | undefined {
    const entry = this.#entries.get(conversationId);
    if (entry === undefined || entry.lease !== lease || entry.size !== size) return undefined;
    this.#entries.delete(conversationId);
    this.#entries.set(conversationId, entry);
    return entry.text;
  }

  set(conversationId: string, lease: object, size: number, text: string): void {
    this.delete(conversationId);
    if (text.length > this.maxChars / 4) return;
    this.#entries.set(conversationId, { lease, size, text });
    this.#chars += text.length;
    this.#evict();
  }

  /** Records appended after `from` bytes, now `to`: kept only onto the text of `from` under `lease`. */
  extend(conversationId: string, lease: object, from: number, to: number, added: string): void {
    const entry = this.#entries.get(conversationId);
    if (entry === undefined) return;
    if (
      entry.lease !== lease ||
      entry.size !== from ||
      entry.text.length + added.length > this.maxChars / 4
    ) {
      this.delete(conversationId);
      return;
    }
    entry.text += added;
    entry.size = to;
    this.#chars += added.length;
    this.#evict();
  }

  delete(conversationId: string): void {
    const entry = this.#entries.get(conversationId);
    if (entry === undefined) return;
    this.#entries.delete(conversationId);
    this.#chars -= entry.text.length;
  }

  #evict(): void {
    for (const id of this.#entries.keys()) {
      if (this.#chars <= this.maxChars) return;
      this.delete(id);
    }
  }
}
