// Support for the converters' stream property tests: feeding chunks, cutting bytes, mixing in junk.
import type { AgentOutput } from '@cairn/core';
import fc from 'fast-check';

/** A stream converter with its options bound (`(source) => convertCodexStream(source, options)`). */
export type StreamConverter = (chunks: AsyncIterable<Uint8Array | string>) => AsyncIterable<AgentOutput>;

/** Every event `convert` gives for `chunks`, fed to it as one stream. */
export async function collectStream(
  convert: StreamConverter,
  chunks: readonly (string | Uint8Array)[],
): Promise<AgentOutput[]> {
  async function* source() {
    yield* chunks;
  }
  const events: AgentOutput[] = [];
  for await (const event of convert(source())) events.push(event);
  return events;
}

/** `text` cut at the given positions (any naturals), as bytes so UTF-8 characters may split. */
export function cutBytes(text: string, positions: readonly number[]): Uint8Array[] {
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

/**
 * Junk a terminal might mix into a CLI's output, never with a line break inside: text that is not
 * JSON, `cutOffLine` (a line the CLI writes, cut short), or JSON the CLI never writes.
 */
export function junkLine(cutOffLine: string): fc.Arbitrary<string> {
  return fc.oneof(
    fc.string().map((s) => s.replace(/[\r\n]/g, ' ')),
    fc.constant(cutOffLine),
    fc.jsonValue().map((value) => JSON.stringify({ type: 'telemetry', value })),
  );
}

/** Events junk causes: errors for lines that are not JSON, `unknown` for JSON the CLI never writes. */
export const isFromJunk = (event: AgentOutput): boolean => event.type === 'error' || event.type === 'unknown';

/** `lines` with up to 8 `junk` lines inserted anywhere, as one stream cut into byte chunks at up to 40 places. */
export function chunksWithJunk(
  lines: readonly string[],
  junk: fc.Arbitrary<string>,
): fc.Arbitrary<Uint8Array[]> {
  return fc
    .tuple(
      fc.array(fc.tuple(fc.nat(lines.length), junk), { maxLength: 8 }),
      fc.array(fc.nat(), { maxLength: 40 }),
    )
    .map(([insertions, positions]) => {
      const mixed = [...lines];
      for (const [index, line] of insertions) mixed.splice(index % (mixed.length + 1), 0, line);
      return cutBytes(`${mixed.join('\n')}\n`, positions);
    });
}
