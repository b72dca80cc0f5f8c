import * as agentCli from '@cairn/agent-cli/claude-code';
import { describe, expect, it } from 'vitest';

describe('@cairn/provider-anthropic/claude-code (deprecated)', () => {
  it('still imports through the package exports and gives the functions of @cairn/agent-cli/claude-code', async () => {
    const old = await import('@cairn/provider-anthropic/claude-code');
    expect(Object.keys(old).sort()).toEqual(Object.keys(agentCli).sort());
    expect(old.convertClaudeCodeResult).toBe(agentCli.convertClaudeCodeResult);
    expect(old.convertClaudeCodeStream).toBe(agentCli.convertClaudeCodeStream);
    expect(old.createClaudeCodeConverter).toBe(agentCli.createClaudeCodeConverter);
  });
});
