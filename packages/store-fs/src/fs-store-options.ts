import type { QuarantineReport } from './quarantine.js';

/**
 * When appends reach the disk (fsync), as opposed to the OS page cache:
 * - `none`: never forced; a process crash loses nothing, a power cut may lose recent appends.
 * - `turn` (default): at the end of each model turn (an assistant message without tool calls, or an
 *   error message), so a power cut loses at most the turn in progress.
 * - `append`: before every append returns.
 */
export type FsDurability = 'none' | 'turn' | 'append';

export interface FsConversationStoreOptions {
  /** The data directory (the CLI uses `~/.local/share/cairn`). */
  rootDir: string;
  /** One store per project: `<rootDir>/projects/<projectId>/…`. Default `default`. */
  projectId?: string;
  durability?: FsDurability;
  /** A lock held longer than this is taken over even if its owner looks alive. Default 30 s. */
  lockStaleMs?: number;
  /** How long an append waits for another process's lock. Default 10 s. */
  lockTimeoutMs?: number;
  /**
   * Conversation logs kept open (a descriptor and what the store knows of each) between uses; beyond
   * this the least recently used idle ones are closed and read again on next use. Default 2048.
   */
  maxOpenLogs?: number;
  /** Called for every span of bytes moved to a `.corrupt` side file; default: a process warning. */
  onQuarantine?: (report: QuarantineReport) => void;
}
