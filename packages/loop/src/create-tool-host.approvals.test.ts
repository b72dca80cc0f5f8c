import type { OpenAIToolCall, ToolExecutionOptions, ToolRunRequest } from '@cairn/core';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { approvalTool } from '../test/loop-test-tools.js';
import { createToolHost } from './create-tool-host.js';
import { defineTool } from './define-tool.js';

const call = (name: string, args: unknown, id = 'call_1'): OpenAIToolCall => ({
  id,
  type: 'function',
  function: { name, arguments: JSON.stringify(args) },
});

const options = (extra: Partial<ToolExecutionOptions> = {}): ToolExecutionOptions => ({
  signal: new AbortController().signal,
  ...extra,
});

const ran: string[] = [];
const appendTool = defineTool({
  name: 'append_line',
  description: 'Appends a line',
  category: 'write',
  input: z.object({ line: z.string().max(10) }),
  needsApproval: true,
  execute: ({ line }) => {
    ran.push(line);
    return `appended ${line}`;
  },
});
const readTool = defineTool({
  name: 'read_it',
  description: 'Reads',
  category: 'read',
  idempotent: true,
  input: z.object({}),
  execute: () => 'read',
});
const host = createToolHost([approvalTool, appendTool, readTool]);

describe('createToolHost: approvals decided elsewhere, edits and the run hook', () => {
  it('leaves a call pending, not run and without a result, when the approver answers pending', async () => {
    ran.length = 0;
    const result = await host.execute(
      call('append_line', { line: 'x' }),
      options({ approve: () => 'pending' }),
    );
    expect(result).toMatchObject({ pending: true, isError: false, content: '' });
    expect(ran).toEqual([]);
  });

  it('runs with the input the person edited, validated again by the tool', async () => {
    ran.length = 0;
    const edited = await host.execute(
      call('append_line', { line: 'model' }),
      options({ approve: () => ({ approved: true, input: { line: 'person' } }) }),
    );
    expect(edited).toMatchObject({ isError: false, content: 'appended person' });
    const invalid = await host.execute(
      call('append_line', { line: 'model' }),
      options({ approve: () => ({ approved: true, input: { line: 'far too long a line' } }) }),
    );
    expect(invalid).toMatchObject({ isError: true, errorCode: 'TOOL_INVALID_INPUT' });
    expect(ran).toEqual(['person']);
  });

  it('tells the model the reason a person gave for a denial', async () => {
    const denied = await host.execute(
      call('append_line', { line: 'x' }),
      options({ approve: () => ({ approved: false, reason: 'not on Fridays' }) }),
    );
    expect(denied).toMatchObject({ isError: true, errorCode: 'TOOL_DENIED' });
    expect(denied.content).toMatch(/did not approve running append_line\. Their reason: not on Fridays/);
  });

  it('calls beforeRun last, with the input it will run with, and runs nothing it refuses', async () => {
    ran.length = 0;
    const seen: ToolRunRequest[] = [];
    const beforeRun = (request: ToolRunRequest) => {
      seen.push(request);
      return request.toolName === 'append_line'
        ? { content: 'running elsewhere', isError: true as const, interrupted: true }
        : undefined;
    };
    const refused = await host.execute(
      call('append_line', { line: 'a' }),
      options({ approve: () => ({ approved: true, input: { line: 'b' } }), beforeRun }),
    );
    expect(refused).toMatchObject({ content: 'running elsewhere', isError: true, interrupted: true });
    expect(ran).toEqual([]);
    await expect(host.execute(call('read_it', {}), options({ beforeRun }))).resolves.toMatchObject({
      content: 'read',
    });
    expect(seen).toEqual([
      { toolCallId: 'call_1', toolName: 'append_line', input: { line: 'b' }, idempotent: false },
      { toolCallId: 'call_1', toolName: 'read_it', input: {}, idempotent: true },
    ]);
    // A call refused earlier (invalid input, denied) never reaches it.
    seen.length = 0;
    await host.execute(call('append_line', { line: 'x' }), options({ approve: () => false, beforeRun }));
    await host.execute(call('read_it', '{'), options({ beforeRun }));
    expect(seen).toEqual([]);
  });

  it('refuses a non-boolean idempotent flag where the tool is defined', () => {
    expect(() =>
      defineTool({
        name: 't',
        description: 'd',
        category: 'c',
        input: z.object({}),
        idempotent: 'yes' as unknown as boolean,
        execute: () => '',
      }),
    ).toThrow(/idempotent must be true or false/);
  });
});
