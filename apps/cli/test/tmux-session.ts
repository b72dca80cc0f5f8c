import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, vi } from 'vitest';
import { CAIRN_BIN, ensureCliBuilt } from './cli-process.js';

const quote = (value: string) => `'${value.replaceAll("'", `'\\''`)}'`;

/**
 * `cairn` in a real pseudo-terminal: a tmux session on its own server socket, driven with
 * send-keys and read with capture-pane.
 */
export class TmuxSession {
  private readonly socket = `cairn-test-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
  private started = 0;

  constructor(private readonly dir: string) {}

  private tmux(...args: string[]): string {
    return execFileSync('tmux', ['-L', this.socket, ...args], { encoding: 'utf8' });
  }

  /**
   * Starts `cairn <args>` with exactly `env` (through a launcher script, so nothing is mis-quoted).
   * With `outlive`, a shell runs cairn as a job, passes a hang-up on to it and writes its exit
   * status to `<outlive>.status` and its stderr to `<outlive>.stderr`: how it ended stays known
   * after the terminal is closed.
   */
  start(args: string[], env: Record<string, string>, options: { outlive?: string } = {}): void {
    const launcher = join(this.dir, `launch-${this.started++}.sh`);
    const assignments = Object.entries(env).map(([name, value]) => quote(`${name}=${value}`));
    const command = [
      'env',
      '-i',
      ...assignments,
      quote(process.execPath),
      quote(CAIRN_BIN),
      ...args.map(quote),
    ];
    // Like an interactive shell, which passes a hang-up on to its jobs and outlives them here.
    const out = options.outlive;
    const script =
      out === undefined
        ? `exec ${command.join(' ')}`
        : [
            'exec 3<&0',
            `${command.join(' ')} <&3 3<&- 2>${quote(`${out}.stderr`)} &`,
            'child=$!',
            `trap 'kill -HUP $child' HUP`,
            'wait $child; status=$?',
            'while kill -0 $child 2>/dev/null; do wait $child; status=$?; done',
            `echo $status >${quote(`${out}.status`)}`,
          ].join('\n');
    writeFileSync(launcher, `#!/bin/sh\n${script}\n`, { mode: 0o755 });
    // remain-on-exit keeps the pane (and what the program printed last) after it exits.
    this.tmux(
      'new-session',
      '-d',
      '-s',
      'cairn',
      '-x',
      '140',
      '-y',
      '50',
      launcher,
      ';',
      'set-option',
      '-t',
      'cairn',
      'remain-on-exit',
      'on',
    );
  }

  type(text: string): void {
    this.tmux('send-keys', '-t', 'cairn', '-l', text);
  }

  keys(...keys: string[]): void {
    this.tmux('send-keys', '-t', 'cairn', ...keys);
  }

  screen(): string {
    return this.tmux('capture-pane', '-p', '-J', '-t', 'cairn', '-S', '-1000');
  }

  /** The screen with its colours and styles, as escape codes (SGR sequences as tmux writes them). */
  styledScreen(): string {
    return this.tmux('capture-pane', '-p', '-e', '-J', '-t', 'cairn', '-S', '-1000');
  }

  /** Whether the program in the pane has exited. */
  exited(): boolean {
    return this.tmux('display-message', '-p', '-t', 'cairn', '#{pane_dead}').trim() === '1';
  }

  async waitFor(check: (screen: string) => boolean, what: string, timeoutMs = 20_000): Promise<string> {
    const shown = () => {
      const screen = this.screen();
      if (!check(screen)) throw new Error(`timed out waiting for ${what}; the screen:\n${screen}`);
      return screen;
    };
    return vi.waitFor(shown, { timeout: timeoutMs, interval: 100 });
  }

  /**
   * Waits until the program has exited and the screen shows `last`: tmux may mark a pane dead
   * before it has read the program's final output (seen on a loaded machine).
   */
  waitForExit(last: string | RegExp, what: string): Promise<string> {
    const shows = (screen: string) => (typeof last === 'string' ? screen.includes(last) : last.test(screen));
    return this.waitFor((screen) => this.exited() && shows(screen), what);
  }

  /** Closes the terminal as a user closing its window would: the program gets SIGHUP. */
  hangUp(): void {
    this.tmux('kill-session', '-t', 'cairn');
  }

  stop(): void {
    try {
      this.tmux('kill-server');
    } catch {
      // Already gone.
    }
  }
}

/**
 * What every terminal test file needs: tmux (not skipped when missing — .ci/run installs it; the
 * terminal behaviour is tested nowhere else), the CLI built, and each test's sessions stopped after
 * it. Returns how a test opens a session.
 */
export function useTmuxSessions(): (dir: string) => TmuxSession {
  const sessions: TmuxSession[] = [];
  beforeAll(() => {
    execFileSync('tmux', ['-V']);
    ensureCliBuilt();
  }, 120_000);
  afterEach(() => {
    for (const session of sessions.splice(0)) session.stop();
  });
  return (dir) => {
    const session = new TmuxSession(dir);
    sessions.push(session);
    return session;
  };
}
