import type { AgentOutput } from '@cairn/core';
import { convertLines } from '@cairn/provider-utils';
import {
  type ClaudeCodeConverterOptions,
  createClaudeCodeConverter,
} from './create-claude-code-converter.js';

/** The events of Claude Code stream-json output arriving in chunks of any size (a process's stdout). */
export function convertClaudeCodeStream(
  chunks: AsyncIterable<Uint8Array | string>,
  options: ClaudeCodeConverterOptions = {},
): AsyncGenerator<AgentOutput, void, undefined> {
  return convertLines(chunks, createClaudeCodeConverter(options));
}
