import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ToolCallAccumulator, type ToolCallDelta, type ToolCallUpdate } from './tool-call-accumulator.js';

const pushAll = (accumulator: ToolCallAccumulator, deltas: ToolCallDelta[]): ToolCallUpdate[] =>
  deltas.flatMap((delta) => accumulator.push(delta));

describe('ToolCallAccumulator', () => {
  it('joins OpenAI-style indexed deltas of parallel calls', () => {
    const accumulator = new ToolCallAccumulator();
    const updates = pushAll(accumulator, [
      { index: 0, id: 'call_a', function: { name: 'search', arguments: '' } },
      { index: 0, function: { arguments: '{"q":' } },
      { index: 1, id: 'call_b', function: { name: 'now', arguments: '{}' } },
      { index: 0, function: { arguments: '"x"}' } },
    ]);
    expect(updates).toEqual([
      { type: 'start', id: 'call_a', toolName: 'search' },
      { type: 'arguments', id: 'call_a', delta: '{"q":' },
      { type: 'start', id: 'call_b', toolName: 'now' },
      { type: 'arguments', id: 'call_b', delta: '{}' },
      { type: 'arguments', id: 'call_a', delta: '"x"}' },
    ]);
    expect(accumulator.toolCalls()).toEqual([
      { id: 'call_a', toolName: 'search', arguments: '{"q":"x"}' },
      { id: 'call_b', toolName: 'now', arguments: '{}' },
    ]);
  });

  it('holds arguments that arrive before the name, and generates missing ids', () => {
    const accumulator = new ToolCallAccumulator({ generateId: (index) => `gen-${index}` });
    const updates = pushAll(accumulator, [
      { index: 0, function: { arguments: '{"a"' } },
      { index: 0, function: { name: 'f', arguments: ':1}' } },
    ]);
    expect(updates).toEqual([
      { type: 'start', id: 'gen-0', toolName: 'f' },
      { type: 'arguments', id: 'gen-0', delta: '{"a"' },
      { type: 'arguments', id: 'gen-0', delta: ':1}' },
    ]);
  });

  it('follows servers that leave out the index', () => {
    const accumulator = new ToolCallAccumulator();
    pushAll(accumulator, [
      { id: 'x', function: { name: 'f', arguments: '{' } },
      { function: { arguments: '}' } },
      { id: 'y', function: { name: 'g', arguments: '[' } },
      { id: 'y', function: { arguments: ']' } },
    ]);
    expect(accumulator.toolCalls()).toEqual([
      { id: 'x', toolName: 'f', arguments: '{}' },
      { id: 'y', toolName: 'g', arguments: '[]' },
    ]);
  });

  it('reports a call that never got a name as a bad response', () => {
    const accumulator = new ToolCallAccumulator();
    accumulator.push({ index: 0, function: { arguments: '{}' } });
    expect(() => accumulator.toolCalls()).toThrow(expect.objectContaining({ code: 'LLM_BAD_RESPONSE' }));
  });

  it('rebuilds each call from its updates whatever the split of its arguments', () => {
    const call = fc.record({ name: fc.stringMatching(/^[a-z]{1,8}$/), args: fc.json() });
    fc.assert(
      fc.property(
        fc.array(call, { minLength: 1, maxLength: 4 }),
        fc.array(fc.nat(), { maxLength: 20 }),
        (calls, cuts) => {
          // Interleave the calls' pieces round-robin, as parallel calls stream.
          const pieces = calls.map(({ name, args }, index) => {
            const points = [...new Set(cuts.map((cut) => cut % (args.length + 1)))].sort((a, b) => a - b);
            const parts = [...points, args.length].map((end, at, all) =>
              args.slice(at === 0 ? 0 : (all[at - 1] as number), end),
            );
            return parts.map(
              (part, at): ToolCallDelta => ({
                index,
                ...(at === 0
                  ? { id: `call_${name}_${index}`, function: { name, arguments: part } }
                  : { function: { arguments: part } }),
              }),
            );
          });
          const deltas = Array.from({ length: Math.max(...pieces.map((each) => each.length)) }, (_, at) =>
            pieces.flatMap((each) => (each[at] === undefined ? [] : [each[at]])),
          ).flat();
          const accumulator = new ToolCallAccumulator();
          const rebuilt = new Map<string, string>();
          for (const update of pushAll(accumulator, deltas)) {
            if (update.type === 'start') rebuilt.set(update.id, '');
            else rebuilt.set(update.id, `${rebuilt.get(update.id) ?? 'NOT STARTED'}${update.delta}`);
          }
          const expected = calls.map(({ name, args }, index) => ({
            id: `call_${name}_${index}`,
            toolName: name,
            arguments: args,
          }));
          expect(accumulator.toolCalls()).toEqual(expected);
          expect([...rebuilt]).toEqual(expected.map(({ id, arguments: args }) => [id, args]));
        },
      ),
      { numRuns: 100 },
    );
  });

  it('keeps parallel calls apart when a server sends them all at index 0, told apart by their ids', () => {
    const accumulator = new ToolCallAccumulator();
    accumulator.push({ index: 0, id: 'c1', function: { name: 'f', arguments: '{"x":' } });
    accumulator.push({ index: 0, function: { arguments: '1}' } });
    accumulator.push({ index: 0, id: 'c2', function: { name: 'g', arguments: '{"y":2}' } });
    expect(accumulator.toolCalls()).toEqual([
      { id: 'c1', toolName: 'f', arguments: '{"x":1}' },
      { id: 'c2', toolName: 'g', arguments: '{"y":2}' },
    ]);
  });
});
