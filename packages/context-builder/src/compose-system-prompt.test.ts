import { CairnError } from '@cairn/core';
import { describe, expect, it } from 'vitest';
import type { ToolDescription } from './available-tools.js';
import { composeSystemPrompt } from './compose-system-prompt.js';
import { DEFAULT_MODE_PROFILES } from './mode-profiles.js';

const TOOLS: ToolDescription[] = [
  { name: 'write_file', description: 'Write a file', category: 'fs' },
  { name: 'read_file', description: 'Read a file', category: 'fs' },
  { name: 'run_command', description: 'Run a shell command', category: 'shell' },
  { name: 'fetch', description: 'Fetch a URL', category: 'web' },
];

const toolLines = (prompt: string) => prompt.split('\n').filter((line) => /^- [a-z_]+(:|$)/.test(line));

describe('composeSystemPrompt: persona', () => {
  it('writes every part of the persona when given, then the agent’s own instructions', () => {
    const prompt = composeSystemPrompt({
      mode: 'chat',
      agent: {
        id: 'reviewer',
        name: 'Ada',
        role: 'Code reviewer',
        identity: 'A meticulous reviewer of TypeScript.',
        communicationStyle: 'Short and direct.',
        principles: ['Explain why', '', 'Never guess'],
        systemPrompt: 'Review only the files you are given.',
      },
      tools: [],
    });
    expect(prompt).toBe(
      [
        'You are Ada.',
        'Role: Code reviewer',
        'Identity: A meticulous reviewer of TypeScript.',
        'Communication style: Short and direct.',
        'Principles:',
        '- Explain why',
        '- Never guess',
        '',
        'Review only the files you are given.',
        '',
        DEFAULT_MODE_PROFILES.chat,
        '',
        'No tools are available.',
      ].join('\n'),
    );
  });

  it('leaves out the parts not given (or blank), and the id', () => {
    const prompt = composeSystemPrompt({
      mode: 'chat',
      agent: { id: 'a-1', name: 'Ada', role: '  ', principles: [] },
    });
    expect(prompt).toBe(`You are Ada.\n\n${DEFAULT_MODE_PROFILES.chat}`);
    expect(prompt).not.toContain('a-1');
    expect(composeSystemPrompt({ mode: 'chat' })).toBe(DEFAULT_MODE_PROFILES.chat);
    expect(composeSystemPrompt({ mode: 'chat', agent: { systemPrompt: 'Be brief.' } })).toMatch(
      /^Be brief\.\n\n/,
    );
  });
});

describe('composeSystemPrompt: modes', () => {
  it('uses each mode’s profile', () => {
    for (const mode of ['chat', 'agent', 'run'] as const) {
      const prompt = composeSystemPrompt({ mode });
      expect(prompt).toContain(DEFAULT_MODE_PROFILES[mode]);
      for (const other of ['chat', 'agent', 'run', 'postCompletion'] as const) {
        if (other !== mode) expect(prompt).not.toContain(DEFAULT_MODE_PROFILES[other]);
      }
    }
  });

  it('takes overridden profiles; an empty one leaves the profile out', () => {
    expect(composeSystemPrompt({ mode: 'agent', modeProfiles: { agent: 'Do the work.' } })).toBe(
      'Do the work.',
    );
    expect(composeSystemPrompt({ mode: 'agent', tools: [], modeProfiles: { agent: '', chat: 'x' } })).toBe(
      'No tools are available.',
    );
    expect(composeSystemPrompt({ mode: 'chat', modeProfiles: { agent: 'Do the work.' } })).toContain(
      DEFAULT_MODE_PROFILES.chat,
    );
  });

  it('refuses an unknown mode, and a run context outside run mode', () => {
    expect(() => composeSystemPrompt({ mode: 'talk' as never })).toThrow(
      expect.objectContaining({ code: 'INVALID_ARGUMENT' }),
    );
    const runContext = { packageName: 'p', workflowName: 'w' };
    expect(() => composeSystemPrompt({ mode: 'chat', runContext })).toThrow(CairnError);
    expect(() =>
      composeSystemPrompt({ mode: 'run', runContext: { ...runContext, status: 'done' } as never }),
    ).toThrow(/Invalid run context at status/);
  });
});

