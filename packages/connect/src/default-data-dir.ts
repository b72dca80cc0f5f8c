import { homedir } from 'node:os';
import { join } from 'node:path';

/** Where Cairn apps keep their data unless told: `$XDG_DATA_HOME/cairn`, else `~/.local/share/cairn`. */
export function defaultDataDir(env: NodeJS.ProcessEnv): string {
  const xdg = env.XDG_DATA_HOME === undefined || env.XDG_DATA_HOME === '' ? undefined : env.XDG_DATA_HOME;
  return join(xdg ?? join(env.HOME ?? homedir(), '.local', 'share'), 'cairn');
}
