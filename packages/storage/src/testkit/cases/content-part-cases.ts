import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import {
  type ContentPart,
  type ConversationMessage,
  type ConversationStore,
  createImagePart,
  type ImagePart,
  isMediaPart,
  type MediaPart,
  toModelMessage,
} from '@cairn/core';
import { attachmentRef } from '../../attachments/attachment-ref.js';
import { readPartBytes, resolveContentParts } from '../../attachments/resolve-content-parts.js';
import { caughtCairnError, rejectsWithCode } from '../assert-store.js';
import type { ConformanceCase } from '../conformance-case.js';
import { moduleHref, runWorkerSync } from '../process-harness.js';
import { userMessage } from '../test-messages.js';

const MB = 1024 * 1024;
const CREATED_AT = '2026-01-01T00:00:00.000Z';

/** A PNG of `size` bytes: its signature and IHDR header (all the sniffers read), then `fill`. */
function png(size: number, fill: number): Uint8Array {
  const bytes = new Uint8Array(size).fill(fill);
  bytes.set([
    0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 4, 0, 0, 0, 3,
    0,
  ]);
  return bytes;
}

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const same = (a: Uint8Array, b: Uint8Array) => Buffer.from(a).equals(Buffer.from(b));
const base64 = (text: string) => Buffer.from(text).toString('base64');

function withParts(id: string, content: ContentPart[]): ConversationMessage {
  return { id, role: 'user', content, createdAt: CREATED_AT };
}

/** The media parts of a stored message, in order. */
function mediaParts(message: ConversationMessage | undefined): MediaPart[] {
  assert.ok(message !== undefined && Array.isArray(message.content), 'the message keeps its parts');
  return message.content.filter(isMediaPart);
}

/** Whether the conversation's blob for `bytes` exists (`STORE_NOT_FOUND` is the only "no"). */
async function hasAttachment(store: ConversationStore, conversationId: string, bytes: Uint8Array) {
  try {
    await store.getBlob(attachmentRef(conversationId, sha256(bytes)), { length: 1 });
    return true;
  } catch (error) {
    await rejectsWithCode(Promise.reject(error), 'STORE_NOT_FOUND');
    return false;
  }
}

/**
 * A message holding `image` whose base64 `data`, when read, runs `onRead` once. A store reads a
 * message's fields once, first thing in `prepareAppend` (which then hashes the bytes), so `onRead`
 * runs while the append is being prepared: before the store may take its lock, if it is right.
 */
function messageReading(id: string, image: ImagePart, onRead: () => void): ConversationMessage {
  const { data } = image.source as { data: string };
  let read = false;
  const source = { type: 'base64' } as { type: 'base64'; data: string };
  Object.defineProperty(source, 'data', {
    enumerable: true,
    get() {
      if (!read) {
        read = true;
        onRead();
      }
      return data;
    },
  });
  return withParts(id, [{ ...image, source }]);
}

