import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type AgentOutput, type AgentOutputOf, base64ToBytes, isAgentOutput } from '@cairn/core';
import {
  type AgentCliScenario,
  agentCliScenarios,
  claudeCodeAgentCli,
  runAgentCliScenario,
} from '@cairn/testing/agent-clis';
import { scaledTimeout } from '@cairn/vitest-config';
import { afterAll, describe, expect, it } from 'vitest';
import { createClaudeCodeConverter } from '../src/claude-code/index.js';

// The pinned real Claude Code reads a PNG in its workspace (the stand-in scripts the Read), and its
// live stdout goes through the converter: the image must come out as a part with the file's bytes.
// The PNG is the one the committed recording holds (fixtures/real-image, scripts/record-image-fixtures.mjs).
const recorded = readFileSync(
  new URL('../fixtures/real-image/claude-code-read-image.jsonl', import.meta.url),
  'utf8',
);
const resultLine = JSON.parse(recorded.split('\n').find((line) => line.includes('"tool_result"')) ?? '{}');
const PNG_BASE64: string = resultLine.message.content[0].content[0].source.data;

const readImage: AgentCliScenario = {
  name: 'read-image',
  description: 'the model reads a PNG in the workspace, then describes it',
  turn: ({ turn }) =>
    [
      { text: 'Looking at the screenshot.', actions: [{ kind: 'read' as const, path: 'shot.png' }] },
      { text: 'The screenshot is two flat halves split by a noisy line.' },
    ][turn],
};

const roots: string[] = [];
afterAll(async () => {
  for (const root of roots) await rm(root, { recursive: true, force: true });
});

describe('the real Claude Code reading a PNG', () => {
  it(
    'gives a tool_result whose content is the image, the same bytes, 800×600',
    async () => {
      const root = await mkdtemp(join(tmpdir(), 'cairn-agent-cli-'));
      roots.push(root);
      await mkdir(join(root, 'work'), { recursive: true });
      await writeFile(join(root, 'work', 'shot.png'), base64ToBytes(PNG_BASE64));
      const run = await runAgentCliScenario({
        cli: claudeCodeAgentCli,
        callerUrl: import.meta.url,
        root,
        scenarios: { ...agentCliScenarios, [readImage.name]: readImage },
        run: {
          scenario: readImage.name,
          prompt: 'Look at shot.png. [scenario:read-image]',
          permissions: ['Read'],
        },
        timeoutMs: scaledTimeout(120_000),
      });
      expect(run.code, run.stderr).toBe(0);
      const converter = createClaudeCodeConverter();
      const events: AgentOutput[] = [
        ...run.stdout
          .toString('utf8')
          .split('\n')
          .flatMap((line) => converter.push(line)),
        ...converter.end(),
      ];
      expect(events.every(isAgentOutput)).toBe(true);
      const results = events.filter(
        (event): event is AgentOutputOf<'tool_result'> => event.type === 'tool_result',
      );
      expect(results).toEqual([
        expect.objectContaining({
          toolName: 'Read',
          output: '[image]',
          isError: false,
          content: [
            {
              type: 'image',
              mediaType: 'image/png',
              source: { type: 'base64', data: PNG_BASE64 },
              width: 800,
              height: 600,
            },
          ],
        }),
      ]);
    },
    scaledTimeout(150_000),
  );
});
