import type { MessageContent, OpenAIToolCall, ToolExecutionOptions } from '@cairn/core';
import { createGate, simulatedDelay } from '@cairn/testing';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import {
  approvalTool,
  commandTool,
  deniedByToolTool,
  echoTool,
  failingTool,
  slowTool,
  summaryTool,
  weatherTool,
} from '../test/loop-test-tools.js';
import { createToolHost } from './create-tool-host.js';
import { defineTool } from './define-tool.js';

const call = (name: string, args: unknown, id = 'call_1'): OpenAIToolCall => ({
  id,
  type: 'function',
  function: { name, arguments: typeof args === 'string' ? args : JSON.stringify(args) },
});

const options = (extra: Partial<ToolExecutionOptions> = {}): ToolExecutionOptions => ({
  signal: new AbortController().signal,
  ...extra,
});

const host = createToolHost([
  echoTool,
  weatherTool,
  summaryTool,
  failingTool,
  commandTool,
  deniedByToolTool,
  slowTool,
  approvalTool,
]);

describe('createToolHost', () => {
  it('lists the tools a policy allows, with the JSON Schema of their input', () => {
    const all = host.getVisibleTools();
    expect(all.map((tool) => tool.name)).toEqual(host.tools.map((tool) => tool.name));
    expect(all.find((tool) => tool.name === 'echo')).toEqual({
      name: 'echo',
      description: 'Echo the text back',
      inputSchema: {
        type: 'object',
        properties: { text: { type: 'string' }, delayMs: { type: 'number' } },
        required: ['text'],
      },
    });
    const policy = { allow: { categories: ['web', 'test'] }, deny: { tools: ['fail'] } };
    expect(host.getVisibleTools({ policy }).map((tool) => tool.name)).toEqual([
      'echo',
      'get_weather',
      'slow',
    ]);
  });

  it('runs a call with its validated input and reports the duration', async () => {
    const result = await host.execute(call('echo', { text: 'hi' }), options());
    expect(result).toMatchObject({
      toolCallId: 'call_1',
      toolName: 'echo',
      content: 'echo: hi',
      isError: false,
    });
    expect(result.durationMs).toBeGreaterThanOrEqual(0);
    expect(result).not.toHaveProperty('errorCode');
  });

  it('JSON-stringifies other outputs and keeps them as the structured result', async () => {
    const weather = await host.execute(call('get_weather', { city: 'Oslo' }), options());
    expect(weather).toMatchObject({
      content: '{"city":"Oslo","celsius":4}',
      structured: { city: 'Oslo', celsius: 4 },
    });
    const summary = await host.execute(call('read_big', {}), options());
    expect(summary).toMatchObject({ content: '3 lines', structured: { lines: ['a', 'b', 'c'] } });
  });

  it('turns each way a call can go wrong into a failed result the model can act on', async () => {
    const cases: [OpenAIToolCall, string, RegExp][] = [
      [call('nope', {}), 'TOOL_NOT_FOUND', /no tool named "nope".*Available tools: echo, get_weather/],
      [call('echo', '{"text": '), 'TOOL_INVALID_INPUT', /not valid JSON/],
      [
        call('echo', { text: 3 }),
        'TOOL_INVALID_INPUT',
        /Invalid arguments for echo:\n- text: .*expected string/i,
      ],
      [call('fail', {}), 'TOOL_FAILED', /^it is broken$/],
      [call('outside', {}), 'TOOL_DENIED', /outside the workspace/],
      [call('slow', {}), 'TOOL_TIMEOUT', /did not finish within 50 ms/],
    ];
    for (const [toolCall, code, text] of cases) {
      const result = await host.execute(toolCall, options());
      expect(result, code).toMatchObject({ isError: true, errorCode: code });
      expect(result.content).toMatch(text);
    }
  });

  it('keeps the structured result of a failure the tool reported with toolFailure', async () => {
    const result = await host.execute(call('run', { command: 'lss' }), options());
    expect(result).toMatchObject({
      isError: true,
      errorCode: 'TOOL_FAILED',
      content: 'Exit code 2\nlss: not found',
      structured: { stdout: '', stderr: 'not found', exitCode: 2 },
    });
  });

  it('refuses calls the policy denies, even to a tool it has', async () => {
    const policy = { deny: { categories: ['web'] } };
    const result = await host.execute(call('get_weather', { city: 'Oslo' }), options({ policy }));
    expect(result).toMatchObject({ isError: true, errorCode: 'TOOL_DENIED' });
    expect(result.content).not.toMatch(/get_weather,/);
  });

  it('asks for approval when the tool needs it, and only then', async () => {
    const asked: unknown[] = [];
    const approve = (request: unknown) => {
      asked.push(request);
      return false;
    };
    const staging = await host.execute(call('deploy', { target: 'staging' }), options({ approve }));
    expect(staging.content).toBe('deployed to staging');
    const refused = await host.execute(call('deploy', { target: 'production' }, 'c2'), options({ approve }));
    expect(refused).toMatchObject({ isError: true, errorCode: 'TOOL_DENIED' });
    // The question's signal ends it if the turn is cancelled while it is open.
    expect(asked).toEqual([
      {
        toolCallId: 'c2',
        toolName: 'deploy',
        input: { target: 'production' },
        signal: expect.any(AbortSignal),
      },
    ]);
    const approved = await host.execute(
      call('deploy', { target: 'production' }),
      options({ approve: () => true }),
    );
    expect(approved.content).toBe('deployed to production');
    const nobody = await host.execute(call('deploy', { target: 'production' }), options());
    expect(nobody.content).toMatch(/needs the user's approval, and there is no one to ask/);
  });

  it('leaves the wait for approval out of the duration, approved or refused', async () => {
    // Fake clocks: the durations are exact, however loaded the machine is.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    try {
      const build = defineTool({
        name: 'build',
        description: 'Takes a quarter of a second, once approved',
        category: 'shell',
        input: z.object({}),
        needsApproval: true,
        execute: () => new Promise((resolve) => setTimeout(() => resolve('built'), 250)),
      });
      const answerAfterAMinute = (answer: boolean) => () =>
        new Promise<boolean>((resolve) => setTimeout(() => resolve(answer), 60_000));
      const buildHost = createToolHost([build]);
      const approved = buildHost.execute(call('build', {}), options({ approve: answerAfterAMinute(true) }));
      await vi.advanceTimersByTimeAsync(60_250);
      await expect(approved).resolves.toMatchObject({ content: 'built', durationMs: 250 });
      const refused = buildHost.execute(call('build', {}), options({ approve: answerAfterAMinute(false) }));
      await vi.advanceTimersByTimeAsync(60_000);
      await expect(refused).resolves.toMatchObject({ errorCode: 'TOOL_DENIED', durationMs: 0 });
    } finally {
      vi.useRealTimers();
    }
  });

  it('stops a running tool when the turn is cancelled, and reports it as interrupted', async () => {
    const controller = new AbortController();
    let toolSignal: AbortSignal | undefined;
    const started = createGate();
    const waiting = defineTool({
      name: 'wait',
      description: 'Waits for its signal',
      category: 'test',
      input: z.object({}),
      execute: (_input, { signal }) => {
        toolSignal = signal;
        started.open();
        return simulatedDelay(60_000, signal);
      },
    });
    const pending = createToolHost([waiting]).execute(call('wait', {}), { signal: controller.signal });
    await started.promise;
    controller.abort();
    const result = await pending;
    expect(result).toMatchObject({ isError: true, interrupted: true });
    expect(result.content).toMatch(/^Interrupted/);
    expect(toolSignal?.aborted).toBe(true);
  });

  it('never runs a call whose turn was cancelled before it started', async () => {
    let ran = false;
    const tool = defineTool({
      name: 'mark',
      description: 'Marks that it ran',
      category: 'test',
      input: z.object({}),
      execute: () => {
        ran = true;
        return 'ran';
      },
    });
    const controller = new AbortController();
    controller.abort();
    const result = await createToolHost([tool]).execute(call('mark', {}), { signal: controller.signal });
    expect(result.interrupted).toBe(true);
    expect(ran).toBe(false);
  });

  it('leaves no listener on a long-lived signal', async () => {
    const controller = new AbortController();
    const added: unknown[] = [];
    const removed: unknown[] = [];
    const { signal } = controller;
    const add = signal.addEventListener.bind(signal);
    const remove = signal.removeEventListener.bind(signal);
    signal.addEventListener = ((type: string, listener: never, opts: never) => {
      added.push(listener);
      add(type, listener, opts);
    }) as typeof signal.addEventListener;
    signal.removeEventListener = ((type: string, listener: never) => {
      removed.push(listener);
      remove(type, listener);
    }) as typeof signal.removeEventListener;
    for (let index = 0; index < 20; index++) await host.execute(call('echo', { text: 'x' }), { signal });
    await host.execute(call('fail', {}), { signal });
    expect(added.length).toBeGreaterThan(0);
    expect(new Set(removed)).toEqual(new Set(added));
  });

  it('refuses two tools of one name', () => {
    expect(() => createToolHost([echoTool, echoTool])).toThrow(
      expect.objectContaining({ code: 'INVALID_ARGUMENT' }),
    );
  });

  it('refuses (never fails) a call whose approval could not be asked', async () => {
    const tool = defineTool({
      name: 'deploy',
      description: 'Deploys',
      category: 'shell',
      input: z.object({}),
      needsApproval: true,
      execute: () => 'deployed',
    });
    const result = await createToolHost([tool]).execute(call('deploy', {}, 'a'), {
      ...options(),
      approve: () => {
        throw new Error('approval UI disconnected');
      },
    });
    expect(result).toMatchObject({ isError: true, errorCode: 'TOOL_DENIED' });
    expect(result.content).toMatch(/was not run: asking for approval failed \(approval UI disconnected\)/);
  });

  it('keeps a success when toModelOutput throws, and writes BigInts and cycles', async () => {
    const cyclic: Record<string, unknown> = { big: 10n };
    cyclic.self = cyclic;
    const tool = defineTool({
      name: 'odd',
      description: 'Odd output',
      category: 'test',
      input: z.object({}),
      execute: () => cyclic,
      toModelOutput: () => {
        throw new Error('render bug');
      },
    });
    const result = await createToolHost([tool]).execute(call('odd', {}, 'a'), options());
    expect(result).toMatchObject({
      isError: false,
      content: '{"big":"10","self":"[Circular]"}',
      structured: cyclic,
    });
  });

  it('sends the parts toModelOutput returns (an image), and its JSON text for content no adapter can send', async () => {
    const image = { type: 'image', mediaType: 'image/png', source: { type: 'base64', data: 'iVBORw0KGgo=' } };
    const render = (content: unknown) =>
      defineTool({
        name: 'shot',
        description: 'A screenshot',
        category: 'test',
        input: z.object({}),
        execute: () => ({ width: 1 }),
        toModelOutput: () => content as MessageContent,
      });
    const run = (content: unknown) =>
      createToolHost([render(content)]).execute(call('shot', {}, 'a'), options());
    const parts = [{ type: 'text', text: 'The page:' }, image];
    expect(await run(parts)).toMatchObject({ isError: false, content: parts, structured: { width: 1 } });
    // Not content at all (a part without a type, a number): the output's JSON text, still a success.
    for (const bad of [[{ text: 'no type' }], 42, [image, null]]) {
      expect(await run(bad)).toMatchObject({ isError: false, content: '{"width":1}' });
    }
    expect((await run([])).content).toBe('');
  });

  it('reports a validator that throws (a refinement with a bug) as TOOL_FAILED, never throwing itself', async () => {
    const input = z.object({ n: z.number() }).refine(() => {
      throw new Error('the check itself broke');
    });
    const tool = defineTool({
      name: 'fragile',
      description: 'd',
      category: 'test',
      input,
      execute: () => 'ran',
    });
    const result = await createToolHost([tool]).execute(call('fragile', { n: 1 }), options());
    expect(result).toMatchObject({ isError: true, errorCode: 'TOOL_FAILED' });
    expect(result.content).toBe('Validating the arguments for fragile failed: the check itself broke');
  });

  it('answers every call of a cancelled turn as interrupted, even a bad one', async () => {
    const controller = new AbortController();
    controller.abort();
    const echoHost = createToolHost([echoTool]);
    for (const bad of [call('nope', {}, 'a'), call('echo', { words: 1 }, 'b')]) {
      expect(await echoHost.execute(bad, { signal: controller.signal })).toMatchObject({ interrupted: true });
    }
  });
});
