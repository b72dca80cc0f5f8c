import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import type { AgentCommandOptions } from '../commands/agent-command.js';
import { registerAgentCommands } from './agent-commands.js';
import type { Action } from './command-action.js';

/** Parses `cairn agent …` and returns the options `runAgentCommand` would get (the command does not run). */
async function parsedAgentOptions(args: string[]): Promise<AgentCommandOptions> {
  let options: AgentCommandOptions | undefined;
  const modules = {
    withStore: (_context: unknown, run: (store: unknown) => Promise<number>) => run({}),
    runAgentCommand: async (given: AgentCommandOptions) => {
      options = given;
      return 0;
    },
  };
  const context = { io: { cwd: '/work' }, settings: { verbose: false, plain: false } };
  const action: Action =
    (run) =>
    async (...all) => {
      const command = all.at(-1) as Command;
      await run(
        modules as never,
        context as never,
        command.optsWithGlobals(),
        ...(all.slice(0, -2) as never),
      );
    };
  const program = new Command().exitOverride().configureOutput({ writeErr: () => {} });
  registerAgentCommands(program, action);
  await program.parseAsync(['agent', ...args], { from: 'user' });
  if (options === undefined) throw new Error('the agent command did not run');
  return options;
}

describe('cairn agent permission flags', () => {
  it('default to read-only', async () => {
    expect((await parsedAgentOptions(['claude', 'hi'])).permissions).toEqual({ mode: 'read-only' });
  });

  it('take a mode, --yolo, and tools allowed one per --allow', async () => {
    expect((await parsedAgentOptions(['claude', 'hi', '--permissions', 'edit'])).permissions).toEqual({
      mode: 'edit',
    });
    expect((await parsedAgentOptions(['gemini', 'hi', '--yolo'])).permissions).toEqual({ mode: 'full' });
    const options = await parsedAgentOptions([
      'claude',
      'hi',
      '--allow',
      'Read',
      '--allow',
      'Bash(npm test)',
    ]);
    expect(options.permissions).toEqual({ mode: 'read-only', allowedTools: ['Read', 'Bash(npm test)'] });
  });

  it('refuse an unknown mode, --yolo with --permissions, and a tool that is not a tool name', async () => {
    await expect(parsedAgentOptions(['claude', 'hi', '--permissions', 'all'])).rejects.toThrow(
      /argument 'all' is invalid/,
    );
    await expect(parsedAgentOptions(['claude', 'hi', '--yolo', '--permissions', 'edit'])).rejects.toThrow(
      /cannot be used with option '--permissions/,
    );
    await expect(
      parsedAgentOptions(['claude', 'hi', '--allow=--dangerously-skip-permissions']),
    ).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
      message: expect.stringMatching(/^--allow "--dangerously/),
    });
    await expect(parsedAgentOptions(['claude', 'hi', '--allow', 'Read,Write'])).rejects.toThrow(
      /must be a tool name/,
    );
  });
});
