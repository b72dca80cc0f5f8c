// node --expose-gc bench/search.mjs: listConversations({ search }) over 1,000 conversations × 20
// messages, on the connection that wrote them and on one just opened (LIKE over the JSON in SQL,
// no text index). Prints one JSON line.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { seedConversationSearch, timeConversationSearch } from '@cairn/bench';
import { createSqliteConversationStore } from '../dist/index.js';

const root = await mkdtemp(join(tmpdir(), 'cairn-sqlite-search-bench-'));
const filename = join(root, 'cairn.db');
try {
  const writer = createSqliteConversationStore({ filename });
  await seedConversationSearch(writer);
  const warm = await timeConversationSearch(writer);
  await writer.close();
  const reader = createSqliteConversationStore({ filename });
  const reopened = await timeConversationSearch(reader);
  await reader.close();
  console.log(JSON.stringify({ bench: 'store-sqlite search, 1000 × 20 messages', warm, reopened }));
} finally {
  await rm(root, { recursive: true, force: true });
}
