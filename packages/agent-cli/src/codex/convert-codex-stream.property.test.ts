import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chunksWithJunk, collectStream, isFromJunk, junkLine } from '../../test/stream-test-support.js';
import { convertCodexStream } from './convert-codex-stream.js';

const FIXTURE = readFileSync(new URL('../../fixtures/real/codex/main.jsonl', import.meta.url), 'utf8');
const LINES = FIXTURE.split('\n').filter((line) => line !== '');
const options = { now: () => new Date('2030-01-01T00:00:00.000Z'), runId: 'run' };
const collect = (chunks: readonly (string | Uint8Array)[]) =>
  collectStream((source) => convertCodexStream(source, options), chunks);

describe('convertCodexStream', () => {
  it('gives the same events for any chunking with junk lines inserted', async () => {
    const expected = await collect([FIXTURE]);
    await fc.assert(
      fc.asyncProperty(chunksWithJunk(LINES, junkLine('{"type":"item.completed"')), async (chunks) => {
        const events = await collect(chunks);
        expect(events.filter((event) => !isFromJunk(event))).toEqual(expected);
      }),
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
