import type { Key } from 'node:readline';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { plainColors } from '../render/test-support.js';
import { keyAnswer, terminalApprovalPrompt } from './terminal-approval.js';

const request = { toolCallId: 'c1', toolName: 'run_command', input: { command: 'make' } };
const key = (name: string, extra: Partial<Key> = {}): Key => ({ name, ...extra });

describe('keyAnswer', () => {
  it('answers with y, n or a in either case; Esc and Ctrl-C answer no', () => {
    expect(keyAnswer(key('y'))).toEqual({ answer: 'yes' });
    expect(keyAnswer(key('a', { shift: true }))).toEqual({ answer: 'always' });
    expect(keyAnswer(key('n'))).toEqual({ answer: 'no' });
    expect(keyAnswer(key('escape'))).toEqual({ answer: 'no' });
    expect(keyAnswer(key('c', { ctrl: true }))).toEqual({ answer: 'no', interrupt: true });
  });

  it('takes Enter and any other key as no answer', () => {
    for (const other of [key('return'), key('x'), key('y', { ctrl: true }), key('a', { meta: true }), {}]) {
      expect(keyAnswer(other)).toBeUndefined();
    }
  });
});

describe('terminalApprovalPrompt', () => {
  const setup = (signal?: AbortSignal) => {
    const input = new PassThrough();
    let written = '';
    let interrupts = 0;
    const prompt = terminalApprovalPrompt({
      input,
      write: (text) => {
        written += text;
      },
      colors: plainColors,
      signal: () => signal,
      onInterrupt: () => interrupts++,
    });
    return { input, prompt, written: () => written, interrupts: () => interrupts };
  };
  const question = '? allow run_command: make [y]es / [n]o / [a]lways ';

  it('re-asks on any other key with a hint, then echoes the answer', async () => {
    const { input, prompt, written } = setup();
    const answer = prompt(request);
    input.write('x');
    input.write('\r');
    input.write('Y');
    await expect(answer).resolves.toBe('yes');
    const hint = '\n  press y (yes), n (no) or a (always, this session); Esc answers no\n';
    expect(written()).toBe(`${question}${hint}${question}${hint}${question}yes\n`);
  });

  it("answers no to Ctrl-C, which is the chat's Ctrl-C too", async () => {
    const { input, prompt, written, interrupts } = setup();
    const answer = prompt(request);
    input.write('\x03');
    await expect(answer).resolves.toBe('no');
    expect(written()).toBe(`${question}no\n`);
    expect(interrupts()).toBe(1);
  });

  it('asks nothing for a turn already cancelled, and has no answer when the turn ends while it asks', async () => {
    const controller = new AbortController();
    controller.abort();
    const { prompt, written } = setup(controller.signal);
    await expect(prompt(request)).resolves.toBeUndefined();
    expect(written()).toBe('');
    const later = new AbortController();
    const asking = setup(later.signal);
    const answer = asking.prompt(request);
    later.abort();
    await expect(answer).resolves.toBeUndefined();
    expect(asking.written()).toBe(`${question}\n`);
  });
});
