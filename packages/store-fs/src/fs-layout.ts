import { join } from 'node:path';
import { assertSafeId, assertSafeRef } from '@cairn/core';
import { conversationBlobPrefixes } from '@cairn/storage';

/**
 * Where everything lives (the seed's layout, JSONL instead of a rewritten JSON array):
 *
 *   <rootDir>/projects/<projectId>/conversations.index.json                       listing cache
 *   <rootDir>/projects/<projectId>/conversations/<conversationId>/messages.jsonl  the log
 *   …/<conversationId>/messages.jsonl.corrupt   quarantined bytes, never deleted
 *   …/<conversationId>/messages.json            a legacy array, migrated once and kept
 *   …/<conversationId>/lock                     the cross-process lock
 *   …/<conversationId>/lock.want, lock.wait.*   a waiter's marker and the waiters' tickets (fair-lock.ts)
 *   <rootDir>/projects/<projectId>/journal/<host>--<boot>--<pid>--<random>.wal    appends not yet synced in their logs
 *   <rootDir>/projects/<projectId>/journal/recovery.lock                          one process recovering at a time
 *   <rootDir>/projects/<projectId>/state/logs/<ref>                              blobs, e.g.
 *   <rootDir>/projects/<projectId>/state/logs/tool-results/<conversationId>/<messageId>.txt
 *   <rootDir>/projects/<projectId>/state/logs/attachments/<conversationId>/<sha256>  a part's bytes
 *   <rootDir>/projects/<projectId>/leases/<key>/holder        a lease: a lock whose owner record names its holder
 *   <rootDir>/projects/<projectId>/leases/<key>/epoch         the key's epoch counter, written by the holder
 *
 * Every id and ref is checked before it is joined into a path.
 */
export class FsLayout {
  readonly projectDir: string;
  readonly conversationsDir: string;
  readonly blobsDir: string;
  readonly indexFile: string;
  readonly journalDir: string;
  readonly journalLockFile: string;
  readonly leasesDir: string;

  constructor(rootDir: string, projectId: string) {
    assertSafeId('projectId', projectId);
    this.projectDir = join(rootDir, 'projects', projectId);
    this.conversationsDir = join(this.projectDir, 'conversations');
    this.blobsDir = join(this.projectDir, 'state', 'logs');
    // Beside, not inside, the conversations directory: every name in there is a conversation id.
    this.indexFile = join(this.projectDir, 'conversations.index.json');
    this.journalDir = join(this.projectDir, 'journal');
    this.journalLockFile = join(this.journalDir, 'recovery.lock');
    this.leasesDir = join(this.projectDir, 'leases');
  }

  conversationDir(conversationId: string): string {
    assertSafeId('conversationId', conversationId);
    return join(this.conversationsDir, conversationId);
  }

  logFile(conversationId: string): string {
    return join(this.conversationDir(conversationId), 'messages.jsonl');
  }

  quarantineFile(conversationId: string): string {
    return `${this.logFile(conversationId)}.corrupt`;
  }

  legacyFile(conversationId: string): string {
    return join(this.conversationDir(conversationId), 'messages.json');
  }

  lockFile(conversationId: string): string {
    return join(this.conversationDir(conversationId), 'lock');
  }

  /** A directory per key: its files' names cannot meet another key's (a key may hold dots). */
  leaseDir(key: string): string {
    assertSafeId('lease key', key);
    return join(this.leasesDir, key);
  }

  leaseHolderFile(key: string): string {
    return join(this.leaseDir(key), 'holder');
  }

  leaseEpochFile(key: string): string {
    return join(this.leaseDir(key), 'epoch');
  }

  blobFile(ref: string): string {
    assertSafeRef('blob ref', ref);
    return join(this.blobsDir, ...ref.split('/'));
  }

  /** The directories of a conversation's blobs: its tool outputs and its attachments. */
  conversationBlobDirs(conversationId: string): string[] {
    return conversationBlobPrefixes(conversationId).map((prefix) =>
      join(this.blobsDir, ...prefix.slice(0, -1).split('/')),
    );
  }
}
