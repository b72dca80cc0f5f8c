import assert from 'node:assert/strict';
import { CairnError, type ConversationMessage, type ConversationStore, definedFields } from '@cairn/core';
import fc from 'fast-check';
import { listAll } from '../assert-store.js';
import type { ConformanceCase } from '../conformance-case.js';
import { userMessage, withoutSeq } from '../test-messages.js';

/** The reference model: what the contract says a conversation holds. */
interface ModelConversation {
  messages: ConversationMessage[];
  keys: Map<string, { seqs: number[]; ids: string[] }>;
}

type Operation =
  | { kind: 'append'; conversation: number; contents: string[]; key?: string; expected?: 'right' | 'stale' }
  | {
      kind: 'load';
      conversation: number;
      fromSeq?: number;
      toSeq?: number;
      limit?: number;
      backward: boolean;
    }
  | { kind: 'delete'; conversation: number }
  | { kind: 'list' };

const conversationIndex = fc.integer({ min: 0, max: 2 });
const operation: fc.Arbitrary<Operation> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record(
      {
        kind: fc.constant('append' as const),
        conversation: conversationIndex,
        contents: fc.array(fc.string({ unit: 'binary', maxLength: 40 }), { minLength: 1, maxLength: 3 }),
        key: fc.constantFrom('k1', 'k2', 'k3'),
        expected: fc.constantFrom('right' as const, 'stale' as const),
      },
      { requiredKeys: ['kind', 'conversation', 'contents'] },
    ),
  },
  {
    weight: 3,
    arbitrary: fc.record(
      {
        kind: fc.constant('load' as const),
        conversation: conversationIndex,
        fromSeq: fc.integer({ min: 0, max: 12 }),
        toSeq: fc.integer({ min: 0, max: 12 }),
        limit: fc.integer({ min: 0, max: 6 }),
        backward: fc.boolean(),
      },
      { requiredKeys: ['kind', 'conversation', 'backward'] },
    ),
  },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('delete' as const), conversation: conversationIndex }),
  },
  { weight: 1, arbitrary: fc.constant({ kind: 'list' as const }) },
);

function modelLoad(
  model: ModelConversation | undefined,
  op: Extract<Operation, { kind: 'load' }>,
): (number | undefined)[] {
  const from = Math.max(1, op.fromSeq ?? 1);
  const to = op.toSeq ?? Number.MAX_SAFE_INTEGER;
  const inRange = (model?.messages ?? []).filter(
    (message) => (message.seq ?? 0) >= from && (message.seq ?? 0) <= to,
  );
  if (op.backward) inRange.reverse();
  return inRange.slice(0, op.limit ?? inRange.length).map((message) => message.seq);
}

async function runOperations(store: ConversationStore, run: number, operations: Operation[]): Promise<void> {
  const models = new Map<number, ModelConversation>();
  const idOf = (conversation: number) => `model-${run}-${conversation}`;
  let counter = 0;
  for (const op of operations) {
    if (op.kind === 'append') {
      const model: ModelConversation = models.get(op.conversation) ?? { messages: [], keys: new Map() };
      const lastSeq = model.messages.at(-1)?.seq ?? 0;
      const replay = op.key === undefined ? undefined : model.keys.get(op.key);
      // A replay sends the same ids again; a fresh append gets new ones.
      const ids: string[] = replay?.ids ?? op.contents.map(() => `m${counter++}`);
      const messages = ids.map((id, index) => userMessage(id, op.contents[index] ?? ''));
      const expectedSeq =
        op.expected === undefined ? undefined : op.expected === 'right' ? lastSeq : lastSeq + 1;
      const options = {
        ...definedFields({ idempotencyKey: op.key }),
        ...definedFields({ expectedSeq }),
      };
      const outcome = await store.append(idOf(op.conversation), messages, options).then(
        (result) => ({ result }),
        (error: unknown) => ({ error }),
      );
      if (replay !== undefined) {
        assert.ok('result' in outcome, 'an idempotent replay succeeds whatever expectedSeq says');
        assert.deepEqual(
          outcome.result.seqs,
          replay.seqs,
          "an idempotent replay returns the first append's seqs",
        );
        continue;
      }
      if (op.expected === 'stale') {
        assert.ok(
          'error' in outcome && CairnError.is(outcome.error, 'STORE_CONFLICT'),
          'a stale expectedSeq conflicts',
        );
        continue;
      }
      assert.ok('result' in outcome, `append failed: ${'error' in outcome ? String(outcome.error) : ''}`);
      const seqs = messages.map((_, index) => lastSeq + index + 1);
      assert.deepEqual(outcome.result.seqs, seqs, 'append assigns the seqs the model expects');
      model.messages.push(...messages.map((message, index) => ({ ...message, seq: seqs[index] })));
      if (op.key !== undefined) model.keys.set(op.key, { seqs, ids });
      models.set(op.conversation, model);
    } else if (op.kind === 'load') {
      const { backward, conversation, ...window } = op;
      const loaded = await store.load(idOf(conversation), {
        ...window,
        direction: backward ? 'backward' : 'forward',
      });
      assert.deepEqual(
        loaded.map((message) => message.seq),
        modelLoad(models.get(conversation), op),
        'load returns the seqs the model expects',
      );
      const bySeq = new Map(models.get(conversation)?.messages.map((message) => [message.seq, message]));
      for (const message of loaded)
        assert.deepEqual(
          withoutSeq(message),
          withoutSeq(bySeq.get(message.seq) ?? message),
          "each loaded message equals the model's message of that seq",
        );
    } else if (op.kind === 'delete') {
      assert.equal(
        await store.deleteConversation(idOf(op.conversation)),
        models.has(op.conversation),
        'deleteConversation returns whether the model had the conversation',
      );
      models.delete(op.conversation);
    } else {
      const listed = (await listAll(store)).filter((summary) => summary.id.startsWith(`model-${run}-`));
      const expected = [...models].map(([conversation, model]) => ({
        id: idOf(conversation),
        messageCount: model.messages.length,
        lastSeq: model.messages.at(-1)?.seq ?? 0,
      }));
      assert.deepEqual(
        listed
          .map(({ id, messageCount, lastSeq }) => ({ id, messageCount, lastSeq }))
          .sort((a, b) => a.id.localeCompare(b.id)),
        expected.sort((a, b) => a.id.localeCompare(b.id)),
        "the listing's counts and lastSeqs agree with the model",
      );
    }
  }
}

export const modelBasedCases: ConformanceCase[] = [
  {
    name: 'random operation sequences agree with the reference model',
    timeoutMs: 120_000,
    async run({ open }) {
      const store = await open();
      let run = 0;
      await fc.assert(
        fc.asyncProperty(fc.array(operation, { minLength: 1, maxLength: 30 }), (operations) =>
          runOperations(store, run++, operations),
        ),
        { numRuns: 60 },
      );
    },
  },
];
