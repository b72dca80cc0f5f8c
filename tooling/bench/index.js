import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Median of numbers (the middle one, or the mean of the two middle ones). */
export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** Milliseconds per call of `fn`, averaged over `iterations` calls made one after another. */
export async function timePerCall(fn, iterations) {
  const started = process.hrtime.bigint();
  for (let index = 0; index < iterations; index++) await fn(index);
  return Number(process.hrtime.bigint() - started) / 1e6 / iterations;
}

/**
 * Runs every case once per round, in turn, for `rounds` rounds, and returns each case's median
 * milliseconds per call. Interleaving puts the compared cases under the same machine noise; the
 * order flips every round, so the aftermath of a heavy case (garbage, dirty pages) does not always
 * fall on the same neighbour.
 */
export async function interleaved(rounds, cases) {
  const samples = Object.fromEntries(Object.keys(cases).map((name) => [name, []]));
  const forward = Object.entries(cases);
  const backward = [...forward].reverse();
  for (let round = 0; round < rounds; round++) {
    for (const [name, { fn, iterations }] of round % 2 === 0 ? forward : backward) {
      globalThis.gc?.();
      samples[name].push(await timePerCall(fn, iterations));
    }
  }
  return Object.fromEntries(Object.entries(samples).map(([name, values]) => [name, median(values)]));
}

/** The process's CPU time (all threads: the GC's and the compiler's too) and involuntary switches so far. */
function cpuNow() {
  const usage = process.resourceUsage();
  return { cpu: usage.userCPUTime + usage.systemCPUTime, preempted: usage.involuntaryContextSwitches };
}

/** CPU microseconds of `calls` calls of `fn` one after another, and whether the OS preempted the process. */
async function cpuBlock(fn, calls) {
  const start = cpuNow();
  for (let index = 0; index < calls; index++) await fn(index);
  const end = cpuNow();
  return { cpu: end.cpu - start.cpu, preempted: end.preempted !== start.preempted };
}

/**
 * `candidate` against `baseline`, side by side at a fine grain: pairs of blocks of
 * `callsPerBlock` calls of each, which goes first flipping every pair, timed in the process's CPU
 * time (every thread: GC and compilation are counted where the allocation or code caused them).
 * A pair in which the OS preempted the process is measured again (another process's turn on the
 * core is noise, not either side's cost), up to `maxPairs` tries. No forced GC: a collection falls
 * in the block whose allocation triggers it, in proportion to what each side allocates.
 * Returns the ratio of the two sides' total CPU time over the kept pairs, each side's milliseconds
 * per call, and the quartiles of the ratio over groups of `pairsPerGroup` pairs (its spread).
 */
export async function pairedCpu({
  baseline,
  candidate,
  callsPerBlock = 10,
  pairs = 500,
  pairsPerGroup = 10,
  maxPairs = pairs * 8,
}) {
  const kept = [];
  let tries = 0;
  while (kept.length < pairs && tries < maxPairs) {
    const candidateFirst = tries++ % 2 === 1;
    const first = await cpuBlock(candidateFirst ? candidate : baseline, callsPerBlock);
    const second = await cpuBlock(candidateFirst ? baseline : candidate, callsPerBlock);
    if (first.preempted || second.preempted) continue;
    kept.push(candidateFirst ? [second.cpu, first.cpu] : [first.cpu, second.cpu]);
  }
  const sum = (rows, side) => rows.reduce((total, row) => total + row[side], 0);
  const groups = [];
  for (let start = 0; start + pairsPerGroup <= kept.length; start += pairsPerGroup) {
    const group = kept.slice(start, start + pairsPerGroup);
    groups.push(sum(group, 1) / sum(group, 0));
  }
  const calls = kept.length * callsPerBlock;
  return {
    ratio: sum(kept, 1) / sum(kept, 0),
    baseline: sum(kept, 0) / 1000 / calls,
    candidate: sum(kept, 1) / 1000 / calls,
    groupQuartiles: quartiles(groups),
    pairs: kept.length,
    preemptedPairs: tries - kept.length,
  };
}

function quartiles(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (fraction) => sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))];
  return sorted.length === 0 ? [Number.NaN, Number.NaN] : [at(0.25), at(0.75)];
}

const format = (value, digits = 3) => (Number.isFinite(value) ? value.toFixed(digits) : String(value));

const withUnit = (value, unit) => `${format(value)}${unit ? ` ${unit}` : ''}`;

const hasGoal = (figure) => figure.goal !== undefined || figure.goalAtLeast !== undefined;
const meetsGoal = (figure) =>
  (figure.goal === undefined || figure.value <= figure.goal) &&
  (figure.goalAtLeast === undefined || figure.value >= figure.goalAtLeast);

/**
 * Prints a benchmark's figures as a table and then one JSON line (`{"bench": …, "figures": […]}`).
 * Each figure: `{ name, value, goal?, goalAtLeast?, unit?, detail?, peer? }`; a figure with a `goal`
 * must be at most it, one with a `goalAtLeast` (a share achieved) at least it; `peer: { name, value, unit? }` is the baseline it is compared with,
 * measured in the same run (a `peer` column appears when any figure has one). Returns true when
 * every goal is met.
 */
