import { describe, expect, it } from 'vitest';
import { describeRunContext } from './describe-run-context.js';
import type { RunContext } from './run-context.js';

const active: RunContext = {
  packageName: 'onboarding-kit',
  workflowName: 'onboard',
  currentStepId: 'collect',
  currentStepName: 'Collect requirements',
  stepInstruction: 'Ask for the team size\nand the start date.',
  stepsCompleted: ['intro', { id: 'scope', name: 'Scope' }],
  outgoingEdges: [
    { label: 'approved', targetNodeId: 'review', isDefault: true },
    { label: 'incomplete', targetNodeId: 'clarify' },
    { targetNodeId: 'abort' },
  ],
};

describe('describeRunContext', () => {
  it('describes the active step: names, current step, steps done, instruction, outgoing edges', () => {
    expect(describeRunContext(active)).toBe(
      [
        'Workflow run:',
        '- Package: onboarding-kit',
        '- Workflow: onboard',
        '- Status: in progress',
        '- Current step: collect (Collect requirements)',
        '- Steps completed: intro, scope (Scope)',
        '',
        'Instruction for the current step:',
        'Ask for the team size\nand the start date.',
        '',
        'Where the workflow can go from this step:',
        '- approved → review (default)',
        '- incomplete → clarify',
        '- → abort',
      ].join('\n'),
    );
  });

  it('says when the step is the last one, and leaves out what is not given', () => {
    expect(
      describeRunContext({ packageName: 'p', workflowName: 'w', currentStepId: 's', outgoingEdges: [] }),
    ).toBe(
      [
        'Workflow run:',
        '- Package: p',
        '- Workflow: w',
        '- Status: in progress',
        '- Current step: s',
        '- Steps completed: none',
        '',
        'Where the workflow can go from this step:',
        '- nowhere: this is the last step',
      ].join('\n'),
    );
  });

  it('gives a completed workflow no active-step information at all', () => {
    const text = describeRunContext({ ...active, status: 'completed' });
    expect(text).toBe(
      [
        'Workflow run:',
        '- Package: onboarding-kit',
        '- Workflow: onboard',
        '- Status: completed',
        '- Steps completed: intro, scope (Scope)',
      ].join('\n'),
    );
    for (const absent of ['collect', 'Collect requirements', 'team size', 'Current step', 'Instruction']) {
      expect(text).not.toContain(absent);
    }
    for (const absent of ['approved', 'review', 'clarify', 'abort', '→', 'default']) {
      expect(text).not.toContain(absent);
    }
  });
});
