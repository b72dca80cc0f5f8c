import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseSse, type SseEvent, SseParser } from './sse-parser.js';

const encoder = new TextEncoder();
const fixture = (name: string) => readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url));

function parseAll(chunks: ReadonlyArray<Uint8Array | string>): SseEvent[] {
  const parser = new SseParser();
  return [...chunks.flatMap((chunk) => parser.push(chunk)), ...parser.end()];
}

/** Every way of cutting `bytes` in two. */
function* twoChunkSplits(bytes: Uint8Array): Generator<Uint8Array[]> {
  for (let cut = 0; cut <= bytes.length; cut++) yield [bytes.subarray(0, cut), bytes.subarray(cut)];
}

describe('SseParser', () => {
  it('parses fields, multi-line data, comments and ids', () => {
    const events = parseAll([
      ': keep-alive\n',
      'event: ping\ndata: {"a":1}\nid: 7\nretry: 1500\n\n',
      'data: line one\ndata:line two\ndata\n\n',
      'event: only-type\n\n',
      'unknown: x\ndata:  two spaces\n\n',
    ]);
    expect(events).toEqual([
      { event: 'ping', data: '{"a":1}', id: '7', retry: 1500 },
      // The last event id carries over.
      { data: 'line one\nline two\n', id: '7' },
      { data: ' two spaces', id: '7' },
    ]);
  });

  it('accepts CR and CRLF line breaks and a BOM', () => {
    expect(parseAll(['\uFEFFdata: a\r\rdata: b\r\n\r\n'])).toEqual([{ data: 'a' }, { data: 'b' }]);
  });

  it('ignores bad retry and id values', () => {
    expect(parseAll(['retry: soon\nid: a\0b\ndata: x\n\n'])).toEqual([{ data: 'x' }]);
  });

  it('drops an event the stream ended without its blank line, as a cut connection', () => {
    expect(parseAll(['data: [DONE]'])).toEqual([]);
    expect(parseAll(['data: a\n'])).toEqual([]);
    expect(parseAll(['data: a\r'])).toEqual([]);
    expect(parseAll(['data: {"a":1}\n\ndata: {"b":'])).toEqual([{ data: '{"a":1}' }]);
    expect(parseAll(['data: a\n\n', 'event: x\ndata: b\ndata: c\n'])).toEqual([{ data: 'a' }]);
  });

  it('still delivers an event ended by a blank line in the last chunk', () => {
    expect(parseAll(['data: a\n\n'])).toEqual([{ data: 'a' }]);
    expect(parseAll(['data: a\r\n\r\n'])).toEqual([{ data: 'a' }]);
    expect(parseAll(['data: a\r\r'])).toEqual([{ data: 'a' }]);
  });

  it('carries the last event id over to later events until an empty id clears it', () => {
    expect(parseAll(['id: 1\ndata: a\n\ndata: b\n\nid: 2\ndata: c\n\nid\ndata: d\n\n'])).toEqual([
      { data: 'a', id: '1' },
      { data: 'b', id: '1' },
      { data: 'c', id: '2' },
      { data: 'd' },
    ]);
    // An id on an event without data still sets it; a bad id leaves it as it was.
    expect(parseAll(['id: 3\n\nid: x\0y\ndata: e\n\n'])).toEqual([{ data: 'e', id: '3' }]);
  });

  it.each(['anthropic-sse-turn1.txt', 'gemini-sse-turn1.txt'])(
    'gives the same events for a captured stream cut at every byte (%s)',
    (name) => {
      const bytes = fixture(name);
      const whole = parseAll([bytes]);
      expect(whole.length).toBeGreaterThan(3);
      for (const event of whole) expect(() => JSON.parse(event.data)).not.toThrow();
      for (const chunks of twoChunkSplits(bytes)) expect(parseAll(chunks)).toEqual(whole);
      expect(parseAll([...bytes].map((byte) => Uint8Array.of(byte)))).toEqual(whole);
    },
  );

  it('gives the same events however a generated stream is chunked', () => {
    const text = fc.string({ unit: 'grapheme' }).map((value) => value.replace(/[\r\n]/g, ''));
    const event = fc.record(
      { event: fc.stringMatching(/^[a-z_]{1,12}$/), data: fc.array(text, { minLength: 1, maxLength: 3 }) },
      { requiredKeys: ['data'] },
    );
    const lineBreak = fc.constantFrom('\n', '\r\n', '\r');
    fc.assert(
      fc.property(
        fc.array(event, { maxLength: 8 }),
        lineBreak,
        fc.array(fc.nat(), { maxLength: 12 }),
        (events, eol, rawCuts) => {
          const body = events
            .map(
              ({ event: type, data }) =>
                [...(type ? [`event: ${type}`] : []), ...data.map((line) => `data: ${line}`)].join(eol) +
                eol +
                eol,
            )
            .join(`: comment${eol}`);
          const bytes = encoder.encode(body);
          const cuts = [...new Set(rawCuts.map((cut) => cut % (bytes.length + 1)))].sort((a, b) => a - b);
          const chunks = [...cuts, bytes.length].map((cut, index, all) =>
            bytes.subarray(index === 0 ? 0 : (all[index - 1] as number), cut),
          );
          const expected = events.map(({ event: type, data }) => ({
            ...(type ? { event: type } : {}),
            data: data.join('\n'),
          }));
          expect(parseAll(chunks)).toEqual(expected);
        },
      ),
      { numRuns: 100 },
    );
  });

  it('parseSse reads an async stream of chunks', async () => {
    async function* body() {
      yield encoder.encode('data: {"t":"😀');
      yield '"}\n\n';
    }
    const events: SseEvent[] = [];
    for await (const event of parseSse(body())) events.push(event);
    expect(events).toEqual([{ data: '{"t":"😀"}' }]);
  });

  it('parseSse drops an event cut by the end of the stream', async () => {
    async function* body() {
      yield 'data: {"a":1}\n\n';
      yield 'data: {"b":';
    }
    const events: SseEvent[] = [];
    for await (const event of parseSse(body())) events.push(event);
    expect(events).toEqual([{ data: '{"a":1}' }]);
  });
});
