// Build step: writes the JSON Schemas of the public data types next to the compiled code, so
// non-TypeScript consumers can validate stored messages and events (`@cairn/core/schemas/*.json`).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { agentOutputJsonSchema, conversationMessageJsonSchema } from '../dist/index.js';

const outDir = join(import.meta.dirname, '..', 'dist', 'schemas');
mkdirSync(outDir, { recursive: true });
for (const [file, schema] of [
  ['conversation-message.json', conversationMessageJsonSchema()],
  ['agent-output.json', agentOutputJsonSchema()],
]) {
  writeFileSync(join(outDir, file), `${JSON.stringify(schema, null, 2)}\n`);
}
