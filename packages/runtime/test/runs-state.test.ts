import type { ConversationMessage, ConversationStore } from '@cairn/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  loadRunState,
  readRunState,
  readRunWorkflow,
  runConversationId,
  runIdOfConversation,
  runStateMessage,
  runWorkflowMessage,
} from '../src/runs/index.js';
import { ARTICLE, STATE_TIME as AT, articleState as state } from './runs-fixtures.js';
import { STORE_BACKENDS } from './stores.js';

const chatter = (from: number, count: number): ConversationMessage[] =>
  Array.from({ length: count }, (_, index) => ({
    id: `m${from + index}`,
    role: index % 2 === 0 ? 'user' : 'assistant',
    createdAt: AT,
    content: `message ${from + index}`,
    mode: 'run',
    runId: 'r1',
  }));

describe('run ids', () => {
  it('maps a run to its conversation and back', () => {
    expect(runConversationId('r1')).toBe('run-r1');
    expect(runIdOfConversation('run-r1')).toBe('r1');
    expect(runIdOfConversation('chat-1')).toBeUndefined();
    expect(() => runConversationId('../x')).toThrow(expect.objectContaining({ code: 'INVALID_ID' }));
    expect(() => runConversationId('x'.repeat(125))).toThrow(/at most 124 characters/);
  });

  it('writes a record as a hidden system message of the run', () => {
    expect(runStateMessage(state('draft'), { id: 's1', createdAt: AT })).toEqual({
      id: 's1',
      role: 'system',
      createdAt: AT,
      content: JSON.stringify(state('draft')),
      partType: 'run_state',
      includeInContext: false,
      mode: 'run',
      runId: 'r1',
    });
  });
});

describe.each(STORE_BACKENDS)('run state reader on the $name store', (backend) => {
  let place: Awaited<ReturnType<typeof backend.create>>;
  let store: ConversationStore;
  beforeEach(async () => {
    place = await backend.create();
    store = place.open();
  });
  afterEach(async () => {
    await store.close();
    await place.cleanUp();
  });

  it('finds the last state record, paging back over the messages after it', async () => {
    expect(await readRunState(store, 'r1')).toBeUndefined();
    await expect(loadRunState(store, 'r1')).rejects.toMatchObject({ code: 'STORE_NOT_FOUND' });
    await store.append('run-r1', [
      runWorkflowMessage('r1', { packageName: 'publishing', workflow: ARTICLE }, { id: 'w', createdAt: AT }),
      runStateMessage(state('draft'), { id: 's1', createdAt: AT }),
      ...chatter(0, 5),
      runStateMessage(state('review', { stepsCompleted: ['draft'] }), { id: 's2', createdAt: AT }),
      ...chatter(5, 11),
    ]);
    for (const pageSize of [1, 2, 3, 50]) {
      expect(await readRunState(store, 'r1', { pageSize })).toEqual(
        state('review', { stepsCompleted: ['draft'] }),
      );
      expect(await readRunWorkflow(store, 'r1', { pageSize })).toEqual({
        packageName: 'publishing',
        workflow: ARTICLE,
      });
    }
    await expect(readRunState(store, 'r1', { pageSize: 0 })).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
    });
  });

  it('reports an unreadable record as STORE_CORRUPT, naming it and the field', async () => {
    const base = runStateMessage(state('draft'), { id: 's1', createdAt: AT });
    await store.append('run-r2', [{ ...base, runId: 'r2', content: '{not json' }]);
    await expect(readRunState(store, 'r2')).rejects.toMatchObject({
      code: 'STORE_CORRUPT',
      message: expect.stringContaining('s1'),
    });
    await store.append('run-r3', [
      { ...base, runId: 'r3', content: JSON.stringify({ ...state('draft'), runId: 'r3', status: 'paused' }) },
    ]);
    await expect(readRunState(store, 'r3')).rejects.toMatchObject({
      code: 'STORE_CORRUPT',
      message: expect.stringContaining('status'),
    });
    // A record of another run in this run's conversation.
    await store.append('run-r4', [{ ...base, runId: 'r4' }]);
    await expect(readRunState(store, 'r4')).rejects.toMatchObject({ code: 'STORE_CORRUPT' });
  });
});
