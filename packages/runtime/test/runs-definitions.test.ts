import { composeSystemPrompt } from '@cairn/context-builder';
import { describe, expect, it } from 'vitest';
import {
  completeStep,
  createWorkflowRegistry,
  isEndNode,
  parseWorkflowDefinition,
  parseWorkflowPackage,
  runContextFor,
  type WorkflowDefinition,
  workflowDefinitionIssues,
} from '../src/runs/index.js';
import { ARTICLE, STATE_TIME as AT, ONE_STEP, PUBLISHING, articleState as stateAt } from './runs-fixtures.js';

const issuePaths = (value: unknown) =>
  workflowDefinitionIssues(value).map((issue) => `${issue.path}: ${issue.message}`);

describe('workflow definitions', () => {
  it('accepts a valid package; a node without outgoing edges is an end node', () => {
    expect(parseWorkflowPackage(PUBLISHING)).toEqual(PUBLISHING);
    expect(parseWorkflowDefinition(ONE_STEP)).toEqual(ONE_STEP);
    expect(isEndNode(ARTICLE, 'publish')).toBe(true);
    expect(isEndNode(ARTICLE, 'review')).toBe(false);
  });

  it('names the field of each broken graph rule', () => {
    const with_ = (change: Partial<WorkflowDefinition>) => ({ ...ARTICLE, ...change });
    expect(
      issuePaths(with_({ nodes: [...ARTICLE.nodes, { id: 'draft', name: 'Again', instruction: 'x' }] })),
    ).toEqual(['nodes[3].id: duplicate node id "draft" (also nodes[0])']);
    expect(issuePaths(with_({ entry: 'start' }))).toEqual(['entry: no node has the id "start"']);
    expect(issuePaths(with_({ edges: [...ARTICLE.edges, { from: 'publish', to: 'archive' }] }))).toEqual([
      'edges[3].to: no node has the id "archive"',
    ]);
    expect(issuePaths(with_({ edges: [...ARTICLE.edges, { from: 'ghost', to: 'draft' }] }))).toEqual([
      'edges[3].from: no node has the id "ghost"',
    ]);
    expect(
      issuePaths(
        with_({ edges: [...ARTICLE.edges, { from: 'review', to: 'review', label: 'again', default: true }] }),
      ),
    ).toEqual(['edges[3].default: node "review" already has a default edge (edges[2])']);
    expect(
      issuePaths(with_({ edges: [...ARTICLE.edges, { from: 'review', to: 'review', label: ' Approved ' }] })),
    ).toEqual(['edges[3].label: node "review" already has an edge labelled " Approved " (edges[1])']);
    expect(issuePaths(with_({ edges: [{ from: 'draft', to: 'review' }] }))).toEqual([
      'nodes[2].id: node "publish" cannot be reached from the entry "draft"',
    ]);
    expect(issuePaths(with_({ nodes: [] }))[0]).toMatch(/^nodes:/);
    expect(issuePaths({ ...ARTICLE, nodes: [{ id: 'draft', name: ' ', instruction: 'x' }] })[0]).toBe(
      'nodes[0].name: must not be empty or blank',
    );
    // Unknown fields are refused: a typo (`isDefault`) must not be ignored.
    expect(
      issuePaths(with_({ edges: [{ from: 'draft', to: 'review', isDefault: true } as never] }))[0],
    ).toMatch(/^edges\[0\]/);
  });

  it('throws INVALID_ARGUMENT naming the first bad field', () => {
    expect(() => parseWorkflowDefinition({ ...ARTICLE, entry: 'x' })).toThrow(
      expect.objectContaining({
        code: 'INVALID_ARGUMENT',
        message: 'Invalid workflow definition at entry: no node has the id "x"',
      }),
    );
    expect(() => parseWorkflowPackage({ name: 'p', workflows: [ARTICLE, ARTICLE] })).toThrow(
      /Invalid workflow package at workflows\[1\]\.id: duplicate workflow id "article"/,
    );
    expect(() => parseWorkflowPackage({ name: '', workflows: [] })).toThrow(/at name/);
  });
});

describe('workflow registry', () => {
  const other = { name: 'other', workflows: [{ ...ONE_STEP, id: 'article' }, ONE_STEP] };

  it('resolves "package/id", a unique bare id, both names, and an inline definition', () => {
    const registry = createWorkflowRegistry([PUBLISHING, other]);
    expect(registry.resolve('publishing/article')).toMatchObject({
      packageName: 'publishing',
      workflow: { id: 'article' },
    });
    expect(registry.resolve('other/article')).toMatchObject({
      packageName: 'other',
      workflow: { name: 'Greet' },
    });
    expect(registry.resolve('greet')).toMatchObject({ packageName: 'other' });
    expect(registry.resolve({ packageName: 'publishing', workflowId: 'article' }).workflow).toEqual(ARTICLE);
    expect(registry.resolve(ONE_STEP)).toEqual({ packageName: 'inline', workflow: ONE_STEP });
    expect(() => registry.resolve('article')).toThrow(
      /ambiguous: name one of "publishing\/article", "other\/article"/,
    );
    expect(() => registry.resolve('nothing')).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT' }));
    expect(() => registry.resolve({ packageName: 'nope', workflowId: 'article' })).toThrow(
      /Unknown workflow package "nope"/,
    );
    expect(() => registry.resolve({ ...ONE_STEP, edges: [{ from: 'hello', to: 'bye' }] })).toThrow(
      /edges\[0\]\.to/,
    );
  });
});

