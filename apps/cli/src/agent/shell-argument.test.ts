import { describe, expect, it } from 'vitest';
import { shellArgument } from './shell-argument.js';

describe('shellArgument', () => {
  it('leaves plain paths as they are', () => {
    expect(shellArgument('/home/dev/my-app_2/src.ts')).toBe('/home/dev/my-app_2/src.ts');
  });

  it('single-quotes anything a shell would read, quotes included', () => {
    expect(shellArgument('/tmp/my app')).toBe("'/tmp/my app'");
    expect(shellArgument("it's $HOME")).toBe("'it'\\''s $HOME'");
    expect(shellArgument('')).toBe("''");
  });
});
