// What durable approvals and the tool ledger cost a turn, measured side by side in one run
// (interleaved rounds, medians): a turn calling one tool that is idempotent (no ledger record: the
// baseline), one that is not (its intent stored first; on fs durability 'turn' that record is
// synced before the tool runs), and one that needs an approval answered in the process (request,
// decision and intent: three records). On memory, fs and SQLite. Run: pnpm --filter @cairn/runtime
// bench (builds nothing: run `pnpm build` first).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { interleaved, report } from '@cairn/bench';
import { defineTool } from '@cairn/loop';
import { createMemoryConversationStore } from '@cairn/storage';
import { createFsConversationStore } from '@cairn/store-fs';
import { createSqliteConversationStore } from '@cairn/store-sqlite';
import { ScriptedModel } from '@cairn/testing';
import { z } from 'zod';
import { createAgentRuntime } from '../dist/index.js';

const ROUNDS = 9;
const TURNS_PER_ROUND = 20;

const tool = (name, extra) =>
  defineTool({
    name,
    description: name,
    category: 'bench',
    input: z.object({}),
    execute: () => 'done',
    ...extra,
  });
const TOOLS = [
  tool('lookup', { idempotent: true }),
  tool('send', {}),
  tool('deploy', { needsApproval: true }),
];

// Each turn: the model calls the tool its user message names, then answers.
const model = new ScriptedModel({
  turns: ({ messages }) => {
    const last = messages.at(-1);
    if (last?.role === 'tool') return { text: 'ok' };
    return { toolCalls: [{ id: 'c1', name: String(last?.content), arguments: {} }] };
  },
});

const dir = mkdtempSync(join(tmpdir(), 'cairn-runtime-ledger-bench-'));
const STORES = {
  memory: () => createMemoryConversationStore(),
  fs: () => createFsConversationStore({ rootDir: join(dir, 'fs'), durability: 'turn' }),
  sqlite: () => createSqliteConversationStore({ filename: join(dir, 'bench.db') }),
};

const figures = [];
const extra = {};
try {
  for (const [storeName, open] of Object.entries(STORES)) {
    const store = open();
    const runtime = createAgentRuntime({
      store,
      model,
      tools: TOOLS,
      settings: { compression: false, approve: () => true },
    });
    let conversation = 0;
    const turn = (toolName) => async () => {
      const result = await runtime.chat({
        conversationId: `${storeName}-${conversation++}`,
        userInput: toolName,
      });
      if (result.text !== 'ok') throw new Error(`the ${toolName} turn failed: ${result.error?.message}`);
    };
    const ms = await interleaved(ROUNDS, {
      idempotent: { fn: turn('lookup'), iterations: TURNS_PER_ROUND },
      intent: { fn: turn('send'), iterations: TURNS_PER_ROUND },
      approval: { fn: turn('deploy'), iterations: TURNS_PER_ROUND },
    });
    await store.close();
    const peer = {
      name: `a turn calling an idempotent tool (${storeName})`,
      value: ms.idempotent,
      unit: 'ms',
    };
    figures.push(
      {
        name: `${storeName}: turn with an intent ÷ without`,
        value: ms.intent / ms.idempotent,
        unit: '×',
        peer,
      },
      {
        name: `${storeName}: turn with an approval decided in process ÷ without`,
        value: ms.approval / ms.idempotent,
        unit: '×',
        peer,
      },
    );
    extra[storeName] = ms;
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
report('runtime ledger', figures, { msPerTurn: extra });
