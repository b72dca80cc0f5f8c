import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { type IPty, spawn } from '@lydell/node-pty';
import type { IBufferCell, IBufferLine, Terminal as XtermTerminal } from '@xterm/headless';
import { afterEach, beforeAll, vi } from 'vitest';
import { CAIRN_BIN, ensureCliBuilt } from './cli-process.js';

// @xterm/headless is CommonJS without named exports Node can detect.
const { Terminal } = createRequire(import.meta.url)('@xterm/headless') as typeof import('@xterm/headless');

const quote = (value: string) => `'${value.replaceAll("'", `'\\''`)}'`;

const COLUMNS = 140;
const ROWS = 50;
const SCROLLBACK = 1000;
const ESC = '\u001b';

/** What `keys()` understands, as the bytes a terminal sends for them. */
const KEYS: Record<string, string> = {
  Enter: '\r',
  Escape: ESC,
  Tab: '\t',
  BSpace: '\u007f',
  Up: `${ESC}[A`,
  Down: `${ESC}[B`,
  Right: `${ESC}[C`,
  Left: `${ESC}[D`,
};

function keyBytes(key: string): string {
  const named = KEYS[key];
  if (named !== undefined) return named;
  const control = /^C-([a-z])$/i.exec(key);
  if (control) return String.fromCharCode((control[1] as string).toLowerCase().charCodeAt(0) - 96);
  throw new Error(`PtySession.keys: unknown key ${JSON.stringify(key)} (use type() for text)`);
}

/**
 * Closes the PTY's master side: the kernel hangs the terminal up (SIGHUP to its session leader, EIO
 * for reads and writes on it), and node-pty then sends the launcher SIGHUP too. `destroy()` is on
 * node-pty's Unix terminal but not in its typings; `kill()` alone would signal the launcher and
 * leave the terminal open.
 */
function closeTerminal(pty: IPty): void {
  const { destroy } = pty as IPty & { destroy?: () => void };
  if (typeof destroy !== 'function') throw new Error('node-pty: this terminal has no destroy()');
  destroy.call(pty);
}

/** A cell's styles as SGR parameters: the attributes, the foreground and the background. */
interface Style {
  attrs: string[];
  fg: string;
  bg: string;
}

const PLAIN: Style = { attrs: [], fg: '39', bg: '49' };

function colour(palette: boolean, rgb: boolean, value: number, base: number, bright: number): string {
  if (palette) {
    if (value < 8) return String(base + value);
    if (value < 16) return String(bright + value - 8);
    return `${base + 8};5;${value}`;
  }
  if (rgb) return `${base + 8};2;${(value >> 16) & 0xff};${(value >> 8) & 0xff};${value & 0xff}`;
  return String(base + 9);
}

function styleOf(cell: IBufferCell): Style {
  const attrs: string[] = [];
  if (cell.isBold()) attrs.push('1');
  if (cell.isDim()) attrs.push('2');
  if (cell.isItalic()) attrs.push('3');
  if (cell.isUnderline()) attrs.push('4');
  if (cell.isBlink()) attrs.push('5');
  if (cell.isInverse()) attrs.push('7');
  if (cell.isInvisible()) attrs.push('8');
  if (cell.isStrikethrough()) attrs.push('9');
  if (cell.isOverline()) attrs.push('53');
  return {
    attrs,
    fg: colour(cell.isFgPalette(), cell.isFgRGB(), cell.getFgColor(), 30, 90),
    bg: colour(cell.isBgPalette(), cell.isBgRGB(), cell.getBgColor(), 40, 100),
  };
}

/**
 * The escape codes that turn style `from` into `to`, in the shape terminal capture tools write: the
 * attributes first (`\e[0;…m` when one is dropped, else only the added ones), then the foreground
 * and the background colour each in their own sequence when they change.
 */
function transition(from: Style, to: Style): string {
  let out = '';
  let current = from;
  if (from.attrs.some((attr) => !to.attrs.includes(attr))) {
    out += `${ESC}[${['0', ...to.attrs].join(';')}m`;
    current = { ...PLAIN, attrs: to.attrs };
  } else {
    const added = to.attrs.filter((attr) => !from.attrs.includes(attr));
    if (added.length > 0) out += `${ESC}[${added.join(';')}m`;
  }
  if (current.fg !== to.fg) out += `${ESC}[${to.fg}m`;
  if (current.bg !== to.bg) out += `${ESC}[${to.bg}m`;
  return out;
}

const isPlain = (style: Style) => style.attrs.length === 0 && style.fg === PLAIN.fg && style.bg === PLAIN.bg;

/**
 * One buffer line as text, with its styles as SGR sequences when `styled`. Each styled line starts
 * from the default style and returns to it, so a line read alone shows all of its styles. Trailing
 * blanks are dropped unless `keepTrailing` (a line that wraps on to the next one).
 */
function renderLine(line: IBufferLine, styled: boolean, keepTrailing: boolean, cell: IBufferCell): string {
  if (!styled) return line.translateToString(!keepTrailing);
  let out = '';
  let kept = 0; // The length of `out` up to its last character that is not a plain blank.
  let keptStyle = PLAIN; // The style in effect there.
  let style = PLAIN;
  for (let x = 0; x < line.length; x++) {
    line.getCell(x, cell);
    if (cell.getWidth() === 0) continue; // The second half of a wide character.
    const next = styleOf(cell);
    out += transition(style, next);
    style = next;
    const chars = cell.getChars() || ' ';
    out += chars;
    if (keepTrailing || chars !== ' ' || style.bg !== PLAIN.bg || style.attrs.includes('7')) {
      kept = out.length;
      keptStyle = style;
    }
  }
  // Styles switched on after the last kept character go with the blanks; what is still on is reset.
  return isPlain(keptStyle) ? out.slice(0, kept) : `${out.slice(0, kept)}${ESC}[0m`;
}

/**
 * `cairn` in a real pseudo-terminal (a PTY from @lydell/node-pty, 140×50), driven with the bytes a
 * terminal sends for keys, and read through a headless xterm.js that renders what the program
 * writes, as a terminal window would show it (with 1000 lines of scrollback).
 */
export class PtySession {
  private started = 0;
  private pty: IPty | undefined;
  private terminal: XtermTerminal | undefined;
  private exitedWith: { exitCode: number; signal?: number } | undefined;
  private hungUp = false;

  constructor(private readonly dir: string) {}

  /**
   * Starts `cairn <args>` with exactly `env` (through a launcher script, so nothing is mis-quoted).
   * With `outlive`, a shell runs cairn as a job, passes a hang-up on to it and writes its exit
   * status to `<outlive>.status` and its stderr to `<outlive>.stderr`: how it ended stays known
   * after the terminal is closed.
   */
  start(args: string[], env: Record<string, string>, options: { outlive?: string } = {}): void {
    if (this.pty !== undefined) throw new Error('PtySession.start: this session already runs a program');
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

    // The terminal (and what the program printed last) stays readable after the program exits.
    // Reading the buffer (lines, cells) is xterm.js's "proposed" API in the headless build.
    const terminal = new Terminal({
      cols: COLUMNS,
      rows: ROWS,
      scrollback: SCROLLBACK,
      allowProposedApi: true,
    });
    // The launcher's own environment: only what /bin/sh needs to find `env`; cairn gets `env` alone.
    const pty = spawn('/bin/sh', [launcher], {
      name: 'xterm-256color',
      cols: COLUMNS,
      rows: ROWS,
      cwd: this.dir,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
    });
    pty.onData((data) => terminal.write(data));
    // What the program asks of its terminal (a cursor position report, say) goes back to it.
    terminal.onData((data) => {
      if (this.exitedWith === undefined && !this.hungUp) pty.write(data);
    });
    pty.onExit((exit) => {
      this.exitedWith = exit;
    });
    this.pty = pty;
    this.terminal = terminal;
  }

  private running(what: string): IPty {
    if (this.pty === undefined) throw new Error(`PtySession.${what}: nothing started`);
    if (this.hungUp) throw new Error(`PtySession.${what}: the terminal was closed`);
    return this.pty;
  }

  type(text: string): void {
    this.running('type').write(text);
  }

  /** Sends keys by name: `Enter`, `Escape`, `Tab`, `BSpace`, `Up`/`Down`/`Left`/`Right`, `C-c` (any `C-<letter>`). */
  keys(...keys: string[]): void {
    const pty = this.running('keys');
    for (const key of keys) pty.write(keyBytes(key));
  }

  private render(styled: boolean): string {
    if (this.terminal === undefined) throw new Error('PtySession: nothing started');
    const buffer = this.terminal.buffer.active;
    const cell = buffer.getNullCell();
    const lines: string[] = [];
    let joining = false;
    for (let y = 0; y < buffer.length; y++) {
      const line = buffer.getLine(y);
      if (line === undefined) continue;
      // Lines the terminal wrapped are joined into the line they continue.
      const wraps = buffer.getLine(y + 1)?.isWrapped === true;
      const text = renderLine(line, styled, wraps, cell);
      if (joining) lines[lines.length - 1] += text;
      else lines.push(text);
      joining = wraps;
    }
    while (lines.length > 0 && lines.at(-1) === '') lines.pop();
    return `${lines.join('\n')}\n`;
  }

  /** The screen as text, with the scrollback above it (trailing blanks of each line dropped). */
  screen(): string {
    return this.render(false);
  }

  /**
   * The screen with its colours and styles as SGR escape codes: `\e[1m` for bold, `\e[0;1;4m` when
   * an attribute is dropped, `\e[35m` for magenta (each colour in its own sequence).
   */
  styledScreen(): string {
    return this.render(true);
  }

  /**
   * Sends `signal` to the program itself (the launcher `exec`s it, so it is the terminal's process):
   * with `SIGKILL`, it ends on the spot, as a crash or `kill -9` would, nothing stored on its way out.
   */
  signal(signal: NodeJS.Signals): void {
    this.running('signal').kill(signal);
  }

  /** Whether the program in the terminal has exited. */
  exited(): boolean {
    return this.exitedWith !== undefined;
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
   * Waits until the program has exited and the screen shows `last`: the exit may be seen before
   * the terminal has rendered the program's final output.
   */
  waitForExit(last: string | RegExp, what: string): Promise<string> {
    const shows = (screen: string) => (typeof last === 'string' ? screen.includes(last) : last.test(screen));
    return this.waitFor((screen) => this.exited() && shows(screen), what);
  }

  /**
   * Closes the terminal as a user closing its window would: the PTY's master side is closed, so
   * the kernel hangs up the terminal and the program (the session leader) gets SIGHUP.
   */
  hangUp(): void {
    const pty = this.running('hangUp');
    this.hungUp = true;
    closeTerminal(pty);
  }

  stop(): void {
    if (this.pty !== undefined && !this.hungUp && this.exitedWith === undefined) {
      this.hungUp = true;
      closeTerminal(this.pty);
    }
    this.terminal?.dispose();
  }
}

/**
 * What every terminal test file needs: the CLI built, and each test's sessions stopped (their
 * terminals closed) after it. Returns how a test opens a session.
 */
export function usePtySessions(): (dir: string) => PtySession {
  const sessions: PtySession[] = [];
  beforeAll(() => {
    ensureCliBuilt();
  }, 120_000);
  afterEach(() => {
    for (const session of sessions.splice(0)) session.stop();
  });
  return (dir) => {
    const session = new PtySession(dir);
    sessions.push(session);
    return session;
  };
}
