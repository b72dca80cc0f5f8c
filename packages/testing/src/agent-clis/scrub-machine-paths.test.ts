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

  it("replaces the checkout's directory (stack traces on stderr) when given", () => {
    const stderr =
      'Attempt 1 failed.\n    at f (file:///home/me/cairn/node_modules/.pnpm/x/index.mjs:1:2) in /tmp/cairn-agent-cli-a1B2c3/work\n';
    expect(scrubMachinePaths(stderr, '/tmp/cairn-agent-cli-a1B2c3', { workspace: '/home/me/cairn' })).toBe(
      'Attempt 1 failed.\n    at f (file://<workspace>/node_modules/.pnpm/x/index.mjs:1:2) in /tmp/cairn-agent-cli-XXXXXX/work\n',
    );
  });

  it("replaces the stand-in's loopback port, which differs from run to run", () => {
    const text =
      'API Error: Unable to connect to API (ECONNREFUSED 127.0.0.1:40907). url: http://localhost:5173/v1';
    expect(scrubMachinePaths(text, '/tmp/cairn-agent-cli-a1B2c3')).toBe(
      'API Error: Unable to connect to API (ECONNREFUSED 127.0.0.1:PORT). url: http://localhost:PORT/v1',
    );
  });
});
