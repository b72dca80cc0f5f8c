import { splitLines } from './line-splitter.js';

/** A stateful line-by-line converter, such as an agent CLI's stdout into events. */
export interface LineConverter<T> {
  push(line: string): T[];
  /** What is left once the input ends (a block still open, …). */
  end(): T[];
}

/** Feeds output arriving in chunks of any size, split into lines, through `converter`. */
export async function* convertLines<T>(
  chunks: AsyncIterable<Uint8Array | string>,
  converter: LineConverter<T>,
): AsyncGenerator<T, void, undefined> {
  for await (const line of splitLines(chunks)) yield* converter.push(line);
  yield* converter.end();
}
