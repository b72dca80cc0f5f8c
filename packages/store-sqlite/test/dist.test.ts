// Runs the README example against the built package, imported by name in a separate Node process
// (as users get it). Needs dist: the vitest global setup builds it when stale.
import { runReadmeExample } from '@cairn/vitest-config/readme-example';
import { describe, expect, it } from 'vitest';

describe('the built package', () => {
  it('runs the README example', async () => {
    const { stdout } = await runReadmeExample(new URL('../README.md', import.meta.url));
    expect(stdout.trim().split('\n')).toEqual([
      '[ 2, 3 ] [ 2, 3 ]',
      '3 tool, 2 assistant',
      'chat-1 3 What does test.txt say?',
      'STORE_CONFLICT',
    ]);
  });
});
