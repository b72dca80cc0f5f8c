import assert from 'node:assert/strict';
import type { ConformanceCase } from '../conformance-case.js';
import { assistantToolCalls, toolResult, userMessage } from '../test-messages.js';

const UNICODE_SAMPLES = [
  'emoji 👩‍👩‍👧‍👦 and flags 🇯🇵',
  'مرحبا بالعالم (right to left)',
  '中文，日本語，한국어',
  'NUL \u0000 and controls \u0001\u001f\u007f',
  'line\nbreaks\r\nand\ttabs',
  'a lone surrogate \ud800 and its partner \udc00',
  'U+2028 \u2028 and U+2029 \u2029',
  '"quotes" \\ backslashes \\\\ and \'apostrophes\'',
];

export const largeUnicodeCases: ConformanceCase[] = [
  {
    name: 'unicode content round-trips exactly',
    async run({ open }) {
      const store = await open();
      await store.append(
        'c1',
        UNICODE_SAMPLES.map((content, index) => userMessage(`u${index}`, content)),
      );
      assert.deepEqual(
        (await store.load('c1')).map((message) => message.content),
        UNICODE_SAMPLES,
        'every unicode sample loads back exactly',
      );
    },
  },
  {
    name: 'a 10 MB message and a 10 MB offloaded tool output round-trip',
    timeoutMs: 60_000,
    async run({ open }) {
      const store = await open();
      const tenMegabytes = 'ß€😀x'.repeat((10 * 1024 * 1024) / 10);
      await store.append('c1', [
        userMessage('big-user', tenMegabytes),
        assistantToolCalls('a1', ['call-1']),
        toolResult('big-tool', 'call-1', tenMegabytes),
      ]);
      const [user, , tool] = await store.load('c1');
      assert.ok(user?.content === tenMegabytes, 'the 10 MB user message is intact');
      assert.ok(tool?.fullOutputPath !== undefined, 'the 10 MB tool output is offloaded');
      assert.ok(
        Buffer.from(await store.getBlob(tool.fullOutputPath)).toString('utf8') === tenMegabytes,
        'the 10 MB offloaded output reads back exactly',
      );
    },
  },
];
