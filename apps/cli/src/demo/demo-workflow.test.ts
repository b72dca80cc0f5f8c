import { describe, expect, it } from 'vitest';
import { workflowTurn } from './demo-workflow.js';
import type { ChatMessage } from './read-chat-request.js';

const user: ChatMessage = { role: 'user', content: 'Review README.md', toolCalls: [] };
const result = (content: string): ChatMessage => ({ role: 'tool', content, toolCalls: [] });
const moved = result('Step "read" (Read) is completed; the workflow moved to step "review" (Review).');

describe('the demo model in a workflow run', () => {
  it('completes the current step, taking its default edge (no edge named)', () => {
    const turn = workflowTurn([user], 0);
    expect(turn.toolCalls).toEqual([
      { name: 'complete_step', arguments: { summary: expect.stringContaining('Scripted offline demo') } },
    ]);
    expect(workflowTurn([user, moved], 0).toolCalls?.[0]?.name).toBe('complete_step');
  });

  it('ends with a scripted answer once the workflow is complete', () => {
    const done = result(
      'Step "report" (Report) is completed, and with it the workflow "Review": no step is active any more.',
    );
    const turn = workflowTurn([user, moved, done], 0);
    expect(turn.toolCalls).toBeUndefined();
    expect(turn.text).toMatch(/complete: I went through 2 steps.*scripted offline demo/);
  });

  it('stops on a refused step, and after a bounded number of steps (a loop of default edges)', () => {
    expect(workflowTurn([user, result('There is no state for run r-1')], 0).text).toMatch(/could not go on/);
    const many = [user, ...Array.from({ length: 12 }, () => moved)];
    expect(workflowTurn(many, 0)).toMatchObject({ text: expect.stringMatching(/stopped after 12 steps/) });
  });
});
