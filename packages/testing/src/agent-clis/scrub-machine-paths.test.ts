import { describe, expect, it } from 'vitest';
import { scrubMachinePaths } from './scrub-machine-paths.js';

describe('scrubMachinePaths', () => {
  it('replaces the run directory in plain and dash-encoded paths, keeping every length', () => {
    const root = '/tmp/cairn-agent-cli-a1B2c3';
    const text = JSON.stringify({
      cwd: `${root}/work`,
      memory: '/tmp/x/.claude/projects/-tmp-cairn-agent-cli-a1B2c3-work/memory/',
    });
    const scrubbed = scrubMachinePaths(text, root);
    expect(scrubbed).toBe(
      JSON.stringify({
        cwd: '/tmp/cairn-agent-cli-XXXXXX/work',
        memory: '/tmp/x/.claude/projects/-tmp-cairn-agent-cli-XXXXXX-work/memory/',
      }),
    );
    expect(scrubbed.length).toBe(text.length);
  });
});
