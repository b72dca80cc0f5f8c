// A bench server in its own process (bench-server.mjs over IPC), so the load generator never
// shares its event loop. What a scenario's `start` returns: `{ baseURL, port, ask(type, payload?),
// close() }`, `ask` answering the IPC requests bench-server.mjs lists.
import { fork } from 'node:child_process';
import { wallClock } from './stamped-model.mjs';

/**
 * Forks `script` (bench-server.mjs, or bench-cluster.mjs for a cluster) with `config` (`mode: 'cairn' |
 * 'bare'`, store, model, …).
 */
export async function startBenchServer(config, script = './bench-server.mjs') {
  const child = fork(new URL(script, import.meta.url), [JSON.stringify(config)], {
    execArgv: ['--expose-gc'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  // A failed run must not leave the server behind.
  const kill = () => child.kill();
  process.once('exit', kill);
  const pending = new Map();
  let nextId = 0;
  const port = await new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`bench server (${config.mode}) exited with ${code}`)));
    child.on('message', (message) => {
      if (message.type === 'ready') resolve(message.port);
      const { id, ...answer } = message;
      pending.get(id)?.(answer);
      pending.delete(id);
    });
  });
  const ask = (type, payload) =>
    new Promise((resolve) => {
      const id = nextId++;
      pending.set(id, resolve);
      child.send({ id, type, payload });
    });
  return {
    baseURL: `http://127.0.0.1:${port}`,
    port,
    ask,
    async close() {
      await ask('close');
      await exited;
      process.off('exit', kill);
    },
  };
}

/** Remote clock − local clock (ms), from the round trip with the smallest delay. */
export async function clockOffset(askRemote, rounds = 20) {
  let best = { roundTrip: Number.POSITIVE_INFINITY, offset: 0 };
  for (let round = 0; round < rounds; round++) {
    const sent = wallClock();
    const { now } = await askRemote();
    const received = wallClock();
    if (received - sent < best.roundTrip)
      best = { roundTrip: received - sent, offset: now - (sent + received) / 2 };
  }
  return best;
}
