import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ConversationMessage } from '@cairn/core';
import { assistantToolCalls, toolResult, toolTurn, userMessage } from '@cairn/storage/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFsConversationStore } from './fs-conversation-store.js';
import type { FsDurability } from './fs-store-options.js';
import { recordsEnd } from './log-padding.js';
import type { QuarantineReport } from './quarantine.js';

// A crash can leave any page of a batch's write unwritten (zeros where the log was preallocated,
// or missing from the file) while the pages after it reached the disk. Whatever page it is, load
// must show the batch whole or not at all, and keep the damaged bytes in the quarantine file.

const PAGE = 4096;

let rootDir: string;
let reports: QuarantineReport[];

beforeEach(async () => {
  rootDir = await mkdtemp(join(tmpdir(), 'cairn-fs-batch-'));
  reports = [];
});
afterEach(async () => {
  await rm(rootDir, { recursive: true, force: true });
});

const openStore = (durability: FsDurability) =>
  createFsConversationStore({ rootDir, durability, onQuarantine: (report) => reports.push(report) });
const conversationDir = (id: string) => join(rootDir, 'projects', 'default', 'conversations', id);
const logFile = (id: string) => join(conversationDir(id), 'messages.jsonl');
const records = (log: Buffer) => log.subarray(0, recordsEnd(log));

/** A tool turn with four results of 4-6 KiB: one batch over several pages, its records crossing them. */
function bigTurn(): ConversationMessage[] {
  const calls = ['c0', 'c1', 'c2', 'c3'];
  return [
    assistantToolCalls('big-a', calls),
    ...calls.map((call, index) =>
      toolResult(`big-t${index}`, call, String(index).repeat(4000 + 700 * index)),
    ),
  ];
}

/** For each 4 KiB page the batch's bytes touch: that page's batch bytes zeroed, the log cut there, the page cut out. */
function damagedCopies(log: Buffer, batchStart: number, batchEnd: number) {
  const copies: { name: string; bytes: Buffer }[] = [];
  for (let page = Math.floor(batchStart / PAGE); page * PAGE < batchEnd; page++) {
    const from = Math.max(page * PAGE, batchStart);
    const to = Math.min((page + 1) * PAGE, batchEnd);
    copies.push(
      { name: `page ${page} zeroed`, bytes: Buffer.from(log).fill(0, from, to) },
      { name: `log cut at page ${page}`, bytes: log.subarray(0, from) },
      { name: `page ${page} dropped`, bytes: Buffer.concat([log.subarray(0, from), log.subarray(to)]) },
    );
  }
  return copies;
}

describe('a batch is all-or-nothing on load, whichever of its pages reached the disk', () => {
  for (const durability of ['none', 'append'] as const) {
    it(`durability '${durability}': each page zeroed, cut off or dropped loses the whole batch and nothing before it`, async () => {
      const store = openStore(durability);
      await store.append('c', [userMessage('u1', 'start')]);
      await store.append('c', toolTurn('t', 2));
      const before = Buffer.from(records(readFileSync(logFile('c'))));
      await store.append('c', bigTurn());
      await store.close();
      const log = readFileSync(logFile('c'));
      const batchEnd = recordsEnd(log);
      const batchLines = log.toString('utf8', before.length, batchEnd).split(/(?<=\n)/);
      const copies = damagedCopies(log, before.length, batchEnd);
      expect(copies.length).toBeGreaterThanOrEqual(15);

      for (const [index, copy] of copies.entries()) {
        const id = `copy-${index}`;
        mkdirSync(conversationDir(id), { recursive: true });
        writeFileSync(logFile(id), copy.bytes);
        reports = [];
        const reader = openStore(durability);
        const loaded = await reader.load(id);
        expect(
          loaded.map((message) => [message.id, message.seq]),
          copy.name,
        ).toEqual([
          ['u1', 1],
          ['t-a', 2],
          ['t-t0', 3],
          ['t-t1', 4],
        ]);
        // Every byte of the batch still in the file was moved to the quarantine file, not lost.
        const damaged = recordsEnd(copy.bytes) - before.length;
        const reported = reports.reduce((sum, report) => sum + report.length, 0);
        expect(reported, copy.name).toBe(damaged);
        const survivors = batchLines.filter((line) => copy.bytes.includes(line));
        if (survivors.length > 0) {
          expect(reports.map((report) => report.reason)).toContain('incomplete-batch');
          const quarantined = readFileSync(`${logFile(id)}.corrupt`, 'utf8');
          for (const line of survivors) expect(quarantined, copy.name).toContain(line);
        }
        expect(records(readFileSync(logFile(id))).equals(before), copy.name).toBe(true);
        expect((await reader.append(id, [userMessage('next', 'after the crash')])).seqs, copy.name).toEqual([
          5,
        ]);
        await reader.close();
      }
    });
  }

  it('a damaged batch in the middle of the log is quarantined whole; whole batches after it still load', async () => {
    const store = openStore('none');
    await store.append('c', [userMessage('u1', 'start')]);
    const batchStart = readFileSync(logFile('c')).length;
    await store.append('c', bigTurn());
    const batchEnd = readFileSync(logFile('c')).length;
    await store.append('c', [userMessage('u2', 'later')]);
    await store.append('c', toolTurn('t', 2));
    await store.close();
    // A page inside the batch, before its final record, never reached the disk.
    const log = readFileSync(logFile('c'));
    const page = Math.ceil(batchStart / PAGE) * PAGE;
    expect(page + PAGE).toBeLessThan(batchEnd - 6000);
    writeFileSync(logFile('c'), Buffer.from(log).fill(0, page, page + PAGE));
    const reader = openStore('none');
    expect((await reader.load('c')).map((message) => [message.id, message.seq])).toEqual([
      ['u1', 1],
      ['u2', 7],
      ['t-a', 8],
      ['t-t0', 9],
      ['t-t1', 10],
    ]);
    expect(reports).toEqual([
      expect.objectContaining({
        reason: 'incomplete-batch',
        offset: batchStart,
        length: batchEnd - batchStart,
      }),
    ]);
    expect(readFileSync(`${logFile('c')}.corrupt`).includes(log.subarray(batchEnd - 4000, batchEnd))).toBe(
      true,
    );
    expect((await reader.append('c', [userMessage('u3', 'next')])).seqs).toEqual([11]);
    await reader.close();
  });
});
