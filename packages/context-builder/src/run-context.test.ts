import { CairnError } from '@cairn/core';
import { describe, expect, it } from 'vitest';
import { parseRunContext, runContextIssues } from './run-context.js';

const valid = {
  packageName: 'onboarding-kit',
  workflowName: 'onboard',
  status: 'active',
  currentStepId: 'collect',
  currentStepName: 'Collect requirements',
  stepInstruction: '',
  stepsCompleted: ['intro', { id: 'scope', name: 'Scope' }],
  outgoingEdges: [
    { label: 'approved', targetNodeId: 'review', isDefault: true },
    { targetNodeId: 'collect' },
  ],
};

function issueOf(value: unknown): string {
  try {
    parseRunContext(value);
  } catch (error) {
    expect(CairnError.is(error, 'INVALID_ARGUMENT')).toBe(true);
    return (error as Error).message;
  }
  throw new Error('expected parseRunContext to throw');
}

describe('parseRunContext', () => {
  it('returns a valid run context itself', () => {
    expect(parseRunContext(valid)).toBe(valid);
    const minimal = { packageName: 'p', workflowName: 'w' };
    expect(parseRunContext(minimal)).toBe(minimal);
    expect(parseRunContext({ ...minimal, status: 'completed', currentStepId: undefined })).toBeDefined();
  });

  it('names the first bad field with INVALID_ARGUMENT', () => {
    const pathOf = (value: unknown) => runContextIssues(value)[0]?.path;
    expect(issueOf(null)).toMatch(/^Invalid run context at \(root\): /);
    expect(issueOf({ workflowName: 'w' })).toMatch(/^Invalid run context at packageName: /);
    expect(pathOf({ ...valid, packageName: '' })).toBe('packageName');
    expect(pathOf({ ...valid, status: 'done' })).toBe('status');
    expect(pathOf({ ...valid, currentStepId: 3 })).toBe('currentStepId');
    expect(pathOf({ ...valid, stepsCompleted: ['a', { name: 'B' }] })).toBe('stepsCompleted[1]');
    expect(pathOf({ ...valid, outgoingEdges: [{ targetNodeId: 'x', isDefault: 'yes' }] })).toBe(
      'outgoingEdges[0].isDefault',
    );
    expect(pathOf({ ...valid, outgoingEdges: {} })).toBe('outgoingEdges');
  });

  it('refuses unknown fields, so the seed’s nested shape is not silently ignored', () => {
    const nested = { packageName: 'p', workflowName: 'w', state: { stepsCompleted: [] }, graph: {} };
    expect(issueOf(nested)).toMatch(/"state", "graph"/);
  });
});
