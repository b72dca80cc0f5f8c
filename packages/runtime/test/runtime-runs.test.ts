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

  it('lets only one of two runtimes start the same run: the second gets STORE_CONFLICT, nothing is written twice', async () => {
    const store = createMemoryConversationStore();
    const make = () =>
      createAgentRuntime({
        store,
        model: runModel([{ text: 'Drafting.' }]).model,
        workflows: [PUBLISHING],
        settings: { compression: false },
      });
    const results = await Promise.allSettled([
      make().runs.start({ workflow: 'publishing/article', runId: 'job1', input: 'A' }),
      make().runs.start({ workflow: 'publishing/article', runId: 'job1', input: 'B' }),
    ]);
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
    const log = await store.load('run-job1');
    expect(log.filter((message) => message.partType === 'run_workflow')).toHaveLength(1);
    // The input is stored with the run's first records: a crash right after start cannot lose it.
    expect(log.slice(0, 3).map((message) => message.partType ?? message.role)).toEqual([
      'run_workflow',
      'run_state',
      'user',
    ]);
  });

  it('never lets a tool policy hide or refuse the run’s own step tool', async () => {
    const store = createMemoryConversationStore();
    const { model, turnRequests } = runModel([
      { toolCalls: [{ name: 'complete_step', arguments: {} }] },
      { text: 'Drafted.' },
    ]);
    const runtime = createAgentRuntime({
      store,
      model,
      workflows: [PUBLISHING],
      settings: { compression: false, toolPolicy: { allow: { categories: ['fs'] } } },
    });
    const started = await runtime.runs.start({ workflow: 'publishing/article' });
    expect(turnRequests()[0]?.tools?.map((tool) => tool.name)).toEqual(['read_tool_output', 'complete_step']);
    expect(started.state).toMatchObject({ currentNodeId: 'review', stepsCompleted: ['draft'] });
  });
});
