import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mcpToolNames } from './mcp-tool-name.js';

const TOOL_NAME = /^[A-Za-z_][A-Za-z0-9_-]{0,63}$/;
const ref = fc.record({
  server: fc.string({ minLength: 1, maxLength: 40 }),
  tool: fc.string({ minLength: 1, maxLength: 90 }),
});
const key = (r: { server: string; tool: string }) => `${r.server}\u0000${r.tool}`;

describe('mcpToolNames (property)', () => {
  it('gives every distinct tool a distinct name every provider accepts, whatever the order', () => {
    fc.assert(
      fc.property(fc.uniqueArray(ref, { selector: key, maxLength: 30 }), (refs) => {
        const names = mcpToolNames(refs);
        const values = [...names.values()];
        for (const name of values) expect(name).toMatch(TOOL_NAME);
        expect(new Set(values).size).toBe(refs.length);
        const reversed = mcpToolNames([...refs].reverse());
        for (const r of refs) expect(reversed.get(key(r))).toBe(names.get(key(r)));
      }),
    );
  });
});
