import type { AgentOutput } from '@cairn/core';
import { convertLines } from '@cairn/provider-utils';
import { createQwenCodeConverter, type QwenCodeConverterOptions } from './create-qwen-code-converter.js';

/** Converts Qwen Code stream-json output as it arrives (bytes or text, chunked anyhow). */
export function convertQwenCodeStream(
  chunks: AsyncIterable<Uint8Array | string>,
  options: QwenCodeConverterOptions = {},
): AsyncGenerator<AgentOutput, void, undefined> {
  return convertLines(chunks, createQwenCodeConverter(options));
}
