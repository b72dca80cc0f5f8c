import type { AgentOutput } from '@cairn/core';
import { LineSplitter } from '@cairn/provider-utils';
import {
  type ClaudeCodeConverterOptions,
  createClaudeCodeConverter,
} from './create-claude-code-converter.js';

/** The events of Claude Code stream-json output arriving in chunks of any size (a process's stdout). */
export async function* convertClaudeCodeStream(
  chunks: AsyncIterable<Uint8Array | string>,
  options: ClaudeCodeConverterOptions = {},
): AsyncGenerator<AgentOutput, void, undefined> {
  const splitter = new LineSplitter();
  const converter = createClaudeCodeConverter(options);
  for await (const chunk of chunks) {
    for (const line of splitter.push(chunk)) yield* converter.push(line);
  }
  for (const line of splitter.end()) yield* converter.push(line);
  yield* converter.end();
}
