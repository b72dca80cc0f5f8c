import { afterAll, describe, expect, it, vi } from 'vitest';
import { fakeAgentCli } from '../../test/support/fake-agent-cli.js';
import { ISOLATION_ENV } from './network-isolation.js';
import { runAgentCliScenario } from './run-agent-cli-scenario.js';

// Detection happens once per process, at the first run: this file's runs are all without a namespace.
process.env[ISOLATION_ENV] = 'off';
afterAll(() => {
  delete process.env[ISOLATION_ENV];
});

describe('a run without a network namespace', () => {
  it('still works, says why in its result and once on stderr', async () => {
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const runs = [];
    for (let index = 0; index < 2; index += 1) {
      runs.push(
        await runAgentCliScenario({
          cli: fakeAgentCli,
          callerUrl: import.meta.url,
          run: { scenario: 'deny', prompt: 'Go. [scenario:deny]', permissions: [] },
        }),
      );
    }
    const notes = stderr.mock.calls
      .map(([text]) => String(text))
      .filter((text) => text.includes('network namespace'));
    stderr.mockRestore();
    expect(notes).toEqual([
      `agent CLIs run WITHOUT a private network namespace (${ISOLATION_ENV}=off); only their settings keep them on loopback\n`,
    ]);
    for (const run of runs) {
      expect(run.isolation).toEqual({ kind: 'loopback-only', reason: `${ISOLATION_ENV}=off` });
      expect(run.code).toBe(0);
      expect(run.requests).toHaveLength(1);
    }
  });
});
