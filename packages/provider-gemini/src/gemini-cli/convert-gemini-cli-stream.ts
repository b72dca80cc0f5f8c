import type { AgentOutput } from '@cairn/core';
import { LineSplitter } from '@cairn/provider-utils';
import { createGeminiCliConverter, type GeminiCliConverterOptions } from './create-gemini-cli-converter.js';

/** Converts Gemini CLI stream-json output as it arrives (bytes or text, chunked anyhow). */
export async function* convertGeminiCliStream(
  chunks: AsyncIterable<Uint8Array | string>,
  options: GeminiCliConverterOptions = {},
): AsyncGenerator<AgentOutput, void, undefined> {
  const splitter = new LineSplitter();
  const converter = createGeminiCliConverter(options);
  for await (const chunk of chunks) {
    for (const line of splitter.push(chunk)) yield* converter.push(line);
  }
  for (const line of splitter.end()) yield* converter.push(line);
  yield* converter.end();
}