describe('composeSystemPrompt: tools', () => {
  it('lists every tool, one line each, sorted by name, when no policy is given', () => {
    const prompt = composeSystemPrompt({ mode: 'agent', tools: TOOLS });
    expect(prompt).toContain(
      [
        'Tools you can use:',
        '- fetch: Fetch a URL',
        '- read_file: Read a file',
        '- run_command: Run a shell command',
        '- write_file: Write a file',
      ].join('\n'),
    );
    expect(prompt).not.toContain('No tools are available.');
  });

  it('gives the same text whatever order the tools come in', () => {
    const reversed = composeSystemPrompt({ mode: 'agent', tools: [...TOOLS].reverse() });
    expect(reversed).toBe(composeSystemPrompt({ mode: 'agent', tools: TOOLS }));
  });

  it('keeps a description on its line, and a tool without one', () => {
    const prompt = composeSystemPrompt({
      mode: 'agent',
      tools: [
        { name: 'grep', description: 'Search files.\n  Returns matching lines.', category: 'fs' },
        { name: 'noop', description: ' ', category: 'misc' },
      ],
    });
    expect(toolLines(prompt)).toEqual(['- grep: Search files. Returns matching lines.', '- noop']);
  });

  it('lists only the tools a plain policy allows', () => {
    const prompt = composeSystemPrompt({
      mode: 'agent',
      tools: TOOLS,
      toolPolicy: { allow: { categories: ['fs', 'shell'] }, deny: { tools: ['write_file'] } },
    });
    expect(toolLines(prompt)).toEqual(['- read_file: Read a file', '- run_command: Run a shell command']);
  });

  it('merges a layered policy so that the agent only narrows what the system allows', () => {
    const system = { allow: { categories: ['fs', 'web'] }, deny: { tools: ['fetch'] } };
    // The agent asks for shell (not allowed by the system) and fetch (denied by it): neither appears.
    const agent = { allow: { categories: ['fs', 'shell', 'web'] }, deny: { tools: ['write_file'] } };
    const prompt = composeSystemPrompt({ mode: 'agent', tools: TOOLS, toolPolicy: { system, agent } });
    expect(toolLines(prompt)).toEqual(['- read_file: Read a file']);
    expect(toolLines(composeSystemPrompt({ mode: 'agent', tools: TOOLS, toolPolicy: { system } }))).toEqual([
      '- read_file: Read a file',
      '- write_file: Write a file',
    ]);
  });

  it('says so when the policy allows none of the tools, and says nothing when no tools are given', () => {
    const prompt = composeSystemPrompt({ mode: 'agent', tools: TOOLS, toolPolicy: { allow: { tools: [] } } });
    expect(prompt).toBe(`${DEFAULT_MODE_PROFILES.agent}\n\nNo tools are available.`);
    // Which tools exist is the caller's to say: a policy alone lists nothing, and claims nothing.
    expect(composeSystemPrompt({ mode: 'agent', toolPolicy: { allow: { tools: [] } } })).toBe(
      DEFAULT_MODE_PROFILES.agent,
    );
  });
});

describe('composeSystemPrompt: run mode', () => {
  const runContext = {
    packageName: 'onboarding-kit',
    workflowName: 'onboard',
    currentStepId: 'collect',
    stepInstruction: 'Ask for the team size.',
  };

  it('puts the run context last, after the run profile', () => {
    const prompt = composeSystemPrompt({ mode: 'run', agent: { name: 'Ada' }, runContext });
    const sections = prompt.split('\n\n');
    expect(sections[1]).toBe(DEFAULT_MODE_PROFILES.run);
    expect(sections.at(-2)).toMatch(/^Workflow run:\n- Package: onboarding-kit/);
    expect(sections.at(-1)).toBe('Instruction for the current step:\nAsk for the team size.');
  });

  it('switches to the post-completion profile once the workflow is completed', () => {
    const prompt = composeSystemPrompt({ mode: 'run', runContext: { ...runContext, status: 'completed' } });
    expect(prompt).toContain(DEFAULT_MODE_PROFILES.postCompletion);
    expect(prompt).not.toContain(DEFAULT_MODE_PROFILES.run);
    expect(prompt).not.toContain('collect');
    expect(prompt).not.toContain('team size');
  });

  it('works in run mode without a run context', () => {
    expect(composeSystemPrompt({ mode: 'run' })).toBe(DEFAULT_MODE_PROFILES.run);
  });
});
