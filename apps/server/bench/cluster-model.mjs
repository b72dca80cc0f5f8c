// The model module every worker of the bench's cluster imports (runClusterPrimary's `modelModule`):
// the stamped model, with the settings bench-cluster.mjs passes in CAIRN_BENCH_MODEL, seeded per
// worker so the workers' chunk timings differ as separate processes' would.
import cluster from 'node:cluster';
import { seededRandom } from '../../../tooling/bench/index.js';
import { createStampedModel } from './stamped-model.mjs';

export function createModel() {
  const { seed, ...model } = JSON.parse(process.env.CAIRN_BENCH_MODEL ?? '{}');
  return createStampedModel({ ...model, random: seededRandom(seed + (cluster.worker?.id ?? 0)) });
}
