import { CairnError } from '@cairn/core';
import { simulatedDelay } from '@cairn/testing';
import { z } from 'zod';
import { defineTool, toolFailure } from '../src/index.js';

export const echoTool = defineTool({
  name: 'echo',
  description: 'Echo the text back',
  category: 'test',
  input: z.object({ text: z.string(), delayMs: z.number().optional() }),
  async execute({ text, delayMs }, { signal }) {
    if (delayMs !== undefined) await simulatedDelay(delayMs, signal);
    return `echo: ${text}`;
  },
});

export const weatherTool = defineTool({
  name: 'get_weather',
  description: 'The weather in a city',
  category: 'web',
  input: z.object({ city: z.string() }),
  execute: ({ city }) => ({ city, celsius: city.length }),
});

export const summaryTool = defineTool({
  name: 'read_big',
  description: 'Returns a big object, of which the model reads a summary',
  category: 'read',
  input: z.object({}),
  execute: () => ({ lines: ['a', 'b', 'c'] }),
  toModelOutput: (output) => `${output.lines.length} lines`,
});

export const failingTool = defineTool({
  name: 'fail',
  description: 'Always fails',
  category: 'test',
  input: z.object({ reason: z.string().default('broken') }),
  execute: ({ reason }) => {
    throw new Error(`it is ${reason}`);
  },
});

export const commandTool = defineTool({
  name: 'run',
  description: 'Fails with its output kept',
  category: 'shell',
  input: z.object({ command: z.string() }),
  execute: ({ command }) => {
    throw toolFailure(`Exit code 2\n${command}: not found`, { stdout: '', stderr: 'not found', exitCode: 2 });
  },
});

export const deniedByToolTool = defineTool({
  name: 'outside',
  description: 'Refuses like a sandbox',
  category: 'read',
  input: z.object({}),
  execute: () => {
    throw new CairnError('TOOL_DENIED', '/etc/passwd is outside the workspace');
  },
});

export const slowTool = defineTool({
  name: 'slow',
  description: 'Never finishes in time',
  category: 'test',
  input: z.object({}),
  timeoutMs: 50,
  execute: (_input, { signal }) => simulatedDelay(60_000, signal),
});

export const approvalTool = defineTool({
  name: 'deploy',
  description: 'Needs approval',
  category: 'shell',
  input: z.object({ target: z.string() }),
  needsApproval: ({ target }) => target === 'production',
  execute: ({ target }) => `deployed to ${target}`,
});
