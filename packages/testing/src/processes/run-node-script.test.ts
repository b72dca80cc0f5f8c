import { describe, expect, it } from 'vitest';
import { runNodeScript } from './run-node-script.js';

describe('runNodeScript', () => {
  it('collects stdout, stderr and the exit code, feeding stdin', async () => {
    const run = await runNodeScript(
      '--input-type=module',
      [
        '-e',
        "let t='';for await (const c of process.stdin) t+=c; console.log(t.toUpperCase()); console.error('e'); process.exitCode=3",
      ],
      { env: { PATH: process.env.PATH ?? '' }, input: 'hi' },
    );
    expect(run).toEqual({ code: 3, signal: null, stdout: 'HI\n', stderr: 'e\n' });
  });

  it('lets the caller act on the output mid-run, and reports the signal that ended the process', async () => {
    const run = await runNodeScript('-e', ["console.log('ready'); setInterval(() => {}, 1000)"], {
      env: {},
      onOutput: (output, child) => {
        if (output.stdout.includes('ready')) child.kill('SIGTERM');
      },
    });
    expect(run).toMatchObject({ code: null, signal: 'SIGTERM', stdout: 'ready\n' });
  });

  it('kills a process that does not finish in time', async () => {
    await expect(
      runNodeScript('-e', ['setInterval(() => {}, 1000)'], { env: {}, timeoutMs: 300 }),
    ).rejects.toThrow('did not finish');
  });
});
