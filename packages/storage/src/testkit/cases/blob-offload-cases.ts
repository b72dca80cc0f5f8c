import assert from 'node:assert/strict';
import { contentText, TOOL_OUTPUT_PREVIEW_LENGTH, TOOL_OUTPUT_THRESHOLD } from '@cairn/core';
import { rejectsWithCode } from '../assert-store.js';
import type { ConformanceCase } from '../conformance-case.js';
import { assistantToolCalls, toolResult } from '../test-messages.js';

const decode = (bytes: Uint8Array) => Buffer.from(bytes).toString('utf8');

export const blobOffloadCases: ConformanceCase[] = [
  {
    name: 'blobs: put and get strings and bytes, whole or by range',
    async run({ open }) {
      const store = await open();
      await store.putBlob('notes/a.txt', 'héllo wörld');
      assert.equal(
        decode(await store.getBlob('notes/a.txt')),
        'héllo wörld',
        'a UTF-8 string blob reads back whole',
      );
      const bytes = Uint8Array.from({ length: 256 }, (_, index) => index);
      await store.putBlob('bin/all-bytes', bytes);
      assert.deepEqual(
        [...(await store.getBlob('bin/all-bytes'))],
        [...bytes],
        'a blob of all 256 byte values reads back exactly',
      );
      assert.deepEqual(
        [...(await store.getBlob('bin/all-bytes', { offset: 250 }))],
        [250, 251, 252, 253, 254, 255],
        'a range from offset 250 reads to the end',
      );
      assert.deepEqual(
        [...(await store.getBlob('bin/all-bytes', { offset: 10, length: 3 }))],
        [10, 11, 12],
        'offset 10, length 3 reads three bytes',
      );
      assert.deepEqual(
        [...(await store.getBlob('bin/all-bytes', { offset: 300 }))],
        [],
        'an offset past the end reads nothing',
      );
      await store.putBlob('notes/a.txt', 'replaced');
      assert.equal(
        decode(await store.getBlob('notes/a.txt')),
        'replaced',
        'putBlob on an existing ref replaces it',
      );
    },
  },
  {
    name: 'blobs: a missing blob is STORE_NOT_FOUND; unsafe refs and ranges are refused',
    async run({ open }) {
      const store = await open();
      await rejectsWithCode(store.getBlob('tool-results/none/x.txt'), 'STORE_NOT_FOUND');
      for (const ref of ['../x', '/abs', 'a/../b', 'a//b', 'a\\b', '', 'a/.hidden', 'a\0b']) {
        await rejectsWithCode(store.putBlob(ref, 'x'), 'INVALID_ID');
        await rejectsWithCode(store.getBlob(ref), 'INVALID_ID');
      }
      await store.putBlob('ok', 'x');
      await rejectsWithCode(store.getBlob('ok', { offset: -1 }), 'INVALID_ARGUMENT');
    },
  },
  {
    name: 'a tool output over TOOL_OUTPUT_THRESHOLD bytes is offloaded: preview, marker, fullOutputPath',
    async run({ open }) {
      const store = await open();
      // 20,000 × '€' is 20,000 characters but 60,000 UTF-8 bytes: the threshold counts bytes.
      const full = '€'.repeat(20_000);
      const { messages } = await store.append('c1', [
        assistantToolCalls('a1', ['call-1', 'call-2']),
        toolResult('t1', 'call-1', full),
        toolResult('t2', 'call-2', 'small'),
      ]);
      const [, offloaded, small] = await store.load('c1');
      assert.deepEqual(offloaded, messages[1], 'load returns the offloaded message as append returned it');
      const ref = offloaded?.fullOutputPath;
      assert.equal(
        ref,
        'tool-results/c1/t1.txt',
        'the full output is under tool-results/<conversation>/<message id>.txt',
      );
      assert.ok(
        contentText(offloaded?.content).startsWith('€'.repeat(TOOL_OUTPUT_PREVIEW_LENGTH)),
        "the preview is the output's first TOOL_OUTPUT_PREVIEW_LENGTH characters",
      );
      assert.ok(
        contentText(offloaded?.content).includes(`[Full output: ${ref}]`),
        "the content names the full output's ref",
      );
      assert.ok(
        (offloaded?.content?.length ?? Number.POSITIVE_INFINITY) < 1000,
        'the inline content stays small',
      );
      assert.equal(decode(await store.getBlob(ref)), full, 'the blob holds the full output');
      assert.equal(small?.content, 'small', 'a small tool output stays inline');
      assert.equal(small?.fullOutputPath, undefined, 'a small tool output has no fullOutputPath');
    },
  },
  {
    name: 'a tool output of exactly TOOL_OUTPUT_THRESHOLD bytes stays inline',
    async run({ open }) {
      const store = await open();
      const content = 'x'.repeat(TOOL_OUTPUT_THRESHOLD);
      await store.append('c1', [assistantToolCalls('a1', ['call-1']), toolResult('t1', 'call-1', content)]);
      const [, tool] = await store.load('c1');
      assert.equal(tool?.content, content, 'an output of exactly TOOL_OUTPUT_THRESHOLD bytes stays inline');
      assert.equal(
        tool?.fullOutputPath,
        undefined,
        'an output of exactly TOOL_OUTPUT_THRESHOLD bytes has no fullOutputPath',
      );
    },
  },
];
