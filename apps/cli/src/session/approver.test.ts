import type { ToolApprovalRequest } from '@cairn/core';
import { describe, expect, it } from 'vitest';
import { type ApprovalAnswer, createApprover } from './approver.js';

const request = (command: string, toolName = 'run_command'): ToolApprovalRequest => ({
  toolCallId: `call-${command}`,
  toolName,
  input: { command },
});

describe('createApprover', () => {
  it('asks one question at a time, and an "always" answers the questions still waiting', async () => {
    const asked: string[] = [];
    const answers: ((answer: ApprovalAnswer) => void)[] = [];
    const approver = createApprover('ask');
    approver.setPrompt((question) => {
      asked.push((question.input as { command: string }).command);
      return new Promise((resolve) => answers.push(resolve));
    });
    const first = approver.approve(request('make'));
    const second = approver.approve(request('make test'));
    const other = approver.approve(request('x', 'deploy'));
    await Promise.resolve();
    expect(asked).toEqual(['make']);
    answers[0]?.('always');
    await expect(first).resolves.toBe(true);
    await expect(second).resolves.toBe(true);
    // Another tool is still asked about, after the first question.
    await expect.poll(() => asked).toEqual(['make', 'x']);
    answers[1]?.('no');
    await expect(other).resolves.toBe(false);
    await expect(approver.approve(request('make lint'))).resolves.toBe(true);
  });

  it('leaves the request pending when nobody can answer, or nobody did', async () => {
    await expect(createApprover('ask').approve(request('make'))).resolves.toBe('pending');
    const approver = createApprover('ask');
    approver.setPrompt(async () => undefined);
    await expect(approver.approve(request('make'))).resolves.toBe('pending');
    await expect(createApprover('always').approve(request('make'))).resolves.toBe(true);
  });

  it('refuses without asking under "never", and tells onRefused', async () => {
    const refused: ToolApprovalRequest[] = [];
    const approver = createApprover('never', (denied) => refused.push(denied));
    approver.setPrompt(async () => 'yes');
    await expect(approver.approve(request('make'))).resolves.toBe(false);
    expect(refused).toEqual([request('make')]);
  });
});
