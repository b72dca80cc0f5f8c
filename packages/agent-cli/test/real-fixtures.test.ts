import { type AgentOutput, AgentOutputSchema } from '@cairn/core';
import { describe, expect, it } from 'vitest';
import { convertLines, readRealFixture, realFixturesManifest } from './real-fixtures.js';

/**
 * What the converters do not map yet, over all real fixtures: each `unknown` event described as
 * `<cli>: <line type>[/<subtype>]` (a whole line kept raw) or `<cli>: <line type> field <name>`
 * (a field of a recognised line kept raw), with why it matters. Today's converters are described, not
 * judged: when a mapping lands, its entry must go (the last test says which), and a new CLI
 * version that adds something unmapped fails the first test until it is mapped or listed here.
 */
const NOT_MAPPED_YET: Record<string, string> = {
  // Claude Code's init line: session facts a UI could show (agents, skills, MCP servers); none is needed to store the run.
  'claude-code: system field agents': 'the sub-agent types the Agent tool offers',
  'claude-code: system field skills': 'skills available to the session',
  'claude-code: system field slash_commands': 'slash commands available to the session',
  'claude-code: system field plugins': 'installed plugins',
  'claude-code: system field mcp_servers': 'MCP servers and their status',
  'claude-code: system field apiKeySource': 'where the API key came from (ANTHROPIC_API_KEY)',
  'claude-code: system field output_style': 'the output style',
  'claude-code: system field analytics_disabled': 'telemetry off (the offline environment)',
  'claude-code: system field product_feedback_disabled': 'feedback prompts off',
  'claude-code: system field memory_paths': "where the CLI keeps the project's memory",
  'claude-code: system field fast_mode_state': 'fast mode on/off',
  // Claude Code's result line: timings and a mode flag; the run's duration, usage and cost are mapped.
  'claude-code: result field duration_api_ms': 'time spent in API calls',
  'claude-code: result field ttft_ms': 'time to first token',
  'claude-code: result field ttft_stream_ms': 'time to first streamed token',
  'claude-code: result field time_to_request_ms': 'time until the first request',
  'claude-code: result field fast_mode_state': 'fast mode on/off',
  // An estimate while the model thinks (think); the assistant line's usage gives the real count after.
  'claude-code: system/thinking_tokens': 'estimated thinking tokens while the model thinks',
  // Qwen Code's init and result lines (Claude Code's format, its own extras).
  'qwen-code: system field mcp_servers': 'MCP servers and their status',
  'qwen-code: system field permission_mode': 'the approval mode (yolo)',
  'qwen-code: system field slash_commands': 'slash commands available to the session',
  'qwen-code: system field qwen_code_version': "the CLI's version",
  'qwen-code: system field agents': 'the sub-agent types the agent tool offers',
  'qwen-code: result field duration_api_ms': 'time spent in API calls',
};

/** Lines that carry nothing but their type, so no event is lost by converting them to none. */
const CONTENT_FREE_LINES: Record<string, string> = {
  'codex: turn.started': 'a turn began; its end (turn.completed/turn.failed) carries the usage or error',
};

function describeUnmapped(cli: string, event: AgentOutput): string[] {
  if (event.type !== 'unknown') return [];
  const raw = event.raw;
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw))
    return [`${cli}: ${JSON.stringify(raw)}`];
  const fields = raw.fields;
  if (fields !== null && typeof fields === 'object' && !Array.isArray(fields)) {
    return Object.keys(fields).map((field) => `${cli}: ${String(raw.type)} field ${field}`);
  }
  return [
    `${cli}: ${[raw.type, raw.subtype].filter((part) => typeof part === 'string').join('/') || 'untyped'}`,
  ];
}

const unmappedByFixture = new Map<string, Set<string>>();

describe.each(realFixturesManifest.fixtures)('real fixture $file', (fixture) => {
  const converted = convertLines(fixture.cli, readRealFixture(fixture.file));
  const unmapped = new Set(
    converted.flatMap(({ events }) => events.flatMap((event) => describeUnmapped(fixture.cli, event))),
  );
  unmappedByFixture.set(fixture.file, unmapped);

  it('is JSON lines that convert to well-formed events, at least one per line, without throwing', () => {
    for (const { line, events } of converted) {
      if (line === '(end)') continue;
      expect(() => JSON.parse(line), line.slice(0, 200)).not.toThrow();
      if (
        `${fixture.cli}: ${JSON.parse(line).type}` in CONTENT_FREE_LINES &&
        Object.keys(JSON.parse(line)).length === 1
      )
        continue;
      expect(events.length, `no event for: ${line.slice(0, 200)}`).toBeGreaterThan(0);
      for (const event of events) {
        expect(AgentOutputSchema.safeParse(event).error, line.slice(0, 200)).toBeUndefined();
        // LLM_BAD_RESPONSE is the converters' "this line is broken": a real CLI's line never is.
        expect(event.type === 'error' ? event.code : undefined, line.slice(0, 200)).not.toBe(
          'LLM_BAD_RESPONSE',
        );
      }
    }
  });

  it('leaves unmapped only what NOT_MAPPED_YET lists', () => {
    expect([...unmapped].filter((description) => !(description in NOT_MAPPED_YET))).toEqual([]);
  });
});

describe('NOT_MAPPED_YET', () => {
  it('lists only what some fixture still leaves unmapped (remove an entry once it is mapped)', () => {
    const seen = new Set([...unmappedByFixture.values()].flatMap((set) => [...set]));
    expect(Object.keys(NOT_MAPPED_YET).filter((description) => !seen.has(description))).toEqual([]);
  });
});
