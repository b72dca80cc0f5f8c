import assert from 'node:assert/strict';
import { type ConversationMessage, type ConversationStore, MAX_MESSAGE_DEPTH } from '@cairn/core';
import { rejectsWithCode } from '../assert-store.js';
import type { ConformanceCase } from '../conformance-case.js';
import { toolResult, userMessage, withoutSeq } from '../test-messages.js';

// A store writes a message's JSON. Whatever JSON would change (toJSON, a Date, a Map, NaN, a hole)
// or cannot write at all (a BigInt, a cycle, a stack-deep nesting) is refused before anything is
// written, so a message that was acknowledged is always the one that loads back.

type Loose = Record<string, unknown>;

/** A message carrying `value` in a field no version defines (stored as is, never looked at). */
const withExtra = (id: string, value: unknown) =>
  ({ ...userMessage(id, 'extra'), extra: value }) as unknown as ConversationMessage;

/** A tool result whose `structuredResult` (a JSON field the schema checks) is `value`. */
const withResult = (id: string, value: unknown) =>
  ({ ...toolResult(id, 'call-1', 'done'), structuredResult: value }) as unknown as ConversationMessage;

/** `levels` objects (or arrays) inside one another, the innermost holding `true`. */
function nested(levels: number, kind: 'object' | 'array'): unknown {
  let value: unknown = true;
  for (let level = 0; level < levels; level++) value = kind === 'object' ? { a: value } : [value];
  return value;
}

function cyclic(): Loose {
  const value: Loose = { name: 'loop' };
  value.self = { back: value };
  return value;
}

/** Appends each message alone to a conversation holding one message: each is refused, nothing changes. */
async function assertEachRefused(
  store: ConversationStore,
  messages: Readonly<Record<string, ConversationMessage>>,
): Promise<void> {
  const before = await store.append('c1', [userMessage('kept', 'before')]);
  for (const [label, message] of Object.entries(messages)) {
    await rejectsWithCode(store.append('c1', [message]), 'INVALID_MESSAGE').catch((error: unknown) => {
      assert.fail(`${label}: ${error instanceof Error ? error.message : String(error)}`);
    });
    assert.deepEqual(await store.load('c1'), before.messages, `${label}: the log is unchanged`);
  }
  assert.deepEqual(
    (await store.append('c1', [userMessage('after', 'next')])).seqs,
    [2],
    'the next append continues at seq 2: the refused messages used no seq',
  );
}

class Point {
  constructor(
    readonly x: number,
    readonly y: number,
  ) {}
}

