#!/usr/bin/env node
// cairn-store-conformance <factory-module> [--processes] [--only <text>] [--json]
// Runs the conformance kit against the StoreFactory a module exports, without a test framework.
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { CONFORMANCE_GROUPS } from './conformance-cases.js';
import { runConformanceCase } from './run-conformance-case.js';
import type { ConformanceOptions, StoreFactory } from './store-factory.js';

const USAGE = `Usage: cairn-store-conformance <factory-module> [--processes] [--only <text>] [--json]

  <factory-module>  a JavaScript module exporting createLocation(), openStore(location)
                    and optionally destroyLocation(location)
  --processes       also run the multi-process concurrency and crash tests
  --only <text>     run only cases whose group or name contains <text>
  --json            print one JSON line per case instead of text`;

async function main(): Promise<number> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      processes: { type: 'boolean', default: false },
      only: { type: 'string' },
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  const [modulePath] = positionals;
  if (values.help || modulePath === undefined) {
    console.log(USAGE);
    return values.help ? 0 : 2;
  }
  const factoryModule = pathToFileURL(resolve(modulePath));
  const factory = (await import(factoryModule.href)) as StoreFactory;
  const options: ConformanceOptions = {
    name: modulePath,
    factory,
    ...(values.processes ? { processes: { factoryModule } } : {}),
  };
  const counts = { passed: 0, failed: 0, skipped: 0 };
  for (const [group, cases] of Object.entries(CONFORMANCE_GROUPS)) {
    for (const testCase of cases) {
      if (values.only !== undefined && !`${group} ${testCase.name}`.includes(values.only)) continue;
      const started = performance.now();
      let line: { group: string; name: string; status: string; ms?: number; reason?: string; error?: string };
      try {
        const outcome = await runConformanceCase(testCase, options);
        counts[outcome.status]++;
        line =
          outcome.status === 'passed'
            ? { group, name: testCase.name, status: 'passed', ms: Math.round(performance.now() - started) }
            : { group, name: testCase.name, status: 'skipped', reason: outcome.reason };
      } catch (error) {
        counts.failed++;
        line = {
          group,
          name: testCase.name,
          status: 'failed',
          error: error instanceof Error ? error.message : String(error),
        };
      }
      if (values.json) console.log(JSON.stringify(line));
      else {
        const mark = line.status === 'passed' ? '✓' : line.status === 'skipped' ? '-' : '✗';
        console.log(`${mark} ${group} › ${line.name}${line.reason ? ` (${line.reason})` : ''}`);
        if (line.error) console.log(`    ${line.error.split('\n').join('\n    ')}`);
      }
    }
  }
  console.log(`${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped`);
  return counts.failed === 0 ? 0 : 1;
}

process.exitCode = await main();
