import { runReadmeExample } from '@cairn/vitest-config/readme-example';
import { describe, expect, it } from 'vitest';

const README = new URL('../README.md', import.meta.url);

describe('README', () => {
  it('runs the example and prints what it says', async () => {
    const { stdout, printed } = await runReadmeExample(README);
    expect(printed).toBeDefined();
    expect(stdout).toBe(printed);
  });

  // The second example imports a provider package (a devDependency here), so check:packages,
  // which runs only the first, cannot: it is run here.
  it('runs the example with a provider package and prints what it says', async () => {
    const { stdout, printed } = await runReadmeExample(README, { section: 'With a provider package' });
    expect(printed).toBeDefined();
    expect(stdout).toBe(printed);
  });
});
