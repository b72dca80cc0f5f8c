import { createMemoryConversationStore } from '@cairn/storage';
import { describe, expect, it } from 'vitest';
import { createAgentRuntime } from '../src/index.js';
import { PUBLISHING, runModel } from './runs-fixtures.js';

describe('createAgentRuntime: runs', () => {
  it('starts a workflow named from its packages, and a second runtime on the same store continues it', async () => {
    const store = createMemoryConversationStore();
    const first = runModel([
      { toolCalls: [{ name: 'complete_step', arguments: { summary: 'Drafted.' } }] },
      { text: 'The draft is ready for review.' },
    ]);
    const runtime = createAgentRuntime({
      store,
      model: first.model,
      workflows: [PUBLISHING],
      settings: { compression: false },
    });
    const started = await runtime.runs.start({ workflow: 'publishing/article', input: 'About tide pools.' });
    expect(started).toMatchObject({
      success: true,
      state: { currentNodeId: 'review', stepsCompleted: ['draft'] },
    });

    const second = runModel([
      { toolCalls: [{ name: 'complete_step', arguments: { edge: 'approved' } }] },
      { text: 'Approved; publishing next.' },
    ]);
    const restarted = createAgentRuntime({ store, model: second.model, settings: { compression: false } });
    const continued = await restarted.runs.continue({ runId: started.runId, userInput: 'Looks good.' });
    expect(continued).toMatchObject({
      success: true,
      state: { currentNodeId: 'publish', stepsCompleted: ['draft', 'review'] },
    });
    expect(String(second.turnRequests()[0]?.messages[0]?.content)).toContain(
      'Review the draft against the style guide.',
    );
    expect((await restarted.runs.get(started.runId)).currentNodeId).toBe('publish');
  });

  it('refuses an invalid workflow package when the runtime is made', () => {
    const broken = { name: 'p', workflows: [{ ...PUBLISHING.workflows[0], entry: 'nowhere' }] } as never;
    expect(() =>
      createAgentRuntime({
        store: createMemoryConversationStore(),
        model: runModel([]).model,
        workflows: [broken],
      }),
    ).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT' }));
  });
});
