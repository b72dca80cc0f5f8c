import pc from 'picocolors';
import type { OutputStream } from '../io.js';

/** The colour functions the renderers use (all identity functions when colour is off). */
export type Colors = ReturnType<typeof pc.createColors>;

/**
 * Colour only on a terminal, never with `NO_COLOR` (any value, https://no-color.org) or `TERM=dumb`;
 * `FORCE_COLOR` (not `0`) turns it on anyway. `--no-color` is passed as `flag: false`.
 */
export function colorEnabled(stream: OutputStream, env: NodeJS.ProcessEnv, flag?: boolean): boolean {
  if (flag === false) return false;
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '0') return true;
  if (flag === true) return true;
  return stream.isTTY === true && env.TERM !== 'dumb';
}

export function createColors(enabled: boolean): Colors {
  return pc.createColors(enabled);
}
