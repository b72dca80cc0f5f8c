export interface StartPostgresOptions {
  /** Port to listen on (127.0.0.1). Default: a free port, picked by the OS. */
  port?: number;
  /** Receives one progress line per step (initdb, start, ready, stopped). Default: silent. */
  log?: (line: string) => void;
}

export interface PostgresServer {
  /** `postgres://postgres@127.0.0.1:<port>/postgres` (trust auth, no password). */
  url: string;
  port: number;
  /** The cluster's data directory, inside a temp dir that `stop()` deletes. */
  dataDir: string;
  /** Stops the server (`pg_ctl stop -m fast`) and deletes its files. Calling it again does nothing. */
  stop(): Promise<void>;
  /** Synchronous `pg_ctl stop -m immediate` plus cleanup, for exit and signal handlers. Idempotent. */
  stopSync(): void;
}

/**
 * Starts a throwaway PostgreSQL server (initdb in a fresh temp dir, pg_ctl start on 127.0.0.1).
 * As root, runs the PostgreSQL binaries as the `postgres` system user. Servers not stopped by the
 * time the process exits are stopped by an exit hook.
 */
export declare function startPostgres(options?: StartPostgresOptions): Promise<PostgresServer>;

/**
 * Synchronously stops (`pg_ctl stop -m immediate`) and deletes every server this process started or is
 * still starting. Runs by itself on process exit; call it from signal handlers.
 */
export declare function stopAllSync(): void;

/** The directory with initdb and pg_ctl; throws, naming the Debian package `postgresql`, if none is found. */
export declare function findPostgresBinDir(): string;

/** A free TCP port on 127.0.0.1 (listen on port 0, close, return the port). */
export declare function findFreePort(): Promise<number>;
