/** Makes an open file's written bytes durable (`fdatasync`) without blocking the event loop. */
export interface FileSyncer {
  sync(fd: number): Promise<void>;
  /** Waits for the syncs in flight, then ends the threads. */
  close(): Promise<void>;
}
