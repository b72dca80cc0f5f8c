import {
  type ConversationMessage,
  type ConversationStore,
  contentText,
  KeyedSerialQueue,
  type ModelToolMessage,
} from '@cairn/core';
import { defineTool } from '@cairn/loop';
import { createMemoryConversationStore } from '@cairn/storage';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  createRunApi,
  RUN_CONTINUE_TEXT,
  RUN_START_TEXT,
  type RunEvent,
  type RunStepChangedEvent,
} from '../src/runs/index.js';
import { runTurnEnvironment } from './runs-env.js';
import { ARTICLE, ONE_STEP, PUBLISHING, runModel, SUMMARY_TEXT, systemPrompt } from './runs-fixtures.js';
import { STORE_BACKENDS, useStoreBackend } from './stores.js';

const NO_COMPRESSION = { settings: { compression: false as const } };

const stepChanges = (events: RunEvent[]) =>
  events.filter(
    (event): event is RunStepChangedEvent => event.type === 'runtime' && event.event === 'run_step_changed',
  );

const stateRecords = (log: ConversationMessage[]) =>
  log
    .filter((message) => message.partType === 'run_state')
    .map((message) => JSON.parse(contentText(message.content)));

const lastToolMessage = (messages: readonly { role: string }[]) =>
  messages.filter((message): message is ModelToolMessage => message.role === 'tool').at(-1);

