import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ConversationStore } from '@cairn/core';
import { createMemoryConversationStore } from '@cairn/storage';
import { createFsConversationStore } from '@cairn/store-fs';
import { createPostgresConversationStore } from '@cairn/store-postgres';
import { createSqliteConversationStore } from '@cairn/store-sqlite';
import { afterEach, beforeEach, inject } from 'vitest';

/** A store backend for the runtime's checklists: `open` gives a store on the same data each time. */
export interface StoreBackend {
  name: string;
  /** A fresh, empty place to store; returns how to open stores on it and how to clean up. */
  create(): Promise<{ open(): ConversationStore; cleanUp(): Promise<void> }>;
}

let schemas = 0;

export const STORE_BACKENDS: StoreBackend[] = [
  {
    name: 'memory',
    async create() {
      // One process, one store: a "restart" opens a view of the same store whose close does nothing.
      const store = createMemoryConversationStore();
      const view = new Proxy(store, {
        get(target, property) {
          if (property === 'close') return async () => {};
          const value = Reflect.get(target, property, target);
          return typeof value === 'function' ? value.bind(target) : value;
        },
      });
      return { open: () => view, cleanUp: () => store.close() };
    },
  },
  {
    name: 'fs',
    async create() {
      const rootDir = await mkdtemp(join(tmpdir(), 'cairn-runtime-fs-'));
      return {
        open: () => createFsConversationStore({ rootDir }),
        cleanUp: () => rm(rootDir, { recursive: true, force: true }),
      };
    },
  },
  {
    name: 'sqlite',
    async create() {
      const dir = await mkdtemp(join(tmpdir(), 'cairn-runtime-sqlite-'));
      return {
        open: () => createSqliteConversationStore({ filename: join(dir, 'conversations.db') }),
        cleanUp: () => rm(dir, { recursive: true, force: true }),
      };
    },
  },
  {
    name: 'postgres',
    async create() {
      const schema = `runtime_${process.pid}_${++schemas}`;
      return {
        open: () => createPostgresConversationStore({ connectionString: inject('databaseUrl'), schema }),
        cleanUp: async () => {},
      };
    },
  },
];

/**
 * Inside a `describe`: a fresh place on `backend` before each test, and `open()` for stores on it
 * (a second `open()` is a restart on the same data); every store opened is closed after the test.
 */
export function useStoreBackend(backend: StoreBackend): { open(): ConversationStore } {
  let place: Awaited<ReturnType<StoreBackend['create']>>;
  let opened: ConversationStore[] = [];
  beforeEach(async () => {
    place = await backend.create();
    opened = [];
  });
  afterEach(async () => {
    for (const store of opened) await store.close();
    await place.cleanUp();
  });
  return {
    open() {
      const store = place.open();
      opened.push(store);
      return store;
    },
  };
}
