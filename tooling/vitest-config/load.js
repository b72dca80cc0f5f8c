// How hard the machine running the tests is loaded, from the environment, so that timeouts and
// worker counts fit it. Read by the shared vitest config (index.js) and by tests (`propertyTimeout`).
import { availableParallelism } from 'node:os';

/** Test timeouts are written for an idle machine and multiplied by this on a loaded one. */
export const LOADED_MACHINE_FACTOR = 3;

function positiveNumber(name) {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === '') return undefined;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) {
    throw new Error(`${name} must be a positive number, got ${JSON.stringify(raw)}`);
  }
  return value;
}

/**
 * How many packages run their tests at once: `CAIRN_TEST_CONCURRENCY`, which `pnpm test`
 * (run-all-tests.mjs) sets for turbo and for each package's vitest; 1 when a package runs alone.
 */
export function packagesAtOnce() {
  return Math.max(1, Math.floor(positiveNumber('CAIRN_TEST_CONCURRENCY') ?? 1));
}

/**
 * The timeout multiplier: `CAIRN_TEST_TIMEOUT_FACTOR` when set; else LOADED_MACHINE_FACTOR on CI
 * (`CI`) or when several packages run at once (`pnpm test`); else 1 (one package run by hand).
 */
export function timeoutFactor() {
  const explicit = positiveNumber('CAIRN_TEST_TIMEOUT_FACTOR');
  if (explicit !== undefined) return explicit;
  const ci = process.env.CI !== undefined && !['', '0', 'false'].includes(process.env.CI.toLowerCase());
  return ci || packagesAtOnce() > 1 ? LOADED_MACHINE_FACTOR : 1;
}

/** `ms` (a timeout that suffices on an idle machine) scaled for the machine the tests run on. */
export function scaledTimeout(ms) {
  return Math.round(ms * timeoutFactor());
}

/**
 * The timeout for a fast-check property test (`it(name, () => fc.assert(…, { numRuns }), propertyTimeout(ms))`):
 * `ms` is what its fixed number of runs needs on an idle machine, with room; scaled like every timeout.
 */
export function propertyTimeout(ms) {
  return scaledTimeout(ms);
}

/**
 * Vitest workers per package: `CAIRN_TEST_WORKERS` when set; else the cores shared among the
 * packages running at once, so packages × workers ≈ cores (not cores²), at least 1.
 */
export function workersPerPackage() {
  const explicit = positiveNumber('CAIRN_TEST_WORKERS');
  if (explicit !== undefined) return Math.max(1, Math.floor(explicit));
  return Math.max(1, Math.floor(availableParallelism() / packagesAtOnce()));
}
