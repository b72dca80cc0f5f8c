import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { endReason, type WatchedProcess, watchProcessEnd } from './process-end.js';

class FakeProcess extends EventEmitter {
  pid = 4242;
  exitCode: number | undefined;
  stdout = new EventEmitter();
  stderr = new EventEmitter();
  stdin: { isTTY?: boolean } = {};
  exits: number[] = [];
  raised: string[] = [];
  exit(code: number): never {
    this.exits.push(code);
    return undefined as never;
  }
  kill(pid: number, signal: string): void {
    if (pid === this.pid) this.raised.push(signal);
  }
}

const watch = (terminal = true) => {
  const proc = new FakeProcess();
  return { proc, ending: watchProcessEnd(proc as unknown as WatchedProcess, () => terminal) };
};
const closed = (code: string) => Object.assign(new Error(code), { code });

describe('watchProcessEnd', () => {
  it('ends with the command exit code when nothing asked the process to end', () => {
    const { proc, ending } = watch();
    ending.end(4);
    expect(ending.signal.aborted).toBe(false);
    expect(proc.exitCode).toBe(4);
    expect(proc.raised).toEqual([]);
  });

  it.each([
    ['SIGTERM', 'SIGTERM'],
    ['SIGHUP', 'a hang-up'],
  ])(
    '%s aborts the turn (reason: %s), and once it is stored ends the process by the same signal',
    (name, reason) => {
      const { proc, ending } = watch();
      proc.emit(name);
      expect(endReason(ending.signal)).toBe(reason);
      expect(proc.raised).toEqual([]);
      ending.end(130);
      // Raised again with no listener left: the default action, so the shell sees the signal.
      expect(proc.raised).toEqual([name]);
      expect(proc.listenerCount(name)).toBe(0);
    },
  );

  it('a terminal gone before its hang-up arrived (the input ended first) ends the process as a hang-up', () => {
    const { proc, ending } = watch(false);
    Object.assign(proc.stdin, { isTTY: true });
    ending.end(0);
    expect(proc.raised).toEqual(['SIGHUP']);
    const piped = watch(false);
    piped.ending.end(0);
    expect(piped.proc.raised).toEqual([]);
    expect(piped.proc.exitCode).toBe(0);
  });

  it('a second SIGTERM ends the process at once', () => {
    const { proc } = watch();
    proc.emit('SIGTERM');
    proc.emit('SIGTERM');
    expect(proc.raised).toEqual(['SIGTERM']);
  });

  it('a hang-up that arrives twice (from the kernel and from the shell) lets the turn be stored, then ends by SIGHUP', () => {
    const { proc, ending } = watch();
    proc.emit('SIGHUP');
    proc.emit('SIGHUP');
    expect(proc.raised).toEqual([]);
    expect(endReason(ending.signal)).toBe('a hang-up');
    ending.end(130);
    expect(proc.raised).toEqual(['SIGHUP']);
  });

  it('a SIGTERM after a hang-up ends the process at once, by the hang-up', () => {
    const { proc } = watch();
    proc.emit('SIGHUP');
    proc.emit('SIGTERM');
    expect(proc.raised).toEqual(['SIGHUP']);
  });

  it('Ctrl-C aborts; a second one exits 130; a command listening for it itself is left alone', () => {
    const { proc, ending } = watch();
    const own = () => {};
    proc.on('SIGINT', own);
    proc.emit('SIGINT');
    expect(ending.signal.aborted).toBe(false);
    proc.off('SIGINT', own);
    proc.emit('SIGINT');
    expect(endReason(ending.signal)).toBe('Ctrl-C');
    ending.end(130);
    expect(proc.exitCode).toBe(130);
    proc.emit('SIGINT');
    expect(proc.exits).toEqual([130]);
  });

  it('a stdout whose reader left (EPIPE) aborts, exit 141', () => {
    const { proc, ending } = watch();
    proc.stdout.emit('error', closed('EPIPE'));
    expect(endReason(ending.signal)).toBe('the output closing');
    ending.end(130);
    expect(proc.exitCode).toBe(141);
    expect(proc.raised).toEqual([]);
  });

  it('a stdout whose terminal went away (EIO) before the SIGHUP arrived ends the process as a hang-up', () => {
    const { proc, ending } = watch();
    proc.stdout.emit('error', closed('EIO'));
    expect(endReason(ending.signal)).toBe('a hang-up');
    proc.emit('SIGHUP');
    expect(proc.raised).toEqual([]);
    // Not Node's normal exit: on Node 20 its restoring of the gone terminal aborts the process (134).
    ending.end(130);
    expect(proc.raised).toEqual(['SIGHUP']);
  });

  it('a closed stderr is ignored; any other stream error is not swallowed', () => {
    const { proc, ending } = watch();
    proc.stderr.emit('error', closed('EPIPE'));
    expect(ending.signal.aborted).toBe(false);
    expect(() => proc.stdout.emit('error', closed('ENOSPC'))).toThrow('ENOSPC');
    expect(() => proc.stderr.emit('error', closed('EBADF'))).toThrow('EBADF');
  });

  it('endReason is undefined for an abort that is not the process ending', () => {
    const controller = new AbortController();
    controller.abort(new Error('timeout'));
    expect(endReason(controller.signal)).toBeUndefined();
    expect(endReason(undefined)).toBeUndefined();
  });
});
