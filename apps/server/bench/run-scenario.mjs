// One scenario's run on a fresh server process: memory per idle stream (when asked), the warm-up,
// the create burst, the turn phase, then the lost-message check on the store it wrote.
import { readFile } from 'node:fs/promises';
import { createBurst, turnPhase, warmUp } from './conversation-load.mjs';
import { countStore } from './count-store.mjs';
import { cpuBreakdown } from './cpu-categories.mjs';
import { openStore, persists } from './open-store.mjs';
import { measureStreamMemory } from './stream-memory.mjs';
import { makeTempDir } from './temp-dir.mjs';

/**
 * `options`: conversations (autocannon's) and sampled (the sampler's) created at once, then `turns`
 * each; warmUp `{ conversations, turns }`; chunks per answer; idleStreams (0: no memory figure);
 * apiToken; server (the rest of the server's config); profileFile (a CPU profile of the turn phase,
 * returned bucketed as `breakdown`).
 */
export async function runScenario(scenario, options) {
  const { apiToken, turns } = options;
  const tempDir = makeTempDir('cairn-server-bench-');
  const storeDir = tempDir.path;
  try {
    const server = await scenario.start({ ...options.server, storeDir, apiToken });
    let memory;
    let warmUpIds;
    let creates;
    let turnResult;
    let counts;
    const expected = () => [
      { ids: creates.ids, turns },
      { ids: warmUpIds, turns: options.warmUp.turns },
    ];
    try {
      if (options.idleStreams > 0) memory = await measureStreamMemory(server, apiToken, options.idleStreams);
      warmUpIds = await warmUp(server, apiToken, options.warmUp);
      creates = await createBurst(server, apiToken, options.conversations + options.sampled);
      turnResult = await turnPhase(server, apiToken, {
        ids: creates.ids.slice(0, options.conversations),
        samplerIds: creates.ids.slice(options.conversations),
        turns,
        ...(options.profileFile === undefined ? {} : { profileFile: options.profileFile }),
      });
      // The memory store dies with the server: it is counted there, before the server closes.
      if (scenario.store !== undefined && !persists(scenario.store)) {
        counts = (await server.ask('count', { groups: expected(), chunks: options.chunks })).counts;
      }
    } finally {
      await server.close();
    }
    if (scenario.store !== undefined && persists(scenario.store)) {
      const store = openStore(scenario.store, scenario.storeDir?.(storeDir) ?? storeDir);
      try {
        counts = await countStore(store, expected(), options.chunks);
      } finally {
        await store.close();
      }
    }
    const breakdown =
      options.profileFile === undefined
        ? undefined
        : cpuBreakdown(JSON.parse(await readFile(options.profileFile, 'utf8')));
    return { memory, creates, turnPhase: turnResult, counts, breakdown };
  } finally {
    tempDir.remove();
  }
}
