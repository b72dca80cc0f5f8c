// Benchmarks of @cairn/store-sqlite against simple baselines, and of its two drivers against each
// other where Node has node:sqlite, measured side by side in one run (interleaved rounds, medians,
// ~1 KB messages). Run: pnpm --filter @cairn/store-sqlite bench
// [-- --crash-trials N] (builds nothing: run `pnpm build` first).
import {
  closeSync,
  fsyncSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  readSync,
  rmSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { benchMessage, createSeedJsonArrayStore, interleaved, report } from '@cairn/bench';
import { runCrashTrials } from '@cairn/storage/testkit/runner';
import { createSqliteConversationStore } from '../dist/index.js';
import * as factory from '../test/store-factory.mjs';

const { values } = parseArgs({ options: { 'crash-trials': { type: 'string', default: '500' } } });
const LONG = 10_000;
const SHORT = 10;
const APPEND_ROUNDS = 15;
const APPENDS_PER_ROUND = 20;

const dir = mkdtempSync(join(tmpdir(), 'cairn-store-sqlite-bench-'));
const messages = (prefix, count) =>
  Array.from({ length: count }, (_, index) => benchMessage(`${prefix}-${index}`));

async function fill(store, conversationId, count) {
  for (let start = 0; start < count; start += 100) {
    await store.append(conversationId, messages(`${conversationId}-${start}`, Math.min(100, count - start)));
  }
}

/**
 * Figure 1: the cost of one append to a short conversation and to a 10,000-message one, ours and
 * the seed's. Both sides append to one conversation per round, so they touch the same number of
 * hot pages: the short one is a fresh conversation of SHORT messages each round (it grows to
 * SHORT + APPENDS_PER_ROUND), the long one grows from LONG.
 */
async function appendCostByLength() {
  const store = createSqliteConversationStore({ filename: join(dir, 'append.db') });
  const seed = createSeedJsonArrayStore(join(dir, 'seed'));
  for (let round = 0; round < APPEND_ROUNDS; round++) {
    await store.append(`short-${round}`, messages(`short-${round}`, SHORT));
    for (const message of messages(`short-${round}`, SHORT)) seed.append(`short-${round}`, message);
  }
  await fill(store, 'long', LONG);
  // The seed store's own format (one pretty-printed array): appending 10,000 times through it
  // would take minutes, which is what this figure is about.
  mkdirSync(join(dir, 'seed', 'long'), { recursive: true });
  writeFileSync(join(dir, 'seed', 'long', 'messages.json'), JSON.stringify(messages('long', LONG), null, 2));
  const rounds = { short: -1, seedShort: -1 };
  let next = 0;
  const timed = await interleaved(APPEND_ROUNDS, {
    short: {
      iterations: APPENDS_PER_ROUND,
      fn: (index) => {
        if (index === 0) rounds.short++;
        return store.append(`short-${rounds.short}`, [benchMessage(`x${next++}`)]);
      },
    },
    long: { iterations: APPENDS_PER_ROUND, fn: () => store.append('long', [benchMessage(`x${next++}`)]) },
    seedShort: {
      iterations: APPENDS_PER_ROUND,
      fn: (index) => {
        if (index === 0) rounds.seedShort++;
        seed.append(`short-${rounds.seedShort}`, benchMessage(`x${next++}`));
      },
    },
    seedLong: { iterations: 1, fn: () => seed.append('long', benchMessage(`x${next++}`)) },
  });
  await store.close();
  return timed;
}

/** Figure 2: loading a 10,000-message conversation against reading the same messages as one JSON array. */
async function loadCost() {
  const store = createSqliteConversationStore({ filename: join(dir, 'load.db') });
  await fill(store, 'long', LONG);
  const loaded = await store.load('long');
  const arrayFile = join(dir, 'long.json');
  writeFileSync(arrayFile, JSON.stringify(loaded));
  const timed = await interleaved(15, {
    load: { iterations: 1, fn: () => store.load('long') },
    readParse: { iterations: 1, fn: () => JSON.parse(readFileSync(arrayFile, 'utf8')) },
  });
  await store.close();
  return { ...timed, megabytes: Buffer.byteLength(JSON.stringify(loaded)) / 1e6 };
}

/**
 * Figure 4, where this Node has node:sqlite (>= 22.13): the two drivers side by side, one file
 * each, in one interleaved run: an append to a 10,000-message conversation (as appends per second)
 * and a load of 10,000 messages. Same schema, same SQL, same pragmas: what differs is the binding.
 */
async function driverCost() {
  const stores = {
    better: createSqliteConversationStore({ filename: join(dir, 'better.db'), driver: 'better-sqlite3' }),
    node: createSqliteConversationStore({ filename: join(dir, 'node.db'), driver: 'node:sqlite' }),
  };
  for (const store of Object.values(stores)) {
    await fill(store, 'long', LONG);
    await fill(store, 'appends', LONG);
  }
  let next = 0;
  const append = (store) => ({
    iterations: APPENDS_PER_ROUND,
    fn: () => store.append('appends', [benchMessage(`v${next++}`)]),
  });
  const load = (store) => ({ iterations: 1, fn: () => store.load('long') });
  try {
    return await interleaved(APPEND_ROUNDS, {
      appendBetter: append(stores.better),
      appendNode: append(stores.node),
      loadBetter: load(stores.better),
      loadNode: load(stores.node),
    });
  } finally {
    for (const store of Object.values(stores)) await store.close();
  }
}

// What a one-message commit to an existing conversation writes to the WAL: 1 page (the message
// leaf), a 24-byte frame header and a 4 KiB page, then one fsync. A message that starts a new leaf
// (one ~1 KB append in three) also writes the leaf's parent and page 1, whose header holds the
// file's size: 1.7 pages a commit on average.
const WAL_COMMIT_BYTES = 24 + 4096;

// How many times a WAL has restarted from its start after a checkpoint: its header's checkpoint
// sequence number (bytes 12-15, big-endian).
function walRestarts(filename) {
  const header = Buffer.alloc(4);
  const fd = openSync(`${filename}-wal`, 'r');
  try {
    readSync(fd, header, 0, 4, 12);
  } finally {
    closeSync(fd);
  }
  return header.readUInt32BE(0);
}

/**
 * Figure 3: a durable append against writing and fsyncing the same bytes to a file. The baselines
 * do synchronously what the store's call does underneath (better-sqlite3 is synchronous): append
 * the message's stored JSON line with one writeSync, then fsyncSync. A second baseline writes the
 * WAL's page-sized bytes instead, to show where the difference goes.
 *
 * A database in use is measured, not a new file: a new database's WAL grows (each fsync also
 * extends the file) until its first checkpoint, ~1,000 frames in. So the store first appends,
 * untimed, until its WAL has been checkpointed and restarted; from then on commits overwrite
 * space the WAL already has, as they do for the rest of the database's life.
 */
async function durableAppendCost() {
  const filename = join(dir, 'durable.db');
  const store = createSqliteConversationStore({ filename, durability: 'append' });
  let warmMessages = 0;
  while (walRestarts(filename) === 0) {
    await store.append('durable', messages(`warm-${warmMessages}`, 50));
    warmMessages += 50;
  }
  const fd = openSync(join(dir, 'raw.log'), 'a');
  const pagesFd = openSync(join(dir, 'pages.log'), 'a');
  const pages = Buffer.alloc(WAL_COMMIT_BYTES, 'x');
  let seq = 0;
  let rawSeq = 0;
  try {
    const timed = await interleaved(25, {
      durable: { iterations: 20, fn: () => store.append('durable', [benchMessage(`d${seq++}`)]) },
      writeFsync: {
        iterations: 20,
        fn: () => {
          writeSync(fd, `${JSON.stringify({ ...benchMessage(`d${rawSeq}`), seq: ++rawSeq })}\n`);
          fsyncSync(fd);
        },
      },
      writePagesFsync: {
        iterations: 20,
        fn: () => {
          writeSync(pagesFd, pages);
          fsyncSync(pagesFd);
        },
      },
    });
    return { ...timed, warmMessages };
  } finally {
    closeSync(fd);
    closeSync(pagesFd);
    await store.close();
  }
}

const ms = (value) => `${value.toFixed(3)} ms`;
const perSecond = (msPerCall) => `${Math.round(1000 / msPerCall)} appends/s`;
const hasNodeSqlite = process.getBuiltinModule('node:sqlite') !== undefined;
try {
  const append = await appendCostByLength();
  const load = await loadCost();
  const durable = await durableAppendCost();
  const drivers = hasNodeSqlite ? await driverCost() : undefined;
  if (drivers === undefined)
    console.log(`node:sqlite driver: not measured, Node ${process.version} has no node:sqlite`);
  // The crash test at benchmark scale (the CI suite runs 50 trials).
  const trials = Number(values['crash-trials']);
  const crashSeconds = await runCrashTrials({
    factory,
    factoryModule: new URL('../test/store-factory.mjs', import.meta.url),
    trials,
  });
  const ok = report(
    '@cairn/store-sqlite',
    [
      {
        name: `append at message ${LONG} ÷ at message ${SHORT}`,
        value: append.long / append.short,
        goal: 1.3,
        detail: `durability 'turn': ${ms(append.long)} vs ${ms(append.short)} per ~1 KB append (${LONG}+ vs ${SHORT}-${SHORT + APPENDS_PER_ROUND} messages)`,
        peer: { name: 'seed JSON array, same ratio', value: append.seedLong / append.seedShort },
      },
      {
        name: `seed JSON array: append at ${LONG} ÷ at ${SHORT}`,
        value: append.seedLong / append.seedShort,
        detail: `rewrite the whole array: ${ms(append.seedLong)} vs ${ms(append.seedShort)}`,
      },
      {
        name: `load ${LONG} messages ÷ readFile + JSON.parse`,
        value: load.load / load.readParse,
        goal: 1.5,
        detail: `${ms(load.load)} vs ${ms(load.readParse)} (readFileSync + one JSON.parse of a ${load.megabytes.toFixed(1)} MB array)`,
        peer: { name: 'readFile + JSON.parse', value: load.readParse, unit: 'ms' },
      },
      {
        name: "durable append ('append') ÷ write + fsync",
        value: durable.durable / durable.writeFsync,
        peer: { name: 'write + fsync', value: durable.writeFsync, unit: 'ms' },
        goal: 1.2,
        detail: `${ms(durable.durable)} vs ${ms(durable.writeFsync)} (writeSync of the message's stored JSON line to a growing file + fsyncSync; the database first took ${durable.warmMessages} messages untimed, so its WAL has been checkpointed and restarted: a database in use, not a new file)`,
      },
      {
        name: 'durable append ÷ write + fsync of WAL-sized bytes',
        value: durable.durable / durable.writePagesFsync,
        peer: { name: 'write + fsync of WAL-sized bytes', value: durable.writePagesFsync, unit: 'ms' },
        detail: `${ms(durable.durable)} vs ${ms(durable.writePagesFsync)} (writeSync of ${WAL_COMMIT_BYTES} bytes, the page a commit writes, appended to a growing file, + fsyncSync)`,
      },
      ...(drivers === undefined
        ? []
        : [
            {
              name: `node:sqlite ÷ better-sqlite3: append at message ${LONG}`,
              value: drivers.appendNode / drivers.appendBetter,
              peer: { name: 'better-sqlite3', value: 1000 / drivers.appendBetter, unit: 'appends/s' },
              detail: `durability 'turn': ${perSecond(drivers.appendNode)} vs ${perSecond(drivers.appendBetter)} (${ms(drivers.appendNode)} vs ${ms(drivers.appendBetter)} per ~1 KB append)`,
            },
            {
              name: `node:sqlite ÷ better-sqlite3: load ${LONG} messages`,
              value: drivers.loadNode / drivers.loadBetter,
              peer: { name: 'better-sqlite3', value: drivers.loadBetter, unit: 'ms' },
              detail: `${ms(drivers.loadNode)} vs ${ms(drivers.loadBetter)}`,
            },
          ]),
      {
        name: 'SIGKILL crash trials, every acknowledged append intact',
        value: trials,
        unit: 'trials',
        detail: `${crashSeconds.toFixed(0)} s`,
      },
    ],
    { milliseconds: { append, load, durable, ...(drivers === undefined ? {} : { drivers }) } },
  );
  process.exitCode = ok ? 0 : 1;
} finally {
  rmSync(dir, { recursive: true, force: true });
}
