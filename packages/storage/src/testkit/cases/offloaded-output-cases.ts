import assert from 'node:assert/strict';
import { type CairnErrorCode, contentText, TOOL_OUTPUT_PREVIEW_LENGTH } from '@cairn/core';
import { decodeBlobText } from '../../blob/blob-text.js';
import { readFullToolOutput } from '../../offload/read-full-tool-output.js';
import { rejectsWithCode } from '../assert-store.js';
import type { ConformanceCase } from '../conformance-case.js';
import { assistantToolCalls, toolResult } from '../test-messages.js';

// Each over TOOL_OUTPUT_THRESHOLD (60 KiB), each different.
const outputA = 'A'.repeat(60 * 1024);
const outputB = 'B'.repeat(60 * 1024);

export const offloadedOutputCases: ConformanceCase[] = [
  {
    name: 'a refused or replayed append changes no offloaded output and leaves no new one visible',
    async run({ open }) {
      const store = await open();
      const turn = [assistantToolCalls('a1', ['call-1']), toolResult('t1', 'call-1', outputA)];
      const first = await store.append('c1', turn, { idempotencyKey: 'turn-1' });
      const stored = await store.load('c1');
      const tool = stored[1];
      assert.ok(tool?.fullOutputPath !== undefined, 'the first append offloads the tool output');
      const replaced = [assistantToolCalls('a1', ['call-1']), toolResult('t1', 'call-1', outputB)];
      const other = (id: string) => toolResult(id, 'call-1', outputB);
      const refusals: [string, () => Promise<unknown>, CairnErrorCode][] = [
        ['a stale expectedSeq', () => store.append('c1', replaced, { expectedSeq: 0 }), 'STORE_CONFLICT'],
        [
          'a stale expectedSeq, new id',
          () => store.append('c1', [other('t2')], { expectedSeq: 1 }),
          'STORE_CONFLICT',
        ],
        [
          'the key reused',
          () => store.append('c1', [other('t1')], { idempotencyKey: 'turn-1' }),
          'STORE_CONFLICT',
        ],
        ['a stored id', () => store.append('c1', [other('t1')]), 'STORE_CONFLICT'],
        [
          'a stored id, new key',
          () => store.append('c1', [other('t1')], { idempotencyKey: 'k2' }),
          'STORE_CONFLICT',
        ],
        [
          'one id twice',
          () => store.append('c1', [other('t3'), toolResult('t3', 'call-1', 'x')]),
          'INVALID_ARGUMENT',
        ],
        ['a bad message', () => store.append('c1', [other('t4'), { id: 'bad' } as never]), 'INVALID_MESSAGE'],
      ];
      for (const [refusal, append, code] of refusals) {
        await rejectsWithCode(append, code);
        assert.ok(
          (await readFullToolOutput(store, tool)) === outputA,
          `the output is intact after ${refusal}`,
        );
      }
      // A retry with the first append's key returns its result and rewrites nothing.
      assert.deepEqual(
        await store.append('c1', replaced, { idempotencyKey: 'turn-1' }),
        first,
        'the replayed append returns the first result',
      );
      assert.ok((await readFullToolOutput(store, tool)) === outputA, 'the output is intact after a replay');
      assert.deepEqual(
        await store.load('c1'),
        stored,
        'the log is unchanged by the refused and replayed appends',
      );
      for (const id of ['t2', 't3', 't4'])
        await rejectsWithCode(store.getBlob(`tool-results/c1/${id}.txt`), 'STORE_NOT_FOUND');
    },
  },
  {
    name: 'an offloaded output with lone surrogates round-trips exactly, like inline text',
    async run({ open }) {
      const store = await open();
      // Lone high and low surrogates, a real pair, a real U+FFFD and Hangul (whose UTF-8 lead byte
      // 0xED a surrogate's shares): 10 UTF-16 units, 22 bytes, repeated past the threshold.
      const content = `${'a\ud800b\udfffc😀\ufffd한\ud83d'.repeat(3_000)}z\udc00`;
      await store.append('c1', [assistantToolCalls('a1', ['call-1']), toolResult('t1', 'call-1', content)]);
      const [, tool] = await store.load('c1');
      assert.ok(tool?.fullOutputPath !== undefined, 'the output was offloaded');
      assert.ok(
        contentText(tool.content).startsWith(content.slice(0, TOOL_OUTPUT_PREVIEW_LENGTH - 1)),
        "the preview starts with the output's first characters",
      );
      const full = await readFullToolOutput(store, tool);
      assert.ok(full === content, 'readFullToolOutput gives back the identical string');
      assert.ok(
        decodeBlobText(await store.getBlob(tool.fullOutputPath)) === content,
        'the offloaded output reads back exactly, lone surrogates included',
      );
      // A string given to putBlob comes back the same way.
      await store.putBlob('notes/lone', 'x\udc00y\ud800');
      assert.ok(
        decodeBlobText(await store.getBlob('notes/lone')) === 'x\udc00y\ud800',
        'a blob with lone surrogates reads back exactly',
      );
    },
  },
];
