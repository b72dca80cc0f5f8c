import type { ResolvedModel } from '@cairn/connect';
import { REAL_MODEL_HINT } from './real-model-hint.js';

/** Why the demo answers: it is the CLI's fallback when no model is configured. */
const DEMO_SOURCE = 'no API key found';

/** The start-up banner, so nobody mistakes the demo's canned answers for a model's. */
export const demoBanner = (source: string): string =>
  `model: offline demo (${source}): a scripted tour of a sample project, not a language model; its answers are canned.\n${REAL_MODEL_HINT}`;

/** `CAIRN_DEMO_DELAY_MS`: the pause between streamed chunks (tests set 0). */
function demoChunkDelayMs(env: NodeJS.ProcessEnv): number | undefined {
  const value = env.CAIRN_DEMO_DELAY_MS?.trim();
  const delay = value === undefined || value === '' ? Number.NaN : Number(value);
  return Number.isSafeInteger(delay) && delay >= 0 ? delay : undefined;
}

/**
 * The CLI's `fallback` for `resolveModel`: the offline demo model, introduced by its banner.
 * `close()` stops its server.
 */
export async function startDemoFallback(env: NodeJS.ProcessEnv): Promise<ResolvedModel> {
  // Loaded only when it is the answer: it brings the mock servers of @cairn/testing.
  const { startDemoModel } = await import('./demo-model.js');
  const chunkDelayMs = demoChunkDelayMs(env);
  const demo = await startDemoModel(chunkDelayMs === undefined ? {} : { chunkDelayMs });
  return { ...demo, source: DEMO_SOURCE, description: demoBanner(DEMO_SOURCE) };
}