describe.each(STORE_BACKENDS)('workflow runs on the $name store', (backend) => {
  const { open } = useStoreBackend(backend);

  it('keeps every message in run-<runId> with mode run and runId; the prompt has the step, then the post-completion profile', async () => {
    const store = open();
    const { model, turnRequests } = runModel([
      {
        text: 'Drafting.',
        toolCalls: [{ id: 'c1', name: 'complete_step', arguments: { summary: 'Draft written' } }],
      },
      { toolCalls: [{ id: 'c2', name: 'complete_step', arguments: { edge: 'approved', step: 'review' } }] },
      { toolCalls: [{ id: 'c3', name: 'complete_step', arguments: {} }] },
      { text: 'The article is published.' },
      { text: 'You published the article about otters.' },
    ]);
    const runs = createRunApi({
      env: runTurnEnvironment(store, NO_COMPRESSION),
      model,
      workflows: [PUBLISHING],
    });
    const events: RunEvent[] = [];
    const sequences: number[] = [];
    const started = await runs.start({
      workflow: 'publishing/article',
      input: 'Write about otters.',
      onEvent: (event, sequence) => {
        events.push(event);
        sequences.push(sequence);
      },
    });
    expect(started).toMatchObject({
      success: true,
      conversationId: `run-${started.runId}`,
      turns: 4,
      message: { role: 'assistant', content: 'The article is published.' },
      text: 'The article is published.',
      state: {
        runId: started.runId,
        packageName: 'publishing',
        workflowId: 'article',
        workflowName: 'Write an article',
        status: 'completed',
        currentNodeId: 'publish',
        stepsCompleted: ['draft', 'review', 'publish'],
        input: 'Write about otters.',
        lastFailFingerprint: null,
        consecutiveFailCount: 0,
      },
    });

    // The first request: the current step, its instruction and its edges in the system prompt.
    const first = systemPrompt(turnRequests()[0]);
    expect(first).toContain('Mode: workflow run.');
    expect(first).toContain('- Workflow: Write an article');
    expect(first).toContain('- Current step: draft (Draft)');
    expect(first).toContain('Write a first draft of the article.');
    expect(first).toContain('- → review');
    expect(turnRequests()[0]?.tools?.map((tool) => tool.name)).toEqual(['read_tool_output', 'complete_step']);
    // Within the turn, the step tool's result tells the model the new step (the prompt is per turn).
    const moved = lastToolMessage(turnRequests()[1]?.messages ?? []);
    expect(moved?.content).toContain('the workflow moved to step "review" (Review)');
    expect(moved?.content).toContain('Review the draft against the style guide.');
    expect(moved?.content).toMatch(/"approved" → "publish" \(Publish\)/);
    expect(moved?.content).toMatch(/"needs changes" → "draft" \(Draft\), the default/);
    expect(lastToolMessage(turnRequests()[3]?.messages ?? [])?.content).toContain(
      'no step is active any more',
    );

    // Every stored message: in the run's conversation, mode run, its run id.
    const log = await store.load(started.conversationId);
    expect(log.every((message) => message.mode === 'run' && message.runId === started.runId)).toBe(true);
    expect(log[0]).toMatchObject({ role: 'system', partType: 'run_workflow', includeInContext: false });
    expect(log.filter((message) => message.role === 'user').map((message) => message.content)).toEqual([
      'Write about otters.',
    ]);
    const states = stateRecords(log);
    expect(
      states.slice(0, 4).map((state) => [state.currentNodeId, state.status, state.stepsCompleted.length]),
    ).toEqual([
      ['draft', 'active', 0],
      ['review', 'active', 1],
      ['publish', 'active', 2],
      ['publish', 'completed', 3],
    ]);
    expect(states.at(-1)).toEqual(started.state);
    // The state records never reach the model.
    expect(JSON.stringify(model.requests)).not.toMatch(/streamSequence|run_workflow/);

    expect(stepChanges(events)).toMatchObject([
      { runId: started.runId, from: 'draft', to: 'review', status: 'active', summary: 'Draft written' },
      { from: 'review', to: 'publish', status: 'active', edge: 'approved' },
      { from: 'publish', to: 'publish', status: 'completed' },
    ]);
    // Events are numbered 1, 2, … and the state counts them.
    expect(sequences).toEqual(sequences.map((_, index) => index + 1));
    expect(started.state.streamSequence).toBe(sequences.length);

    // After completion: the post-completion profile, no step, no edges, no step tool.
    const later: number[] = [];
    const followUp = await runs.continue({
      runId: started.runId,
      userInput: 'What did you publish?',
      onEvent: (_event, sequence) => later.push(sequence),
    });
    expect(followUp).toMatchObject({
      success: true,
      message: { content: 'You published the article about otters.' },
      state: { status: 'completed' },
    });
    const after = turnRequests()[4];
    const prompt = systemPrompt(after);
    expect(prompt).toContain('Mode: workflow run, completed.');
    expect(prompt).toContain('- Status: completed');
    expect(prompt).toContain('- Steps completed: draft (Draft), review (Review), publish (Publish)');
    expect(prompt).not.toMatch(
      /Current step|Instruction for the current step|Where the workflow can go|→|needs changes/,
    );
    expect(prompt).not.toContain('Publish the approved article.');
    // The step tool stays, so a history with its calls is never sent without tools; it only says the run is complete.
    expect(after?.tools?.map((tool) => tool.name)).toEqual(['read_tool_output', 'complete_step']);
    expect(later[0]).toBe(sequences.length + 1);
    expect(followUp.state.streamSequence).toBe(later.at(-1));
    const log2 = await store.load(started.conversationId);
    expect(log2.every((message) => message.mode === 'run' && message.runId === started.runId)).toBe(true);
  });

  it('after a restart, a fresh run API on a freshly opened store continues at the next step, from the store', async () => {
    const store = open();
    const before = runModel([
      { text: 'Draft written.', toolCalls: [{ id: 'c1', name: 'complete_step', arguments: {} }] },
      { text: 'Now on to the review.' },
    ]);
    const started = await createRunApi({
      env: runTurnEnvironment(store, NO_COMPRESSION),
      model: before.model,
      workflows: [PUBLISHING],
    }).start({
      workflow: { packageName: 'publishing', workflowId: 'article' },
      input: 'Write about otters.',
    });
    expect(started.state).toMatchObject({ currentNodeId: 'review', stepsCompleted: ['draft'] });

    // "Restart": a new store instance on the same data, a new run API — without the package (the
    // run follows the workflow stored with it) — and a new model.
    const reopened = open();
    const after = runModel([
      { toolCalls: [{ id: 'c2', name: 'complete_step', arguments: { edge: 'approved' } }] },
      { text: 'Approved; publishing next.' },
    ]);
    const fresh = createRunApi({ env: runTurnEnvironment(reopened, NO_COMPRESSION), model: after.model });
    expect(await fresh.get(started.runId)).toEqual(started.state);
    const resumed = await fresh.continue({ runId: started.runId, userInput: 'Go on.' });
    expect(resumed).toMatchObject({
      success: true,
      state: { currentNodeId: 'publish', stepsCompleted: ['draft', 'review'] },
    });
    const request = after.turnRequests()[0];
    const prompt = systemPrompt(request);
    expect(prompt).toContain('- Current step: review (Review)');
    expect(prompt).toContain('- Steps completed: draft (Draft)');
    expect(prompt).toContain('Review the draft against the style guide.');
    expect(prompt).toContain('- approved → publish');
    expect(prompt).toContain('- needs changes → draft (default)');
    // The history is the stored one: nothing came from the first process's memory.
    expect(request?.messages.slice(1).map((message) => [message.role, message.content])).toEqual([
      ['user', 'Write about otters.'],
      ['assistant', 'Draft written.'],
      ['tool', expect.stringContaining('moved to step "review"')],
      ['assistant', 'Now on to the review.'],
      ['user', 'Go on.'],
    ]);
  });

  it('carries the failing-call state across turns and restarts: the same failing call trips LOOP_STUCK', async () => {
    const flaky = defineTool({
      name: 'upload',
      description: 'Uploads a file',
      category: 'web',
      input: z.object({ path: z.string() }),
      execute: () => {
        throw new Error('disk full');
      },
    });
    const call = (id: string) => ({ toolCalls: [{ id, name: 'upload', arguments: { path: 'draft.md' } }] });
    const script = runModel([
      call('c1'),
      { text: 'The upload failed.' },
      call('c2'),
      { text: 'It failed again.' },
      call('c3'),
      { text: 'never sent' },
    ]);
    const runsOn = (store: ConversationStore) =>
      createRunApi({
        env: runTurnEnvironment(store, { tools: [flaky], ...NO_COMPRESSION }),
        model: script.model,
        workflows: [PUBLISHING],
      });

    const started = await runsOn(open()).start({ workflow: 'article', input: 'Upload the draft.' });
    expect(started).toMatchObject({
      success: true,
      state: { consecutiveFailCount: 1, lastFailFingerprint: expect.stringMatching(/^upload:/) },
    });
    const second = await runsOn(open()).continue({ runId: started.runId, userInput: 'Try again.' });
    expect(second).toMatchObject({ success: true, state: { consecutiveFailCount: 2 } });
    expect(second.state.lastFailFingerprint).toBe(started.state.lastFailFingerprint);
    // A third process: one more identical failure is the third in a row.
    const third = await runsOn(open()).continue({ runId: started.runId, userInput: 'Once more.' });
    expect(third).toMatchObject({
      success: false,
      error: { code: 'LOOP_STUCK' },
      message: { partType: 'error', errorCode: 'LOOP_STUCK', mode: 'run', runId: started.runId },
      state: { consecutiveFailCount: 3 },
    });
    expect(script.turnRequests()).toHaveLength(5);
  });

  it('compresses a long run, stores the summary as a run record, and keeps the state and the step', async () => {
    const store = open();
    const { model, turnRequests } = runModel([
      { text: 'Drafting.' },
      { text: 'Still drafting.' },
      { toolCalls: [{ id: 'c1', name: 'complete_step', arguments: {} }] },
      { text: 'In review.' },
    ]);
    const runs = createRunApi({
      env: runTurnEnvironment(store, {
        settings: { compression: { tokenBudget: 4_000, minRecentMessages: 4 } },
      }),
      model,
      workflows: [PUBLISHING],
      // Small pages: the state record is found by paging back over the long history.
      statePageSize: 4,
    });
    const started = await runs.start({ workflow: 'article', input: 'Write a long article.' });
    const createdAt = new Date().toISOString();
    const long = Array.from(
      { length: 30 },
      (_, index): ConversationMessage => ({
        id: `long-${index}`,
        role: index % 2 === 0 ? 'user' : 'assistant',
        createdAt,
        content: `paragraph ${index} ${'lorem ipsum dolor sit amet '.repeat(40)}`,
        mode: 'run',
        runId: started.runId,
      }),
    );
    await store.append(started.conversationId, long);

    const events: RunEvent[] = [];
    const next = await runs.continue({
      runId: started.runId,
      userInput: 'Keep going.',
      onEvent: (event) => events.push(event),
    });
    expect(next.success).toBe(true);
    expect(
      events.find((event) => event.type === 'runtime' && event.event === 'compression_applied'),
    ).toMatchObject({
      compressed: true,
    });
    const log = await store.load(started.conversationId);
    const record = log.find((message) => message.partType === 'compaction');
    expect(record).toMatchObject({
      role: 'system',
      content: SUMMARY_TEXT,
      mode: 'run',
      runId: started.runId,
    });
    // The compressed request still has the run's step, and the summary in place of the old messages.
    const compressed = turnRequests()[1];
    expect(systemPrompt(compressed)).toContain('- Current step: draft (Draft)');
    expect(JSON.stringify(compressed?.messages)).toContain(SUMMARY_TEXT);
    expect(JSON.stringify(compressed?.messages)).not.toContain('paragraph 0 ');

    // The step still moves on after compression, from the state found far back in the log.
    const moved = await runs.continue({ runId: started.runId, userInput: 'The draft is done.' });
    expect(moved).toMatchObject({
      success: true,
      state: { currentNodeId: 'review', stepsCompleted: ['draft'] },
    });
    expect(systemPrompt(turnRequests()[2])).toContain('- Current step: draft (Draft)');
  });

  it('answers an unknown edge label with the labels the step has, and keeps the step', async () => {
    const store = open();
    const { model, turnRequests } = runModel([
      { toolCalls: [{ id: 'c1', name: 'complete_step', arguments: {} }] },
      { toolCalls: [{ id: 'c2', name: 'complete_step', arguments: { edge: 'ship it' } }] },
      { text: 'I need to pick a real edge.' },
    ]);
    const runs = createRunApi({
      env: runTurnEnvironment(store, NO_COMPRESSION),
      model,
      workflows: [PUBLISHING],
    });
    const result = await runs.start({ workflow: 'article' });
    expect(result).toMatchObject({
      success: true,
      state: { currentNodeId: 'review', stepsCompleted: ['draft'] },
    });
    const answer = lastToolMessage(turnRequests()[2]?.messages ?? []);
    expect(answer).toMatchObject({ isError: true });
    expect(answer?.content).toContain('Step "review" (Review) has no edge "ship it".');
    expect(answer?.content).toContain('"approved" → "publish" (Publish)');
    expect(answer?.content).toContain('"needs changes" → "draft" (Draft), the default');
    const log = await store.load(result.conversationId);
    expect(log.find((message) => message.tool_call_id === 'c2')).toMatchObject({
      isError: true,
      toolName: 'complete_step',
    });
    // Started without input: the fixed kick-off message.
    expect(log.find((message) => message.role === 'user')?.content).toBe(RUN_START_TEXT);
  });
});

