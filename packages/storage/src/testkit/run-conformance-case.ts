import type { ConversationStore, StoreCapabilities } from '@cairn/core';
import type { CaseRequirement, ConformanceCase } from './conformance-case.js';
import type { ConformanceOptions } from './store-factory.js';

export type CaseOutcome = { status: 'passed' } | { status: 'skipped'; reason: string };

function missingRequirement(
  requirement: CaseRequirement,
  capabilities: StoreCapabilities,
  options: ConformanceOptions,
): string | undefined {
  if (requirement === 'processes') return options.processes ? undefined : 'no processes.factoryModule given';
  return capabilities[requirement] ? undefined : `the store does not claim capabilities.${requirement}`;
}

/**
 * Runs one case on a fresh location and cleans up (stores closed, location destroyed) whatever
 * happens. Throws what the case throws.
 */
export async function runConformanceCase(
  testCase: ConformanceCase,
  options: ConformanceOptions,
): Promise<CaseOutcome> {
  const skipped = options.skip?.find((prefix) => testCase.name.startsWith(prefix));
  if (skipped !== undefined) return { status: 'skipped', reason: `skipped by the backend (${skipped})` };
  const { factory } = options;
  const location = await factory.createLocation();
  const opened: ConversationStore[] = [];
  try {
    const open = async () => {
      const store = await factory.openStore(location);
      opened.push(store);
      return store;
    };
    const probe = await open();
    for (const requirement of testCase.requires ?? []) {
      const reason = missingRequirement(requirement, probe.capabilities, options);
      if (reason !== undefined) return { status: 'skipped', reason };
    }
    await probe.close();
    await testCase.run({ open, location, ...(options.processes ? { processes: options.processes } : {}) });
    return { status: 'passed' };
  } finally {
    await Promise.allSettled(opened.map((store) => store.close()));
    await factory.destroyLocation?.(location);
  }
}
