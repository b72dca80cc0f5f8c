import { processCases } from './cases/process-cases.js';
import { runConformanceCase } from './run-conformance-case.js';
import type { StoreFactory } from './store-factory.js';

/**
 * The kit's SIGKILL crash test at any scale (benchmark scripts run it 500 times); resolves with
 * the seconds it took, rejects on the first acknowledged append that was lost.
 */
export async function runCrashTrials(options: {
  factory: StoreFactory;
  factoryModule: string | URL;
  trials: number;
}): Promise<number> {
  const crashCase = processCases.find((testCase) => testCase.name.includes('SIGKILL'));
  if (crashCase === undefined) throw new Error('the crash case is missing from the kit');
  const started = performance.now();
  await runConformanceCase(crashCase, {
    name: 'crash trials',
    factory: options.factory,
    processes: { factoryModule: options.factoryModule, crashTrials: options.trials },
  });
  return (performance.now() - started) / 1000;
}