export const plainJsonCases: ConformanceCase[] = [
  {
    name: 'values JSON would store as something else are refused with INVALID_MESSAGE (toJSON, Date, Map, class, NaN, holes)',
    async run({ open }) {
      const store = await open();
      await assertEachRefused(store, {
        'a message with its own toJSON': Object.assign(userMessage('m1', 'said'), {
          toJSON: () => ({ id: 'm1', role: 'user', content: 'something else', createdAt: 'x' }),
        }),
        'an object with toJSON': withExtra('m2', { toJSON: () => 'other' }),
        'a Date': withExtra('m3', new Date(0)),
        'a Map': withExtra('m4', new Map([['k', 1]])),
        'a class instance': withExtra('m5', new Point(1, 2)),
        'a boxed string': withExtra('m6', Object('text')),
        NaN: withExtra('m7', { n: Number.NaN }),
        Infinity: withExtra('m8', [Number.POSITIVE_INFINITY]),
        'undefined in an array': withExtra('m9', [1, undefined, 3]),
        'a hole in an array': withExtra('m10', Object.assign(new Array(3), { 0: 1, 2: 3 })),
        'a function': withExtra('m11', { run: () => 1 }),
        'a symbol': withExtra('m12', Symbol('s')),
      });
    },
  },
  {
    name: 'BigInt and cyclic values are refused with INVALID_MESSAGE, in any field',
    async run({ open }) {
      const store = await open();
      await assertEachRefused(store, {
        'a BigInt in an extra field': withExtra('m1', { big: 10n }),
        'a BigInt in structuredResult': withResult('m2', { big: 10n }),
        'a BigInt in providerMetadata': {
          ...userMessage('m3', 'x'),
          providerMetadata: { p: { n: 1n } },
        } as unknown as ConversationMessage,
        'a cycle in an extra field': withExtra('m4', cyclic()),
        'a cycle in structuredResult': withResult('m5', cyclic()),
        'a message that contains itself': (() => {
          const message = userMessage('m6', 'x') as unknown as Loose;
          message.extra = [message];
          return message as unknown as ConversationMessage;
        })(),
      });
    },
  },
  {
    name: 'values nested 5,000 levels deep are refused with INVALID_MESSAGE, in any field',
    async run({ open }) {
      const store = await open();
      await assertEachRefused(store, {
        'objects in an extra field': withExtra('m1', nested(5000, 'object')),
        'arrays in an extra field': withExtra('m2', nested(5000, 'array')),
        'objects in structuredResult': withResult('m3', nested(5000, 'object')),
        'arrays in structuredResult': withResult('m4', nested(5000, 'array')),
      });
    },
  },
  {
    name: `a message nested MAX_MESSAGE_DEPTH (${MAX_MESSAGE_DEPTH}) levels deep loads back equal; one level more is refused`,
    async run({ open }) {
      const store = await open();
      // The message itself is the first level.
      const deepest = [
        withExtra('m1', nested(MAX_MESSAGE_DEPTH - 1, 'object')),
        withResult('m2', nested(MAX_MESSAGE_DEPTH - 1, 'array')),
      ];
      const stored = await store.append('c1', deepest);
      assert.deepEqual(
        stored.messages.map(withoutSeq),
        deepest,
        'the deepest accepted message is stored as sent',
      );
      assert.deepEqual(
        await store.load('c1'),
        stored.messages,
        'the deepest accepted message loads back equal',
      );
      for (const tooDeep of [
        withExtra('m3', nested(MAX_MESSAGE_DEPTH, 'object')),
        withResult('m4', nested(MAX_MESSAGE_DEPTH, 'array')),
      ]) {
        await rejectsWithCode(store.append('c1', [tooDeep]), 'INVALID_MESSAGE');
      }
      assert.deepEqual(
        await store.load('c1'),
        stored.messages,
        'the messages one level too deep wrote nothing',
      );
    },
  },
  {
    name: 'what append acknowledges is what load returns (undefined fields, -0, __proto__ keys, null prototypes)',
    async run({ open }) {
      const store = await open();
      const nullPrototype = Object.assign(Object.create(null) as Loose, { k: 'v' });
      const sent = [
        { ...userMessage('m1', 'undefined fields'), toolName: undefined, extra: { gone: undefined } },
        withExtra('m2', { zero: -0, list: [-0] }),
        withExtra('m3', JSON.parse('{"__proto__": {"polluted": true}, "kept": 1}')),
        withExtra('m4', nullPrototype),
      ] as ConversationMessage[];
      const acknowledged = await store.append('c1', sent);
      assert.deepEqual(
        await store.load('c1'),
        acknowledged.messages,
        'load returns what append acknowledged',
      );
      assert.deepEqual(
        acknowledged.messages.map(withoutSeq),
        sent.map((message) => JSON.parse(JSON.stringify(message))),
        'what append acknowledges is the messages through JSON',
      );
      assert.equal(({} as Loose).polluted, undefined, 'no prototype was polluted');
    },
  },
  {
    name: 'a message is read once: the value validated is the value stored',
    async run({ open }) {
      const store = await open();
      // A getter that answers differently the second time: storing a second reading would store
      // what was never validated (here, a user message with numeric content).
      let reads = 0;
      const message = userMessage('m1', 'unused') as unknown as Loose;
      Object.defineProperty(message, 'content', {
        enumerable: true,
        get: () => (reads++ === 0 ? 'first reading' : 42),
      });
      const acknowledged = await store.append('c1', [message as unknown as ConversationMessage]);
      const loaded = await store.load('c1');
      assert.deepEqual(loaded, acknowledged.messages, 'load returns the value append acknowledged');
      assert.equal(loaded[0]?.content, 'first reading', 'the content of the one reading, not the second');
    },
  },
];
