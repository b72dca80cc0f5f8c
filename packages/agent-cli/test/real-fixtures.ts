import { readFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { AgentOutput } from '@cairn/core';
import { recordedFixtureCwd } from '@cairn/testing/agent-clis';
import { createClaudeCodeConverter } from '../src/claude-code/index.js';
import { createCodexConverter } from '../src/codex/index.js';
import { createGeminiCliConverter } from '../src/gemini-cli/index.js';
import { createQwenCodeConverter } from '../src/qwen-code/index.js';

/** One entry of `fixtures/real/manifest.json` (written by `scripts/record-real-fixtures.mjs`). */
export interface RealFixture {
  file: string;
  cli: string;
  fixture: string;
  scenario: string;
  command: string[];
  exitCode: number | null;
  signal: string | null;
  /** The run's stderr beside the fixture, where the recorder kept it. */
  stderrFile?: string;
}

export interface RealFixturesManifest {
  clis: Record<string, { package: string; version: string; versionOutput: string }>;
  fixtures: RealFixture[];
  /** `pathPlaceholder`: what the recorder writes for each run's directory (its cwd is `work/` in it). */
  captured: { pathPlaceholder: string };
}

const fixturesDirectory = fileURLToPath(new URL('../fixtures/real/', import.meta.url));

export const realFixturesManifest = JSON.parse(
  readFileSync(`${fixturesDirectory}manifest.json`, 'utf8'),
) as RealFixturesManifest;

/** The cwd every real fixture was recorded in, as the recorder wrote it (machine-independent). */
export const REAL_FIXTURE_CWD = recordedFixtureCwd(pathToFileURL(fixturesDirectory));

export function readRealFixture(file: string): string {
  return readFileSync(`${fixturesDirectory}${file}`, 'utf8');
}

/** A line converter per CLI (the manifest's `cli`): a new CLI's fixtures need one entry here. */
export const convertersByCli: Record<
  string,
  () => { push(line: string): AgentOutput[]; end(): AgentOutput[] }
> = {
  'claude-code': () => createClaudeCodeConverter({ now: () => new Date(0) }),
  'gemini-cli': () => createGeminiCliConverter({ now: () => new Date(0) }),
  codex: () => createCodexConverter({ now: () => new Date(0) }),
  'qwen-code': () => createQwenCodeConverter({ now: () => new Date(0) }),
};

/** The events of each line of a stream (the last entry: what `end()` returned). */
export function convertLines(cli: string, text: string): { line: string; events: AgentOutput[] }[] {
  const create = convertersByCli[cli];
  if (create === undefined) throw new Error(`no converter for CLI "${cli}": add one to convertersByCli`);
  const converter = create();
  const lines = text.split('\n').filter((line) => line.length > 0);
  return [
    ...lines.map((line) => ({ line, events: converter.push(line) })),
    { line: '(end)', events: converter.end() },
  ];
}

function record(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}

/**
 * A stream's shape, one entry per JSON line: its type, subtype, role, the types and tool names of
 * its content blocks, its tool name and status. Ids, timestamps, texts and usage are left out, so
 * two runs of one scenario with one CLI version have the same shape.
 */
export function streamShape(text: string): string[] {
  return text
    .split('\n')
    .filter((line) => line.length > 0)
    .map((line) => {
      let value: Record<string, unknown>;
      try {
        value = record(JSON.parse(line));
      } catch {
        return 'not JSON';
      }
      const message = record(value.message);
      const blocks = Array.isArray(message.content) ? message.content.map(record) : [];
      return [
        value.type,
        value.subtype,
        value.role ?? message.role,
        ...blocks.map((block) => [block.type, block.name].filter(Boolean).join(' ')),
        value.tool_name,
        value.status,
      ]
        .filter((part) => typeof part === 'string' && part.length > 0)
        .join(' ');
    });
}
