import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { activeBranch } from './active-branch.js';

const log = (...entries: Array<number | [number, number]>) =>
  entries.map((entry) => (Array.isArray(entry) ? { seq: entry[0], branchFrom: entry[1] } : { seq: entry }));
const seqs = (messages: readonly { seq?: number | undefined }[]) => messages.map((message) => message.seq);

describe('activeBranch', () => {
  it('gives a log without branches back as it is', () => {
    const messages = log(1, 2, 3);
    expect(activeBranch(messages)).toBe(messages);
  });

  it('leaves out what an edit replaced: the edited message and everything after it, up to the edit', () => {
    // 1 user, 2 answer, 3 user, 4 answer; 5 edits 3, 6 answers it.
    expect(seqs(activeBranch(log(1, 2, 3, 4, [5, 3], 6)))).toEqual([1, 2, 5, 6]);
  });

  it('follows a branch of a branch, and a regeneration of the first message', () => {
    expect(seqs(activeBranch(log(1, 2, 3, 4, [5, 3], 6, [7, 5], 8)))).toEqual([1, 2, 7, 8]);
    expect(seqs(activeBranch(log(1, 2, [3, 1], 4)))).toEqual([3, 4]);
  });

  it('ignores a branch start that a later one replaced', () => {
    // 5 branched from 3, then 7 branched from 1, replacing 5 too: 5's branch point no longer counts.
    expect(seqs(activeBranch(log(1, 2, 3, 4, [5, 3], 6, [7, 1], 8)))).toEqual([7, 8]);
  });

  it('keeps messages without a seq (not stored yet)', () => {
    expect(activeBranch([{ seq: 1 }, { seq: 2 }, { seq: 3, branchFrom: 2 }, {}])).toEqual([
      { seq: 1 },
      { seq: 3, branchFrom: 2 },
      {},
    ]);
  });

  it('is the path of the tree the branches make (property)', () => {
    // Each new message continues the path or branches from an earlier message on it.
    const arbitrary = fc.array(fc.option(fc.nat(), { nil: undefined }), { maxLength: 40 });
    fc.assert(
      fc.property(arbitrary, (choices) => {
        let path: number[] = [];
        const messages: { seq: number; branchFrom?: number }[] = [];
        choices.forEach((choice, index) => {
          const seq = index + 1;
          if (choice === undefined || path.length === 0) {
            messages.push({ seq });
            path.push(seq);
            return;
          }
          const at = choice % path.length;
          const branchFrom = path[at] as number;
          messages.push({ seq, branchFrom });
          path = [...path.slice(0, at), seq];
        });
        expect(seqs(activeBranch(messages))).toEqual(path);
      }),
    );
  });
});