export const contentPartCases: ConformanceCase[] = [
  {
    name: 'media parts: a 5 MB image leaves the log (its stored message is under 10 KB of JSON) and reads back exactly',
    timeoutMs: 60_000,
    async run({ open }) {
      const store = await open();
      const bytes = png(5 * MB, 7);
      const small = png(200, 8);
      const { messages } = await store.append('c1', [
        withParts('u1', [
          { type: 'text', text: 'what is in this screenshot?' },
          createImagePart(bytes, { fileName: 'shot.png' }),
          createImagePart(small),
        ]),
      ]);
      const [loaded] = await store.load('c1');
      assert.deepEqual(loaded, messages[0], 'load returns the message as append returned it');
      assert.ok(
        JSON.stringify(loaded).length < 10_000,
        `the stored message is ${JSON.stringify(loaded).length} characters of JSON`,
      );
      const [big, inline] = mediaParts(loaded);
      assert.deepEqual(
        big?.source,
        { type: 'blob', sha256: sha256(bytes), size: bytes.length },
        'the 5 MB part names its bytes by SHA-256 and size',
      );
      assert.equal(big?.fileName, 'shot.png', 'the part keeps its file name');
      assert.equal(inline?.source.type, 'base64', 'a part under INLINE_DATA_LIMIT stays inline');
      assert.ok(same(await readPartBytes(store, 'c1', big as MediaPart), bytes), 'the bytes read back');
      const [resolved] = await resolveContentParts(store, 'c1', [
        toModelMessage(loaded as ConversationMessage),
      ]);
      assert.deepEqual(
        (resolved?.content as MediaPart[] | undefined)?.[1]?.source,
        { type: 'base64', data: Buffer.from(bytes).toString('base64') },
        'resolveContentParts gives the bytes back inline for a model request',
      );
    },
  },
  {
    name: 'media parts: identical bytes are stored once per conversation, also across appends, and never written again',
    timeoutMs: 60_000,
    async run({ open }) {
      const store = await open();
      const bytes = png(64 * 1024, 1);
      const image = createImagePart(bytes);
      const first = await store.append('c1', [withParts('u1', [image, image])]);
      const [one, two] = mediaParts(first.messages[0]);
      assert.deepEqual(one?.source, two?.source, 'the same bytes twice in one message: one blob');
      const ref = attachmentRef('c1', sha256(bytes));
      assert.ok(same(await store.getBlob(ref), bytes), `the blob is ${ref}`);
      // A stand-in of the same size under the ref shows whether the next append writes it again.
      const standIn = png(bytes.length, 2);
      await store.putBlob(ref, standIn);
      const second = await store.append('c1', [withParts('u2', [image])]);
      assert.deepEqual(mediaParts(second.messages[0])[0]?.source, one?.source, 'the same source again');
      assert.ok(
        same(await store.getBlob(ref), standIn),
        'an append of bytes the conversation already holds does not write their blob again',
      );
      await store.append('c2', [withParts('u1', [image])]);
      assert.ok(
        same(await store.getBlob(attachmentRef('c2', sha256(bytes))), bytes),
        'another conversation keeps its own copy',
      );
    },
  },
  {
    name: 'media parts: a refused append (stale expectedSeq, taken id, bad part) leaves no blob and stores nothing',
    timeoutMs: 60_000,
    async run({ open }) {
      const store = await open();
      await store.append('c1', [userMessage('u1', 'first')]);
      const before = await store.load('c1');
      const bytes = png(100 * 1024, 3);
      const image = createImagePart(bytes);
      await rejectsWithCode(
        store.append('c1', [withParts('u2', [image])], { expectedSeq: 0 }),
        'STORE_CONFLICT',
      );
      await rejectsWithCode(store.append('c1', [withParts('u1', [image])]), 'STORE_CONFLICT');
      const lying = { ...createImagePart(png(8000, 4)), mediaType: 'image/jpeg' };
      await rejectsWithCode(
        store.append('c1', [withParts('u2', [image]), withParts('u3', [lying])]),
        'INVALID_MESSAGE',
      );
      assert.deepEqual(await store.load('c1'), before, 'the refused appends stored no message');
      assert.equal(await hasAttachment(store, 'c1', bytes), false, 'the refused appends left no blob');
      assert.deepEqual(
        (await store.append('c1', [withParts('u2', [image])])).seqs,
        [2],
        'the append, retried right, lands',
      );
      assert.equal(await hasAttachment(store, 'c1', bytes), true, 'with its blob');
    },
  },
  {
    name: 'media parts: bad input (truncated base64, 0 bytes, a media type not matching its bytes, an SVG with script) is INVALID_MESSAGE and stores nothing',
    timeoutMs: 60_000,
    async run({ open }) {
      const store = await open();
      const good = png(100 * 1024, 5);
      const { data } = createImagePart(png(6000, 6)).source as { data: string };
      const bad: [string, ContentPart][] = [
        [
          'truncated base64',
          { type: 'image', mediaType: 'image/png', source: { type: 'base64', data: data.slice(0, -3) } },
        ],
        [
          'a 0-byte file',
          { type: 'file', mediaType: 'application/pdf', source: { type: 'base64', data: '' } },
        ],
        ['a PNG called a JPEG', { type: 'image', mediaType: 'image/jpeg', source: { type: 'base64', data } }],
        [
          'a PNG called a PDF',
          { type: 'file', mediaType: 'application/pdf', source: { type: 'base64', data } },
        ],
        [
          'an SVG with script',
          {
            type: 'image',
            mediaType: 'image/svg+xml',
            source: {
              type: 'base64',
              data: base64('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
            },
          },
        ],
      ];
      for (const [what, part] of bad) {
        const error = await caughtCairnError(
          store.append('c1', [withParts('u1', [createImagePart(good), part])]),
        );
        assert.equal(error.code, 'INVALID_MESSAGE', `${what}: ${error.code} ${error.message}`);
      }
      assert.deepEqual(await store.load('c1'), [], 'no message was stored');
      assert.deepEqual((await store.listConversations()).conversations, [], 'no conversation was created');
      assert.equal(await hasAttachment(store, 'c1', good), false, "the batch's good image left no blob");
    },
  },
  {
    name: 'media parts: deleting a conversation removes its attachments, not another conversation’s',
    timeoutMs: 60_000,
    async run({ open }) {
      const store = await open();
      const bytes = png(64 * 1024, 9);
      const image = createImagePart(bytes);
      await store.append('c1', [withParts('u1', [image])]);
      await store.append('c1_x', [withParts('u1', [image])]);
      assert.equal(await store.deleteConversation('c1'), true);
      assert.equal(await hasAttachment(store, 'c1', bytes), false, "the deleted conversation's blob is gone");
      assert.equal(await hasAttachment(store, 'c1_x', bytes), true, "another conversation's blob stays");
      await store.append('c1', [withParts('u1', [image])]);
      assert.equal(await hasAttachment(store, 'c1', bytes), true, 'a new c1 stores the bytes again');
    },
  },
  {
    name: 'media parts: a part whose blob is missing loads, and reading its bytes is STORE_NOT_FOUND naming the part',
    timeoutMs: 60_000,
    async run({ open }) {
      const store = await open();
      const image = createImagePart(png(64 * 1024, 10), { fileName: 'diagram.png' });
      const [stored] = (await store.append('c1', [withParts('u1', [image])])).messages;
      // Copied into another conversation without its blob (an import, a hand-edited log).
      const { seq: _seq, ...copy } = stored as ConversationMessage;
      await store.append('c2', [copy]);
      const [loaded] = await store.load('c2');
      assert.deepEqual(mediaParts(loaded)[0]?.source, mediaParts(stored)[0]?.source, 'load still works');
      const error = await caughtCairnError(readPartBytes(store, 'c2', mediaParts(loaded)[0] as MediaPart));
      assert.equal(error.code, 'STORE_NOT_FOUND', `${error.code}: ${error.message}`);
      assert.match(error.message, /diagram\.png/, 'the error names the part');
      await rejectsWithCode(
        resolveContentParts(store, 'c2', [toModelMessage(loaded as ConversationMessage)]),
        'STORE_NOT_FOUND',
      );
    },
  },
  {
    name: 'media parts: an append started while a 20 MB image is being prepared is not held up by it (hashing holds no lock)',
    timeoutMs: 120_000,
    async run({ open }) {
      const store = await open();
      // A first call opens what the store connects with (a database pool's first connection).
      assert.deepEqual(await store.load('c1'), []);
      const bytes = png(20 * MB, 11);
      let quick: Promise<{ seqs: number[] }> | undefined;
      const big = messageReading('big', createImagePart(bytes), () => {
        quick = store.append('c1', [userMessage('quick', 'sent while the image is hashed')]);
      });
      const { seqs } = await store.append('c1', [big]);
      assert.ok(quick !== undefined, 'the store read the message');
      const quickSeqs = (await quick).seqs;
      assert.deepEqual([...quickSeqs, ...seqs].sort(), [1, 2], 'both appends landed, one after the other');
      // One instance whose lock is taken synchronously after preparing: the append started while
      // the image was hashed is first. Where taking the lock is a round trip (a lock file, a
      // database), which append gets there first is a race; the processes case shows for those
      // stores that preparing holds no lock (another process appends while this one waits).
      if (!store.capabilities.concurrentInstances) {
        assert.deepEqual(
          quickSeqs,
          [1],
          'the append started while the image was prepared got the lock first',
        );
      }
      assert.equal(await hasAttachment(store, 'c1', bytes), true, 'with its blob');
    },
  },
  {
    name: 'processes: another process appends while a 20 MB image is being prepared (hashing holds no lock)',
    requires: ['processes', 'concurrentInstances'],
    timeoutMs: 180_000,
    async run({ open, location, processes }) {
      assert.ok(processes, "the harness gives the processes' settings");
      const store = await open();
      const bytes = png(20 * MB, 12);
      let other: ReturnType<typeof runWorkerSync> | undefined;
      // This process waits for the other one, holding whatever it holds at that moment: were it
      // the conversation's lock, the other process could not append.
      const big = messageReading('big', createImagePart(bytes), () => {
        other = runWorkerSync(
          {
            factoryModule: moduleHref(processes.factoryModule),
            location,
            conversationId: 'c1',
            writer: 'other',
            mode: 'writer',
            start: 0,
            count: 1,
          },
          90_000,
        );
      });
      const { seqs } = await store.append('c1', [big]);
      assert.ok(other !== undefined, 'the store read the message');
      assert.equal(other.status, 0, `the other process could not append: ${other.stderr}`);
      assert.deepEqual(other.acks, ['ok 0 1 1'], 'the other process appended at seq 1');
      assert.deepEqual(seqs, [2], 'the 20 MB image landed after it');
      assert.deepEqual(
        (await store.load('c1')).map((message) => message.id),
        ['other-0', 'big'],
        'both are stored',
      );
    },
  },
];
