/**
 * Makes an open file's written bytes durable (`fdatasync`) without blocking the event loop. The store's
 * own runs on its sync threads; `new FsConversationStore(options, { syncer })` takes another (tests
 * count, hold or fail syncs through one).
 */
export interface FileSyncer {
  sync(fd: number): Promise<void>;
  /** Waits for the syncs in flight, then ends the threads. */
  close(): Promise<void>;
}
