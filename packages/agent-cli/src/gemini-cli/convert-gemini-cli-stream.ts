import type { AgentOutput } from '@cairn/core';
import { convertLines } from '@cairn/provider-utils';
import { createGeminiCliConverter, type GeminiCliConverterOptions } from './create-gemini-cli-converter.js';

/** Converts Gemini CLI stream-json output as it arrives (bytes or text, chunked anyhow). */
export function convertGeminiCliStream(
  chunks: AsyncIterable<Uint8Array | string>,
  options: GeminiCliConverterOptions = {},
): AsyncGenerator<AgentOutput, void, undefined> {
  return convertLines(chunks, createGeminiCliConverter(options));
}