describe('completeStep', () => {
  it('follows the only edge, the default, a label (any case) or a target id', () => {
    expect(completeStep(ARTICLE, stateAt('draft'), {}, AT)).toMatchObject({
      ok: true,
      from: 'draft',
      to: 'review',
      state: { currentNodeId: 'review', stepsCompleted: ['draft'], status: 'active', updatedAt: AT },
    });
    expect(completeStep(ARTICLE, stateAt('review'), {}, AT)).toMatchObject({
      ok: true,
      to: 'draft',
      edge: { label: 'needs changes' },
    });
    expect(completeStep(ARTICLE, stateAt('review'), { edge: ' APPROVED ' }, AT)).toMatchObject({
      ok: true,
      to: 'publish',
    });
    expect(completeStep(ARTICLE, stateAt('review'), { edge: 'publish' }, AT)).toMatchObject({
      ok: true,
      to: 'publish',
    });
  });

  it('completes the workflow on the last step; a completed run has nothing to complete', () => {
    const done = completeStep(ARTICLE, stateAt('publish', { stepsCompleted: ['draft', 'review'] }), {}, AT);
    expect(done).toMatchObject({
      ok: true,
      from: 'publish',
      to: 'publish',
      state: { status: 'completed', stepsCompleted: ['draft', 'review', 'publish'] },
    });
    expect(completeStep(ARTICLE, stateAt('publish'), { edge: 'approved' }, AT)).toMatchObject({
      ok: false,
      code: 'TOOL_INVALID_INPUT',
      message: expect.stringContaining('is the last step'),
    });
    expect(completeStep(ARTICLE, stateAt('publish', { status: 'completed' }), {}, AT)).toMatchObject({
      ok: false,
      code: 'TOOL_FAILED',
      message: expect.stringContaining('already completed'),
    });
  });

  it('refuses an unknown edge or another step, listing what can be used', () => {
    const unknown = completeStep(ARTICLE, stateAt('review'), { edge: 'maybe' }, AT);
    expect(unknown).toMatchObject({ ok: false, code: 'TOOL_INVALID_INPUT' });
    expect(unknown.ok ? '' : unknown.message).toBe(
      'Step "review" (Review) has no edge "maybe". The edges you can use:\n' +
        '- "approved" → "publish" (Publish)\n' +
        '- "needs changes" → "draft" (Draft), the default',
    );
    expect(completeStep(ARTICLE, stateAt('review'), { step: 'draft' }, AT)).toMatchObject({
      ok: false,
      code: 'TOOL_INVALID_INPUT',
      message: expect.stringContaining('The current step is "review" (Review), not "draft"'),
    });
    const fork: WorkflowDefinition = {
      ...ARTICLE,
      edges: [
        { from: 'draft', to: 'review' },
        { from: 'draft', to: 'publish' },
        { from: 'review', to: 'publish' },
      ],
    };
    expect(completeStep(fork, stateAt('draft'), {}, AT)).toMatchObject({
      ok: false,
      message: expect.stringContaining('- "review" (no label: pass the step id) → "review" (Review)'),
    });
  });
});

describe('runContextFor', () => {
  it('gives the step, its instruction and edges while active, and none of them once completed', () => {
    const active = runContextFor(ARTICLE, stateAt('review', { stepsCompleted: ['draft'] }));
    expect(active).toEqual({
      packageName: 'publishing',
      workflowName: 'Write an article',
      status: 'active',
      stepsCompleted: [{ id: 'draft', name: 'Draft' }],
      currentStepId: 'review',
      currentStepName: 'Review',
      stepInstruction: 'Review the draft against the style guide.',
      outgoingEdges: [
        { label: 'approved', targetNodeId: 'publish' },
        { label: 'needs changes', targetNodeId: 'draft', isDefault: true },
      ],
    });
    const completed = runContextFor(
      ARTICLE,
      stateAt('publish', { status: 'completed', stepsCompleted: ['draft', 'review', 'publish'] }),
    );
    expect(Object.keys(completed).sort()).toEqual([
      'packageName',
      'status',
      'stepsCompleted',
      'workflowName',
    ]);
    // Both are what the context builder accepts.
    expect(composeSystemPrompt({ mode: 'run', runContext: active })).toContain('- approved → publish');
    expect(composeSystemPrompt({ mode: 'run', runContext: completed })).toContain(
      'Mode: workflow run, completed.',
    );
  });

  it('reports a state pointing at a step the workflow lacks as STORE_CORRUPT', () => {
    expect(() => runContextFor(ARTICLE, stateAt('gone'))).toThrow(
      expect.objectContaining({ code: 'STORE_CORRUPT' }),
    );
  });
});
