import { runReadmeExample } from '@cairn/vitest-config/readme-example';
import { describe, expect, it } from 'vitest';

describe('README', () => {
  it('runs the example and prints what it says', async () => {
    const { stdout, printed } = await runReadmeExample(new URL('../README.md', import.meta.url));
    expect(printed).toBeDefined();
    expect(stdout).toBe(printed);
  });
});