export function report(bench, figures, extra = {}) {
  const peers = figures.some((figure) => figure.peer !== undefined);
  const rows = figures.map((figure) => ({
    figure: figure.name,
    value: withUnit(figure.value, figure.unit),
    goal:
      figure.goal !== undefined
        ? `≤ ${figure.goal}`
        : figure.goalAtLeast !== undefined
          ? `≥ ${figure.goalAtLeast}`
          : '',
    ok: hasGoal(figure) ? (meetsGoal(figure) ? 'yes' : 'NO') : '',
    ...(peers
      ? { peer: figure.peer ? `${figure.peer.name}: ${withUnit(figure.peer.value, figure.peer.unit)}` : '' }
      : {}),
    detail: figure.detail ?? '',
  }));
  const widths = Object.keys(rows[0] ?? {}).map((key) =>
    Math.max(key.length, ...rows.map((row) => String(row[key]).length)),
  );
  const line = (cells) => `| ${cells.map((cell, index) => String(cell).padEnd(widths[index])).join(' | ')} |`;
  console.log(`\n${bench}`);
  console.log(line(Object.keys(rows[0] ?? {})));
  console.log(line(widths.map((width) => '-'.repeat(width))));
  for (const row of rows) console.log(line(Object.values(row)));
  const ok = figures.every((figure) => !hasGoal(figure) || meetsGoal(figure));
  console.log(JSON.stringify({ bench, ok, figures, ...extra, node: process.version }));
  return ok;
}

/**
 * The seed design's storage (story 7-2): one `messages.json` array per conversation, read, parsed,
 * extended and rewritten whole on every append. Kept only as the baseline the stores are compared to.
 */
export function createSeedJsonArrayStore(root) {
  const fileOf = (conversationId) => join(root, conversationId, 'messages.json');
  const load = (conversationId) => {
    try {
      return JSON.parse(readFileSync(fileOf(conversationId), 'utf8'));
    } catch (error) {
      if (error.code === 'ENOENT') return [];
      throw error;
    }
  };
  const save = (conversationId, messages) => {
    mkdirSync(join(root, conversationId), { recursive: true });
    writeFileSync(fileOf(conversationId), JSON.stringify(messages, null, 2));
  };
  return {
    load,
    append(conversationId, message) {
      const messages = load(conversationId);
      messages.push(message);
      save(conversationId, messages);
    },
    /** Writes a whole conversation at once (setting up a benchmark, not the seed's behaviour). */
    prefill: save,
  };
}

/** A realistic message of about `bytes` bytes (a tool result with code-like text). */
export function benchMessage(id, bytes = 1000) {
  const line = 'const value = compute(input) // some tool output\n';
  return {
    id,
    role: 'tool',
    tool_call_id: `call-${id}`,
    toolName: 'read_file',
    createdAt: new Date(0).toISOString(),
    content: line.repeat(Math.ceil(bytes / line.length)).slice(0, bytes),
  };
}

/** A seeded xorshift generator of numbers in [0, 1), so every run of a benchmark makes the same data. */
export function seededRandom(seed = 0x2545f491) {
  let state = seed;
  return () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 2 ** 32;
  };
}

const SEARCH_FILLER = 'Please look at the build log and tell me why the integration step fails on CI. ';

/**
 * Fills a store for `timeConversationSearch`: `conversations` conversations of `messages` user and
 * assistant messages (about 330 characters each); every 100th conversation holds the word "needle"
 * once, in its last message.
 */
export async function seedConversationSearch(store, { conversations = 1000, messages = 20 } = {}) {
  for (let index = 0; index < conversations; index++) {
    const batch = Array.from({ length: messages }, (_, seq) => ({
      id: `m${seq}`,
      role: seq % 2 === 0 ? 'user' : 'assistant',
      createdAt: new Date(0).toISOString(),
      content: `${SEARCH_FILLER.repeat(4)}${index % 100 === 0 && seq === messages - 1 ? ' needle' : ''} #${index}.${seq}`,
    }));
    await store.append(`c${index}`, batch);
  }
}

/**
 * Median milliseconds of `listConversations({ search })` over `rounds` runs, on a store
 * `seedConversationSearch` filled: a search no conversation matches (every conversation is read),
 * and the first page of 20 of one that matches 1%. The first run of each is also given on its own
 * (`…FirstRunMs`): a store just opened has no cache.
 */
export async function timeConversationSearch(store, { rounds = 7 } = {}) {
  const time = async (search) => {
    const samples = [];
    for (let round = 0; round < rounds; round++) {
      globalThis.gc?.();
      const started = process.hrtime.bigint();
      await store.listConversations({ search, limit: 20 });
      samples.push(Number(process.hrtime.bigint() - started) / 1e6);
    }
    return { first: samples[0], median: median(samples) };
  };
  const noMatch = await time('no such words');
  const page = await time('NEEDLE');
  return {
    noMatchFirstRunMs: noMatch.first,
    noMatchMs: noMatch.median,
    firstPageMs: page.median,
  };
}
