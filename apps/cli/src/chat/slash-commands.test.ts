import { describe, expect, it } from 'vitest';
import { parseSlashCommand, SLASH_COMMANDS, slashHelp } from './slash-commands.js';

describe('parseSlashCommand', () => {
  it('leaves ordinary messages to the model', () => {
    expect(parseSlashCommand('fix the bug in /src/a.ts')).toBeUndefined();
    expect(parseSlashCommand('')).toBeUndefined();
  });

  it('reads a command and its argument', () => {
    expect(parseSlashCommand('/resume chat-1')).toEqual({ name: 'resume', argument: 'chat-1' });
    expect(parseSlashCommand('  /model  openai:gpt-4.1  ')).toEqual({
      name: 'model',
      argument: 'openai:gpt-4.1',
    });
    expect(parseSlashCommand('/compress')).toEqual({ name: 'compress' });
  });

  it('knows the aliases and reports unknown commands as such', () => {
    expect(parseSlashCommand('/quit')).toEqual({ name: 'exit' });
    expect(parseSlashCommand('/frobnicate now')).toEqual({ name: 'unknown', text: '/frobnicate now' });
  });

  it('lists every command in /help', () => {
    const help = slashHelp();
    for (const [usage] of SLASH_COMMANDS) expect(help).toContain(usage);
    for (const [usage] of SLASH_COMMANDS)
      expect(parseSlashCommand(usage.split(' ')[0] as string)?.name).not.toBe('unknown');
  });
});
