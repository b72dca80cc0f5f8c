import { readFileSync } from 'node:fs';
import type { AgentOutput } from '@cairn/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { convertCodexStream } from './convert-codex-stream.js';

const FIXTURE = readFileSync(new URL('../../fixtures/real/codex/main.jsonl', import.meta.url), 'utf8');
const LINES = FIXTURE.split('\n').filter((line) => line !== '');
const options = { now: () => new Date('2030-01-01T00:00:00.000Z'), runId: 'run' };

async function collect(chunks: readonly (string | Uint8Array)[]): Promise<AgentOutput[]> {
  async function* source() {
    yield* chunks;
  }
  const events: AgentOutput[] = [];
  for await (const event of convertCodexStream(source(), options)) events.push(event);
  return events;
}

/** `text` cut at the given positions, as bytes so UTF-8 characters may split. */
function cut(text: string, positions: number[]): Uint8Array[] {
  const bytes = new TextEncoder().encode(text);
  const marks = [...new Set(positions.map((p) => p % (bytes.length + 1)))].sort((a, b) => a - b);
  const chunks: Uint8Array[] = [];
  let start = 0;
  for (const mark of [...marks, bytes.length]) {
    chunks.push(bytes.subarray(start, mark));
    start = mark;
  }
  return chunks;
}

// Junk a terminal might mix in: not JSON, or JSON Codex never writes. Never a line break inside.
const junkLine = fc.oneof(
  fc.string().map((s) => s.replace(/[\r\n]/g, ' ')),
  fc.constant('{"type":"item.completed"'),
  fc.jsonValue().map((value) => JSON.stringify({ type: 'telemetry', value })),
);
const isFromJunk = (event: AgentOutput) => event.type === 'error' || event.type === 'unknown';

describe('convertCodexStream', () => {
  it('gives the same events for any chunking with junk lines inserted', async () => {
    const expected = await collect([FIXTURE]);
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fc.nat(LINES.length), junkLine), { maxLength: 8 }),
        fc.array(fc.nat(), { maxLength: 40 }),
        async (insertions, positions) => {
          const lines = [...LINES];
          for (const [index, junk] of insertions) lines.splice(index % (lines.length + 1), 0, junk);
          const events = await collect(cut(`${lines.join('\n')}\n`, positions));
          expect(events.filter((event) => !isFromJunk(event))).toEqual(expected);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('never throws and gives only valid events on arbitrary JSON lines', async () => {
    const item = fc.record(
      {
        id: fc.oneof(fc.string(), fc.integer()),
        type: fc.constantFrom(
          'agent_message',
          'reasoning',
          'command_execution',
          'file_change',
          'mcp_tool_call',
          'web_search',
          'todo_list',
          'error',
          'x',
        ),
        text: fc.jsonValue(),
        items: fc.jsonValue(),
        changes: fc.jsonValue(),
        status: fc.jsonValue(),
        exit_code: fc.jsonValue(),
      },
      { requiredKeys: ['id', 'type'] },
    );
    const line = fc.oneof(
      fc.record({ type: fc.constantFrom('item.started', 'item.updated', 'item.completed'), item }),
      fc.record({
        type: fc.constantFrom('thread.started', 'turn.completed', 'turn.failed', 'error'),
        thread_id: fc.jsonValue(),
        usage: fc.jsonValue(),
        error: fc.jsonValue(),
        message: fc.jsonValue(),
      }),
      fc.jsonValue(),
    );
    const { isAgentOutput } = await import('@cairn/core');
    await fc.assert(
      fc.asyncProperty(fc.array(line), async (lines) => {
        const events = await collect(lines.map((value) => `${JSON.stringify(value)}\n`));
        expect(events.every(isAgentOutput)).toBe(true);
      }),
      { numRuns: 200 },
    );
  });
});
