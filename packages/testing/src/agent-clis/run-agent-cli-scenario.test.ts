import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { definedFields } from '@cairn/core';
import { afterAll, describe, expect, it } from 'vitest';
import { fakeAgentCli } from '../../test/support/fake-agent-cli.js';
import { agentCliIsolation } from './network-isolation.js';
import { type AgentCliRun, runAgentCliScenario } from './run-agent-cli-scenario.js';

const roots: string[] = [];
afterAll(async () => {
  for (const root of roots) await rm(root, { recursive: true, force: true });
});

async function runFake(
  prompt: string,
  extra: Partial<Parameters<typeof runAgentCliScenario>[0]['run']> = {},
  timeoutMs?: number,
): Promise<AgentCliRun> {
  const run = await runAgentCliScenario({
    cli: fakeAgentCli,
    callerUrl: import.meta.url,
    run: { scenario: 'main', prompt, permissions: ['Write'], ...extra },
    ...definedFields({ timeoutMs }),
  });
  roots.push(run.root);
  return run;
}

describe('runAgentCliScenario', () => {
  it('runs the CLI in a fresh HOME and cwd, with an environment built from scratch, against its stand-in', async () => {
    process.env.CAIRN_TEST_SECRET_API_KEY = 'must not reach the CLI';
    const run = await runFake('Go. [scenario:main]');
    expect({ code: run.code, signal: run.signal, timedOut: run.timedOut }).toEqual({
      code: 0,
      signal: null,
      timedOut: false,
    });
    const [init, answer] = run.stdout
      .toString('utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(init).toMatchObject({ session_id: 'fake-session', cwd: run.cwd });
    expect(answer).toMatchObject({
      content: [
        { type: 'text' },
        { type: 'tool_use', name: 'Write', input: { file_path: join(run.cwd, 'hello.txt') } },
      ],
    });
    expect(run.sessionId).toBe('fake-session');
    expect(run.requests).toHaveLength(1);
    expect(run.isolation).toEqual(agentCliIsolation());
    expect(run.envNames).toContain('ANTHROPIC_BASE_URL');
    expect(run.envNames).not.toContain('CAIRN_TEST_SECRET_API_KEY');
    expect(JSON.parse(await readFile(join(run.home, 'fake-settings.json'), 'utf8'))).toEqual({
      permissions: ['Write'],
    });
    delete process.env.CAIRN_TEST_SECRET_API_KEY;
  });

  it('signals the whole process group, and reports the signal that ended the CLI', async () => {
    const run = await runFake('Wait. [wait] [scenario:sleep]', {
      interrupt: { signal: 'SIGINT', target: 'group', afterStdout: 'sleep 30', delayMs: 0 },
    });
    expect({ code: run.code, signal: run.signal, timedOut: run.timedOut }).toEqual({
      code: null,
      signal: 'SIGINT',
      timedOut: false,
    });
  });

  it('signals the CLI’s own process when asked (inside the namespace too)', async () => {
    const run = await runFake('Wait. [wait] [scenario:sleep]', {
      interrupt: { signal: 'SIGTERM', target: 'process', afterStdout: 'sleep 30', delayMs: 0 },
    });
    expect({ code: run.code, signal: run.signal, timedOut: run.timedOut }).toEqual({
      code: null,
      signal: 'SIGTERM',
      timedOut: false,
    });
  });

  it('kills a CLI that outlives its time limit, and says so', async () => {
    const run = await runFake('Wait. [wait] [scenario:sleep]', {}, 3000);
    expect({ signal: run.signal, timedOut: run.timedOut }).toEqual({ signal: 'SIGKILL', timedOut: true });
  });
});
