import { describe, expect, it } from 'vitest';
import { qwenCodeCli } from './qwen-code-cli.js';
import { resolveAgentCli } from './resolve-agent-cli.js';

// Its arguments, converter and permission flags are tested beside Gemini CLI's: gemini-cli-flags.test.ts.
describe('qwenCodeCli', () => {
  it('is stopped by SIGKILL and writes a result line', () => {
    expect(qwenCodeCli.stop).toEqual({ signal: 'SIGKILL' });
    expect(qwenCodeCli.writesResult).toBe(true);
  });

  it('is a built-in agent', () => {
    expect(resolveAgentCli('qwen-code')).toBe(qwenCodeCli);
  });
});
