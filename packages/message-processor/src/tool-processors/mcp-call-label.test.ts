import { describe, expect, it } from 'vitest';
import { runningToolSummary } from '../running-tool-summary.js';
import { mcpCallLabel } from './mcp-call-label.js';
import { ToolProcessorRegistry } from './tool-processor-registry.js';

const view = (isError: boolean, output = '') => ({
  toolName: 'mcp__github__create_issue',
  toolUseId: 't',
  input: { repo: 'cairn', title: 'Crash on start' },
  output,
  isError,
  status: 'completed' as const,
});

describe('MCP tool summaries', () => {
  it('says "server · tool(args)" for mcp__server__tool calls, and nothing for other tools', () => {
    expect(mcpCallLabel('mcp__fs__read_file', { path: 'a.txt' })).toBe('fs · read_file(path: "a.txt")');
    expect(mcpCallLabel('mcp__everything__get-tiny-image', {})).toBe('everything · get-tiny-image()');
    expect(mcpCallLabel('read_file', { path: 'a.txt' })).toBeUndefined();
    expect(mcpCallLabel('mcp__x__long', { text: 'y'.repeat(200) })).toHaveLength('x · long()'.length + 80);
  });

  it('is the summary of a finished, failed or running MCP call', () => {
    const registry = new ToolProcessorRegistry();
    expect(registry.describe(view(false, 'created #1')).summary).toBe(
      'github · create_issue(repo: "cairn", title: "Crash on start")',
    );
    expect(registry.describe(view(true, 'Bad credentials')).summary).toBe(
      'github · create_issue(repo: "cairn", title: "Crash on start") failed: Bad credentials',
    );
    expect(runningToolSummary('mcp__fs__read_file', { path: 'a.txt' }, undefined)).toBe(
      'Running fs · read_file(path: "a.txt")',
    );
  });
});
