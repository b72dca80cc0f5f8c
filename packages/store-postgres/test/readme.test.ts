// Runs the README example as users would: the built package imported by name, in a separate Node
// process, against the test server.
import { runReadmeExample } from '@cairn/vitest-config/readme-example';
import { describe, expect, inject, it } from 'vitest';

describe('README', () => {
  it('runs the example and prints what it says', async () => {
    const { stdout, printed } = await runReadmeExample(new URL('../README.md', import.meta.url), {
      env: { DATABASE_URL: inject('databaseUrl') },
    });
    expect(printed).toBeDefined();
    expect(stdout).toBe(printed);
  });
});
