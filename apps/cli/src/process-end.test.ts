import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { type WatchedProcess, watchProcessEnd } from './process-end.js';

class FakeProcess extends EventEmitter {
  stdout = new EventEmitter();
  stderr = new EventEmitter();
  exits: number[] = [];
  exit(code: number): never {
    this.exits.push(code);
    return undefined as never;
  }
}

const watch = () => {
  const proc = new FakeProcess();
  return { proc, ending: watchProcessEnd(proc as unknown as WatchedProcess) };
};
const closed = (code: string) => Object.assign(new Error(code), { code });

describe('watchProcessEnd', () => {
  it('keeps the command exit code when nothing asked the process to end', () => {
    const { ending } = watch();
    expect(ending.signal.aborted).toBe(false);
    expect(ending.exitCode(4)).toBe(4);
  });

  it.each([
    ['SIGTERM', 143],
    ['SIGHUP', 129],
  ])('%s aborts the turn, exits %i once it is stored, and a second one exits at once', (name, code) => {
    const { proc, ending } = watch();
    proc.emit(name);
    expect(ending.signal.aborted).toBe(true);
    expect(proc.exits).toEqual([]);
    expect(ending.exitCode(130)).toBe(code);
    proc.emit(name);
    expect(proc.exits).toEqual([code]);
  });

  it('Ctrl-C aborts; a second one exits 130; a command listening for it itself is left alone', () => {
    const { proc, ending } = watch();
    const own = () => {};
    proc.on('SIGINT', own);
    proc.emit('SIGINT');
    expect(ending.signal.aborted).toBe(false);
    proc.off('SIGINT', own);
    proc.emit('SIGINT');
    expect(ending.signal.aborted).toBe(true);
    expect(ending.exitCode(130)).toBe(130);
    proc.emit('SIGINT');
    expect(proc.exits).toEqual([130]);
  });

  it('a stdout whose reader left (EPIPE) or whose terminal went away (EIO) aborts, exit 141', () => {
    for (const code of ['EPIPE', 'EIO']) {
      const { proc, ending } = watch();
      proc.stdout.emit('error', closed(code));
      expect(ending.signal.aborted).toBe(true);
      expect(ending.exitCode(130)).toBe(141);
    }
  });

  it('a closed stderr is ignored; any other stream error is not swallowed', () => {
    const { proc, ending } = watch();
    proc.stderr.emit('error', closed('EPIPE'));
    expect(ending.signal.aborted).toBe(false);
    expect(() => proc.stdout.emit('error', closed('ENOSPC'))).toThrow('ENOSPC');
    expect(() => proc.stderr.emit('error', closed('EBADF'))).toThrow('EBADF');
  });
});
