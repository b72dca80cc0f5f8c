import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { closestCommand, closestWord } from './closest-word.js';

const program = new Command('cairn');
for (const name of ['chat', 'demo', 'runs', 'workflow', 'agent', 'convert']) program.command(name);
program.command('conversations').alias('convs');

describe('closestCommand', () => {
  it.each([
    ['conversatons', 'conversations'],
    ['converstions', 'conversations'],
    ['cnvs', 'convs'],
    ['wokflow', 'workflow'],
    ['Demo', 'demo'],
    ['run', 'runs'],
  ])('%s → %s', (typed, meant) => {
    expect(closestCommand(program, typed)).toBe(meant);
  });

  it.each(['hello', 'summarise', 'x', 'please'])(
    'suggests nothing for a word no command is near: %s',
    (typed) => {
      expect(closestCommand(program, typed)).toBeUndefined();
    },
  );
});

describe('closestWord', () => {
  it('finds the provider a typo meant, and nothing for a model id', () => {
    const providers = ['openai', 'anthropic', 'gemini', 'openai-compatible'];
    expect(closestWord('antropic', providers)).toBe('anthropic');
    expect(closestWord('gemni', providers)).toBe('gemini');
    expect(closestWord('gpt-5.1', providers)).toBeUndefined();
    expect(closestWord('claude-sonnet-5-5', providers)).toBeUndefined();
  });
});
