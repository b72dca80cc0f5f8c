import * as agentCli from '@cairn/agent-cli/gemini-cli';
import { describe, expect, it } from 'vitest';

describe('@cairn/provider-gemini/gemini-cli (deprecated)', () => {
  it('still imports through the package exports and gives the functions of @cairn/agent-cli/gemini-cli', async () => {
    const old = await import('@cairn/provider-gemini/gemini-cli');
    expect(Object.keys(old).sort()).toEqual(Object.keys(agentCli).sort());
    expect(old.convertGeminiCliResult).toBe(agentCli.convertGeminiCliResult);
    expect(old.convertGeminiCliStream).toBe(agentCli.convertGeminiCliStream);
    expect(old.createGeminiCliConverter).toBe(agentCli.createGeminiCliConverter);
  });
});
