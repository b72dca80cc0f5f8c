import { runReadmeExample } from '@cairn/vitest-config/readme-example';
import { describe, expect, it } from 'vitest';

const README = new URL('../README.md', import.meta.url);

describe('README', () => {
  it('runs the example and prints what it says', async () => {
    const { stdout, printed } = await runReadmeExample(README);
    expect(printed).toBeDefined();
    expect(stdout).toBe(printed);
  });

  it('runs the fallback model example and prints what it says', async () => {
    const { stdout, printed } = await runReadmeExample(README, { section: 'Fallback models' });
    expect(printed).toBeDefined();
    expect(stdout).toBe(printed);
  });
});