describe('workflow run API', () => {
  const memoryRuns = (replies: Parameters<typeof runModel>[0], extra: { queue?: KeyedSerialQueue } = {}) => {
    const store = createMemoryConversationStore();
    const script = runModel(replies);
    const runs = createRunApi({
      env: runTurnEnvironment(store, NO_COMPRESSION),
      model: script.model,
      workflows: [PUBLISHING],
      ...extra,
    });
    return { store, runs, ...script };
  };

  it('refuses invalid workflow packages and definitions, naming the field', async () => {
    const env = runTurnEnvironment(createMemoryConversationStore(), NO_COMPRESSION);
    const model = runModel([]).model;
    const broken = {
      ...PUBLISHING,
      workflows: [{ ...ARTICLE, edges: [...ARTICLE.edges, { from: 'publish', to: 'nowhere' }] }],
    };
    expect(() => createRunApi({ env, model, workflows: [broken] })).toThrow(
      expect.objectContaining({
        code: 'INVALID_ARGUMENT',
        message: expect.stringContaining(
          'workflows[0]: Invalid workflow package at workflows[0].edges[3].to',
        ),
      }),
    );
    expect(() => createRunApi({ env, model, workflows: [PUBLISHING, PUBLISHING] })).toThrow(
      /two packages are named "publishing"/,
    );
    const runs = createRunApi({ env, model, workflows: [PUBLISHING] });
    await expect(runs.start({ workflow: { ...ONE_STEP, entry: 'missing' } })).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
      message: expect.stringContaining('at entry: no node has the id "missing"'),
    });
    await expect(runs.start({ workflow: 'unknown' })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    await expect(
      runs.start({ workflow: { packageName: 'publishing', workflowId: 'nope' } }),
    ).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
      message: expect.stringContaining('it has: "article"'),
    });
    await expect(runs.start({ workflow: 'article', input: '  ' })).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
    });
  });

  it('refuses unsafe run ids everywhere, and an existing one on start', async () => {
    const { runs } = memoryRuns([{ text: 'Hello.' }]);
    for (const runId of ['../etc', 'a/b', '.hidden', '', 'x'.repeat(125)]) {
      await expect(runs.start({ workflow: ONE_STEP, runId })).rejects.toMatchObject({ code: 'INVALID_ID' });
      await expect(runs.continue({ runId })).rejects.toMatchObject({ code: 'INVALID_ID' });
      await expect(runs.get(runId)).rejects.toMatchObject({ code: 'INVALID_ID' });
    }
    const started = await runs.start({ workflow: ONE_STEP, runId: 'x'.repeat(124) });
    expect(started.conversationId).toBe(`run-${'x'.repeat(124)}`);
    await expect(runs.start({ workflow: ONE_STEP, runId: started.runId })).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
    });
    await expect(runs.get('missing')).rejects.toMatchObject({ code: 'STORE_NOT_FOUND' });
    await expect(runs.continue({ runId: 'missing', userInput: 'hi' })).rejects.toMatchObject({
      code: 'STORE_NOT_FOUND',
    });
  });

  it('fails complete_step clearly once the workflow is completed', async () => {
    const { runs, turnRequests } = memoryRuns([
      {
        toolCalls: [
          { id: 'c1', name: 'complete_step', arguments: { summary: 'Said hello' } },
          { id: 'c2', name: 'complete_step', arguments: {} },
        ],
      },
      { text: 'Hello, and done.' },
    ]);
    const result = await runs.start({ workflow: ONE_STEP, input: 'Hi!' });
    expect(result).toMatchObject({
      success: true,
      state: { status: 'completed', stepsCompleted: ['hello'], packageName: 'inline' },
    });
    const results = (turnRequests()[1]?.messages ?? []).filter(
      (message) => message.role === 'tool',
    ) as ModelToolMessage[];
    expect(results.map((message) => message.isError === true)).toEqual([false, true]);
    expect(results[1]?.content).toContain('is already completed: no step is active');
  });

  it('asks for an edge when a step has several and no default, and refuses to complete another step', async () => {
    const fork = {
      ...ONE_STEP,
      nodes: [
        ...ONE_STEP.nodes,
        { id: 'a', name: 'A', instruction: 'Do A.' },
        { id: 'b', name: 'B', instruction: 'Do B.' },
      ],
      edges: [
        { from: 'hello', to: 'a', label: 'left' },
        { from: 'hello', to: 'b', label: 'right' },
      ],
    };
    const { runs, turnRequests } = memoryRuns([
      {
        toolCalls: [
          { id: 'c1', name: 'complete_step', arguments: {} },
          { id: 'c2', name: 'complete_step', arguments: { step: 'a' } },
          { id: 'c3', name: 'complete_step', arguments: { edge: 'RIGHT', step: 'hello' } },
        ],
      },
      { text: 'On B.' },
    ]);
    const result = await runs.start({ workflow: fork });
    expect(result.state).toMatchObject({ currentNodeId: 'b', stepsCompleted: ['hello'] });
    const results = (turnRequests()[1]?.messages ?? []).filter(
      (message) => message.role === 'tool',
    ) as ModelToolMessage[];
    expect(results[0]?.content).toContain('several ways on and no default');
    expect(results[0]?.content).toContain('"left" → "a" (A)');
    expect(results[1]?.content).toContain('The current step is "hello" (Say hello), not "a"');
    expect(results[2]?.content).toContain('This is the last step');
  });

  it('continues without input: "Continue." only when the log has nothing to answer', async () => {
    const { runs, store, turnRequests } = memoryRuns([{ text: 'Started.' }, { text: 'Continuing.' }]);
    const started = await runs.start({ workflow: 'article', input: 'Begin.' });
    const next = await runs.continue({ runId: started.runId });
    expect(next.success).toBe(true);
    const users = (await store.load(started.conversationId)).filter((message) => message.role === 'user');
    expect(users.map((message) => message.content)).toEqual(['Begin.', RUN_CONTINUE_TEXT]);
    expect(turnRequests()[1]?.messages.at(-1)).toMatchObject({ role: 'user', content: RUN_CONTINUE_TEXT });
  });

  it('runs the turns of one run one at a time on the shared queue, in call order', async () => {
    const queue = new KeyedSerialQueue();
    const { runs, store } = memoryRuns(
      [{ text: 'first', delayMs: 30 }, { text: 'second', delayMs: 10 }, { text: 'third' }],
      { queue },
    );
    const started = await runs.start({ workflow: 'article', input: 'one' });
    const [a, b] = await Promise.all([
      runs.continue({ runId: started.runId, userInput: 'two' }),
      runs.continue({ runId: started.runId, userInput: 'three' }),
    ]);
    expect([a.success, b.success]).toEqual([true, true]);
    const visible = (await store.load(started.conversationId)).filter((message) => message.role !== 'system');
    expect(visible.map((message) => message.content)).toEqual([
      'one',
      'first',
      'two',
      'second',
      'three',
      'third',
    ]);
    expect(queue.size).toBe(0);
  });

  it('lists runs and skips other conversations', async () => {
    const { runs, store } = memoryRuns([{ text: 'A.' }, { text: 'B.' }]);
    const a = await runs.start({ workflow: 'article', runId: 'run-a' });
    const b = await runs.start({ workflow: ONE_STEP, runId: 'run-b' });
    await store.append('chat-1', [
      { id: 'u1', role: 'user', createdAt: new Date().toISOString(), content: 'hi' },
    ]);
    await store.append('run-not-a-run', [
      { id: 'u2', role: 'user', createdAt: new Date().toISOString(), content: 'hi' },
    ]);
    const page = await runs.list();
    expect(page.runs.map((state) => state.runId).sort()).toEqual([a.runId, b.runId].sort());
    expect(page.runs.find((state) => state.runId === 'run-b')).toMatchObject({
      workflowId: 'greet',
      status: 'active',
    });
  });
});
