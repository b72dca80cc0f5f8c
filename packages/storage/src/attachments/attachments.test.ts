import { randomBytes } from 'node:crypto';
import { type ConversationMessage, createFilePart, createImagePart, toModelMessage } from '@cairn/core';
import { describe, expect, it } from 'vitest';
import { createMemoryConversationStore } from '../memory/memory-conversation-store.js';
import { attachmentRef } from './attachment-ref.js';
import { readPartBytes, resolveContentParts } from './resolve-content-parts.js';

// A PNG: its signature and IHDR header, then noise (the sniffers read only the header).
function png(size: number): Uint8Array {
  const bytes = randomBytes(size);
  bytes.set([
    0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 4, 0, 0, 0, 3,
    0,
  ]);
  return bytes;
}
const createdAt = '2026-11-27T06:00:00.000Z';
const user = (id: string, content: ConversationMessage['content']): ConversationMessage => ({
  id,
  role: 'user',
  createdAt,
  content,
});

describe('media parts in a store', () => {
  it('keeps a 5 MB image out of the log, stores identical bytes once, and reads them back', async () => {
    const store = createMemoryConversationStore();
    const bytes = png(5 * 1024 * 1024);
    const image = createImagePart(bytes, { fileName: 'shot.png' });
    const { messages } = await store.append('c1', [
      user('u1', [{ type: 'text', text: 'see' }, image, image]),
    ]);
    const [stored] = messages;
    expect(JSON.stringify(stored).length).toBeLessThan(10_000);
    const [, first, second] = (stored as ConversationMessage).content as [
      unknown,
      { source: { type: string; sha256: string } },
      unknown,
    ];
    expect(first.source).toMatchObject({ type: 'blob', size: bytes.length });
    expect(second).toEqual(first);
    expect(
      Buffer.from(await store.getBlob(attachmentRef('c1', first.source.sha256))).equals(Buffer.from(bytes)),
    ).toBe(true);
    const [loaded] = await store.load('c1');
    const [resolved] = await resolveContentParts(store, 'c1', [
      toModelMessage(loaded as ConversationMessage),
    ]);
    expect(((resolved as { content: unknown }).content as { source: unknown }[])[1]?.source).toEqual(
      image.source,
    );
  });

  it('keeps small parts inline and refuses bytes that are not what the part says', async () => {
    const store = createMemoryConversationStore();
    const small = createImagePart(png(100));
    const [stored] = (await store.append('c1', [user('u1', [small])])).messages;
    expect(((stored as ConversationMessage).content as { source: unknown }[])[0]?.source).toEqual(
      small.source,
    );
    const lying = { ...createFilePart(png(8000), { mediaType: 'image/png' }), mediaType: 'application/pdf' };
    await expect(store.append('c1', [user('u2', [lying])])).rejects.toMatchObject({
      code: 'INVALID_MESSAGE',
    });
    expect(await store.load('c1')).toHaveLength(1);
  });

  it('says which part is missing when its blob is gone', async () => {
    const store = createMemoryConversationStore();
    const image = createImagePart(png(10_000), { fileName: 'gone.png' });
    const [stored] = (await store.append('c1', [user('u1', [image])])).messages;
    const part = (
      (stored as ConversationMessage).content as Parameters<typeof readPartBytes>[2][]
    )[0] as Parameters<typeof readPartBytes>[2];
    await expect(readPartBytes(store, 'other', part)).rejects.toMatchObject({
      code: 'STORE_NOT_FOUND',
      message: expect.stringContaining('gone.png'),
    });
  });
});
