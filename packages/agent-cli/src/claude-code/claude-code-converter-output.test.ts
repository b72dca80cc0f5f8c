import { readdirSync, readFileSync } from 'node:fs';
import type { AgentOutput } from '@cairn/core';
import { describe, expect, it } from 'vitest';
import { createClaudeCodeConverter } from './create-claude-code-converter.js';

// Every event the converter makes of every real capture and hand-made fixture, written out whole
// (key order included): a change made for speed must leave them as they are. After a capture is
// recorded again, `vitest run -u` writes its file anew, to be reviewed in the diff.
const NOW = new Date('2026-11-26T12:00:00.000Z');
const SOURCES = [
  ['real', new URL('../../fixtures/real/claude-code/', import.meta.url)],
  ['hand-made', new URL('./__fixtures__/', import.meta.url)],
] as const;

function convert(text: string): AgentOutput[] {
  const converter = createClaudeCodeConverter({ now: () => NOW });
  return [...text.split('\n').flatMap((line) => converter.push(line)), ...converter.end()];
}

describe.each(SOURCES)('the converter events of the %s fixtures', (folder, directory) => {
  const names = readdirSync(directory).filter((name) => name.endsWith('.jsonl'));

  it.each(names)('%s', async (name) => {
    const events = convert(readFileSync(new URL(name, directory), 'utf8'));
    await expect(`${JSON.stringify(events, null, 2)}\n`).toMatchFileSnapshot(
      `./__snapshots__/converter-output/${folder}/${name.replace(/\.jsonl$/, '.json.snap')}`,
    );
  });
});
