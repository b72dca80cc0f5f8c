import type { AgentOutput } from '@cairn/core';
import { convertLines } from '@cairn/provider-utils';
import { type CodexConverterOptions, createCodexConverter } from './create-codex-converter.js';

/** Converts `codex exec --json` output as it arrives (bytes or text, chunked anyhow). */
export function convertCodexStream(
  chunks: AsyncIterable<Uint8Array | string>,
  options: CodexConverterOptions = {},
): AsyncGenerator<AgentOutput, void, undefined> {
  return convertLines(chunks, createCodexConverter(options));
}
