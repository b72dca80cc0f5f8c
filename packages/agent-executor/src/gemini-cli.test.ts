import { describe, expect, it } from 'vitest';
import { geminiCli } from './gemini-cli.js';

// Its arguments, converter and permission flags are tested beside Qwen Code's: gemini-cli-flags.test.ts.
describe('geminiCli', () => {
  it('runs without re-launching and stops on SIGINT', () => {
    expect(geminiCli.stop).toEqual({ signal: 'SIGINT' });
    expect(geminiCli.env).toEqual({ GEMINI_CLI_NO_RELAUNCH: 'true' });
  });
});
