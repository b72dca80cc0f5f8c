import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { toolIdentityArb, toolPolicyArb } from '../../test/arbitraries.js';
import { isToolAllowed, mergeToolPolicies, ToolPolicySchema } from './tool-policy.js';

const readFile = { name: 'read_file', category: 'fs' };
const writeFile = { name: 'write_file', category: 'fs' };
const runCommand = { name: 'run_command', category: 'shell' };

describe('isToolAllowed', () => {
  it('allows everything without a policy or with an empty one', () => {
    expect(isToolAllowed(undefined, runCommand)).toBe(true);
    expect(isToolAllowed({}, runCommand)).toBe(true);
  });

  it('narrows to the allowed categories and tools', () => {
    expect(isToolAllowed({ allow: { categories: ['fs'] } }, readFile)).toBe(true);
    expect(isToolAllowed({ allow: { categories: ['fs'] } }, runCommand)).toBe(false);
    expect(isToolAllowed({ allow: { tools: ['read_file'] } }, writeFile)).toBe(false);
    expect(isToolAllowed({ allow: { categories: ['fs'], tools: ['read_file'] } }, readFile)).toBe(true);
    expect(isToolAllowed({ allow: { categories: ['fs'], tools: ['read_file'] } }, writeFile)).toBe(false);
  });

  it('lets deny win over allow', () => {
    expect(isToolAllowed({ allow: { categories: ['fs'] }, deny: { tools: ['write_file'] } }, writeFile)).toBe(
      false,
    );
    expect(
      isToolAllowed({ allow: { tools: ['run_command'] }, deny: { categories: ['shell'] } }, runCommand),
    ).toBe(false);
  });

  it('allows nothing with an empty allow list', () => {
    expect(isToolAllowed({ allow: { tools: [] } }, readFile)).toBe(false);
  });
});

describe('mergeToolPolicies', () => {
  it('returns an empty policy when neither layer has one', () => {
    expect(mergeToolPolicies({})).toEqual({});
  });

  it('lets an agent narrow the system allow list', () => {
    const merged = mergeToolPolicies({
      system: { allow: { categories: ['fs', 'shell'] } },
      agent: { allow: { categories: ['fs'] } },
    });
    expect(merged).toEqual({ allow: { categories: ['fs'] } });
  });

  it('never lets an agent widen the system allow list', () => {
    const merged = mergeToolPolicies({
      system: { allow: { categories: ['fs'] } },
      agent: { allow: { categories: ['fs', 'shell'] } },
    });
    expect(isToolAllowed(merged, runCommand)).toBe(false);
  });

  it('never lets an agent lift a system deny', () => {
    const merged = mergeToolPolicies({
      system: { deny: { tools: ['run_command'] } },
      agent: { allow: { tools: ['run_command'] } },
    });
    expect(isToolAllowed(merged, runCommand)).toBe(false);
  });

  it('adds the agent denies to the system denies without duplicates', () => {
    const merged = mergeToolPolicies({
      system: { deny: { tools: ['a', 'b'] } },
      agent: { deny: { tools: ['b', 'c'], categories: ['web'] } },
    });
    expect(merged).toEqual({ deny: { categories: ['web'], tools: ['a', 'b', 'c'] } });
  });

  it('does not share arrays with its inputs', () => {
    const system = { allow: { tools: ['a'] } };
    const merged = mergeToolPolicies({ system });
    merged.allow?.tools?.push('b');
    expect(system.allow.tools).toEqual(['a']);
  });

  it('is exact: the merged policy allows a tool iff both layers do', () => {
    fc.assert(
      fc.property(toolPolicyArb, toolPolicyArb, toolIdentityArb, (system, agent, tool) => {
        const merged = mergeToolPolicies({ system, agent });
        expect(ToolPolicySchema.safeParse(merged).success).toBe(true);
        expect(isToolAllowed(merged, tool)).toBe(isToolAllowed(system, tool) && isToolAllowed(agent, tool));
      }),
      { numRuns: 2000 },
    );
  });
});
