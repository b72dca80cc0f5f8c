import { describe, expect, it } from 'vitest';
import { toolInputHint } from './tool-input-hint.js';

describe('toolInputHint', () => {
  it('names the command, path or pattern a call works on, paths relative to the workspace', () => {
    expect(toolInputHint({ command: 'npm test', timeout: 30 })).toBe('npm test');
    expect(toolInputHint({ old_string: 'a', path: '/repo/src/a.ts' }, '/repo')).toBe('src/a.ts');
    expect(toolInputHint({ file_path: '/etc/hosts' }, '/repo')).toBe('/etc/hosts');
    expect(toolInputHint({ glob: '*.ts', pattern: 'TODO' })).toBe('TODO');
  });

  it('falls back to the first text argument, on one short line', () => {
    expect(toolInputHint({ limit: 3, topic: 'weather\nin Paris' })).toBe('weather in Paris');
    expect(toolInputHint({ command: `echo ${'x'.repeat(80)}` })).toHaveLength(48);
  });

  it('is empty when there is nothing to name', () => {
    expect(toolInputHint({})).toBe('');
    expect(toolInputHint({ count: 2, path: '  ' })).toBe('');
    expect(toolInputHint('raw arguments')).toBe('');
    expect(toolInputHint(null)).toBe('');
  });
});
