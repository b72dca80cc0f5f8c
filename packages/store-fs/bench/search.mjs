// node --expose-gc bench/search.mjs: listConversations({ search }) over 1,000 conversations × 20
// messages, on the store that wrote them and on one just opened (no text index: each candidate's
// log is read). Prints one JSON line.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { seedConversationSearch, timeConversationSearch } from '@cairn/bench';
import { createFsConversationStore } from '../dist/index.js';

const root = await mkdtemp(join(tmpdir(), 'cairn-fs-search-bench-'));
try {
  const writer = createFsConversationStore({ rootDir: root, durability: 'none' });
  await seedConversationSearch(writer);
  const warm = await timeConversationSearch(writer);
  await writer.close();
  const reader = createFsConversationStore({ rootDir: root, durability: 'none' });
  const reopened = await timeConversationSearch(reader);
  await reader.close();
  console.log(JSON.stringify({ bench: 'store-fs search, 1000 × 20 messages', warm, reopened }));
} finally {
  await rm(root, { recursive: true, force: true });
}
