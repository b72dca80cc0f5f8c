import { rm } from 'node:fs/promises';
import {
  type AgentCliRun,
  agentCliFixturePlans,
  agentCliIsolation,
  agentClis,
  resolveAgentCli,
  runAgentCliScenario,
} from '@cairn/testing/agent-clis';
import { scaledTimeout } from '@cairn/vitest-config';
import { afterAll, describe, expect, it } from 'vitest';
import { readRealFixture, realFixturesManifest, streamShape } from './real-fixtures.js';

// The pinned real CLIs (the `agent-clis` pnpm catalog), run offline against their stand-ins: a
// stream whose shape differs from the committed fixture means the CLI and the fixtures drifted
// apart (re-record: `pnpm fixtures:record`). Fast scenarios only, those a CLI has a plan for (Codex
// CLI and Qwen Code have no `deny`); the recorder covers the rest.
const FIXTURES = ['main', 'resume2', 'deny'];
const isolation = agentCliIsolation();

describe.each(Object.keys(agentCliFixturePlans))('real %s', (name) => {
  const cli = agentClis[name];
  if (cli === undefined) throw new Error(`no agent CLI definition "${name}"`);
  const { version } = resolveAgentCli(cli, import.meta.url);
  console.log(
    `agent CLI ${name} ${version}, isolation: ${isolation.kind === 'network-namespace' ? isolation.description : `none (${isolation.reason})`}`,
  );
  const runs = new Map<string, AgentCliRun>();
  afterAll(async () => {
    for (const root of new Set([...runs.values()].map((run) => run.root)))
      await rm(root, { recursive: true, force: true });
  });

  it('is the version the fixtures were recorded with', () => {
    expect(version).toBe(realFixturesManifest.clis[name]?.version);
  });

  const fixtures = FIXTURES.filter((fixture) =>
    agentCliFixturePlans[name]?.some((plan) => plan.fixture === fixture),
  );
  it.each(fixtures)(
    '%s: the stream has the shape of the committed fixture',
    async (fixture) => {
      const plan = agentCliFixturePlans[name]?.find((candidate) => candidate.fixture === fixture);
      if (plan === undefined) throw new Error(`no plan ${name}/${fixture}`);
      const { fixture: _fixture, resumes, ...run } = plan;
      const resumed = resumes === undefined ? undefined : runs.get(resumes);
      if (resumes !== undefined && resumed?.sessionId === undefined)
        throw new Error(`${fixture} needs ${resumes} first`);
      const result = await runAgentCliScenario({
        cli,
        callerUrl: import.meta.url,
        run: resumed?.sessionId === undefined ? run : { ...run, resumeSessionId: resumed.sessionId },
        ...(resumed === undefined ? {} : { root: resumed.root }),
        timeoutMs: scaledTimeout(120_000),
      });
      runs.set(fixture, result);
      const recorded = realFixturesManifest.fixtures.find(
        (entry) => entry.file === `${name}/${fixture}.jsonl`,
      );
      expect(streamShape(result.stdout.toString('utf8')), result.stderr).toEqual(
        streamShape(readRealFixture(`${name}/${fixture}.jsonl`)),
      );
      expect({ code: result.code, signal: result.signal }).toEqual({
        code: recorded?.exitCode,
        signal: recorded?.signal,
      });
      expect(result.isolation).toEqual(isolation);
    },
    scaledTimeout(150_000),
  );
});
