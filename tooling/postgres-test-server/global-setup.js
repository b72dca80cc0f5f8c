// vitest globalSetup: gives the tests a PostgreSQL server. With DATABASE_URL already set it uses that
// server and starts nothing; otherwise it starts a throwaway one and stops it in teardown.
// Tests read the URL with `inject('databaseUrl')` or `process.env.DATABASE_URL`.
import { startPostgres, stopAllSync } from './index.js';

const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'];

/** @type {import('./index.js').PostgresServer | undefined} */
let server;

function onSignal(signal) {
  stopAllSync();
  server = undefined;
  removeSignalHandlers();
  // Nobody else handles this signal (vitest does for SIGINT and SIGTERM): re-raise it so the process
  // ends the way it would have without us.
  if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
}

function removeSignalHandlers() {
  for (const signal of SIGNALS) process.off(signal, onSignal);
}

export async function setup(project) {
  let url = process.env.DATABASE_URL;
  if (!url) {
    // startPostgres stops its servers on a normal exit. A signal can end the process without 'exit'
    // listeners running (vitest's handler exits from inside its own 'exit' listener), so stop the server
    // in front of vitest's handler. Registered before starting: an interrupted start cleans up too.
    for (const signal of SIGNALS) process.prependListener(signal, onSignal);
    try {
      server = await startPostgres({
        log: process.env.POSTGRES_TEST_SERVER_DEBUG ? (line) => console.log(`[postgres] ${line}`) : undefined,
      });
    } catch (error) {
      removeSignalHandlers();
      throw error;
    }
    url = server.url;
    process.env.DATABASE_URL = url;
  }
  project.provide('databaseUrl', url);
}

export async function teardown() {
  if (!server) return;
  const stopping = server;
  server = undefined;
  removeSignalHandlers();
  if (process.env.DATABASE_URL === stopping.url) delete process.env.DATABASE_URL;
  await stopping.stop();
}
