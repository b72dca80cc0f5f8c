import type { JsonValue } from '@cairn/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonValueText } from './json-value-text.js';

// A Claude Code assistant line around a tool input, as the CLI prints it.
const lineWith = (input: unknown, space?: number) =>
  JSON.stringify(
    {
      type: 'assistant',
      message: { id: 'msg_1', content: [{ type: 'tool_use', id: 'toolu_1', name: 'Edit', input }] },
      session_id: 's',
    },
    null,
    space,
  );

const textOf = (line: string, input: JsonValue) => jsonValueText(line, 'input', input);

describe('jsonValueText', () => {
  it('cuts out the exact text of the value under a key', () => {
    const input = { file_path: '/w/a.ts', old_string: 'say "hi"\n', new_string: '{ "input": [1, 2] }' };
    expect(textOf(lineWith(input), input)).toBe(JSON.stringify(input));
    const indented = textOf(lineWith(input, 2), input);
    expect(indented).toMatch(/^\{\n +"file_path"/);
    expect(JSON.parse(indented ?? '')).toEqual(input);
  });

  it('skips the same characters inside strings and keys nested in the value', () => {
    const input = { note: ',"input":{"x":1}', input: { nested: true } };
    const line = `{"message":${JSON.stringify({ id: 'toolu_1', input })},"uuid":"u"}`;
    expect(textOf(line, input)).toBe(JSON.stringify(input));
  });

  it('is undefined when the key occurs as a key more than once outside the value', () => {
    const input = { command: 'rm -rf /' };
    const duplicate =
      '{"content":[{"type":"tool_use","input":{"command":"ls"},"input":{"command":"rm -rf /"}}]}';
    const elsewhere =
      '{"tool_use_result":{"input":{"command":"ls"}},"content":[{"input":{"command":"rm -rf /"}}]}';
    expect(textOf(duplicate, input)).toBeUndefined();
    expect(textOf(elsewhere, input)).toBeUndefined();
    // JSON allows spaces before the colon: the later key (the one JSON.parse keeps) is still seen.
    const spaced = '{"input":{"command":"ls"}, "input" : {"command":"rm -rf /"}}';
    expect(textOf(spaced, input)).toBeUndefined();
  });

  it('finds a key with spaces around its colon', () => {
    expect(textOf('{ "id": 1, "input" :\n {"a": [1, 2]} }', { a: [1, 2] })).toBe('{"a": [1, 2]}');
  });

  it('never answers with another value than the one JSON.parse keeps, whatever the keys and spaces', () => {
    const space = fc.constantFrom('', ' ', '\n  ');
    const entry = fc
      .tuple(
        fc.constantFrom('input', 'inputs', 'x', 'in"put'),
        space,
        space,
        // Values of one shape but different content too: only their text tells them apart.
        fc.oneof(fc.jsonValue(), fc.constantFrom({ a: 1 }, { a: 2 }, [1], [2])),
      )
      .map(
        ([key, before, after, value]) => `${JSON.stringify(key)}${before}:${after}${JSON.stringify(value)}`,
      );
    fc.assert(
      fc.property(fc.array(entry, { maxLength: 5 }), space, (entries, around) => {
        const line = `{${around}${entries.join(`,${around}`)}${around}}`;
        const parsed = JSON.parse(line) as Record<string, JsonValue>;
        if (!Object.hasOwn(parsed, 'input')) return;
        const expected = parsed.input as JsonValue;
        const text = textOf(line, expected);
        if (text !== undefined) expect(JSON.parse(text)).toEqual(expected);
      }),
      { numRuns: 1000 },
    );
  });

  it('is undefined, not an exception, for a key with a bad escape', () => {
    expect(jsonValueText('{"input":{"\\x":1}}', 'input', { x: 1 })).toBeUndefined();
  });

  it('is undefined when the value found is not the expected one', () => {
    const line = lineWith({ a: 1, b: 2 });
    expect(textOf(line, { b: 2, a: 1 })).toBeUndefined();
    expect(textOf(line, { a: 1 })).toBeUndefined();
    expect(jsonValueText(line, 'missing', {})).toBeUndefined();
    expect(jsonValueText('{"input":{"a":"unterminated', 'input', { a: '' })).toBeUndefined();
  });

  it('finds any JSON value as the producer serialised it, or nothing, and never throws', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.constantFrom(undefined, 1, 2), (input, space) => {
        const line = lineWith(input, space);
        const text = textOf(line, input as JsonValue);
        if (text !== undefined) expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(input)));
        // Compact output, the way agent CLIs print lines, is always found.
        if (space === undefined) expect(text).toBe(JSON.stringify(input));
      }),
      { numRuns: 500 },
    );
  });

  it('never throws on arbitrary text', () => {
    fc.assert(
      fc.property(fc.string(), fc.jsonValue(), (text, expected) => {
        jsonValueText(`{"input":${text}`, 'input', expected as JsonValue);
        jsonValueText(text, 'input', expected as JsonValue);
      }),
      { numRuns: 100 },
    );
  });
});
