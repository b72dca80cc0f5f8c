import { describe, expect, it } from 'vitest';
import { mcpToolNames } from './mcp-tool-name.js';

const TOOL_NAME = /^[A-Za-z_][A-Za-z0-9_-]{0,63}$/;

describe('mcpToolNames', () => {
  it('names tools mcp__<server>__<tool>, sanitised, long or clashing names made unique by a hash', () => {
    const refs = [
      { server: 'fs', tool: 'read_file' },
      { server: 'web', tool: 'fetch.url' },
      { server: 'web', tool: 'fetch/url' },
      { server: 'long', tool: 'x'.repeat(80) },
    ];
    const names = [...mcpToolNames(refs).values()];
    expect(names[0]).toBe('mcp__fs__read_file');
    expect(names[1]).toMatch(/^mcp__web__fetch_url_[0-9a-f]{8}$/);
    expect(names[2]).toMatch(/^mcp__web__fetch_url_[0-9a-f]{8}$/);
    expect(names[1]).not.toBe(names[2]);
    expect(names[3]).toHaveLength(64);
    for (const name of names) expect(name).toMatch(TOOL_NAME);
    // The same tools get the same names, whatever order they are listed in.
    expect([...mcpToolNames([...refs].reverse()).values()].reverse()).toEqual(names);
  });
});
