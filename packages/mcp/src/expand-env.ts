import { CairnError } from '@cairn/core';

// Claude Code's syntax: `${VAR}`, or `${VAR:-default}` when VAR is unset or empty.
const REFERENCE = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

/**
 * `text` with its `${VAR}` / `${VAR:-default}` references replaced from `env`. A variable that is
 * unset and has no default is an `INVALID_ARGUMENT` naming `where` (the server and the field): a
 * command or a header silently missing a secret fails later, and far less clearly.
 */
export function expandEnv(
  text: string,
  env: Readonly<Record<string, string | undefined>>,
  where: string,
): string {
  return text.replace(REFERENCE, (_match, name: string, fallback: string | undefined) => {
    const value = env[name];
    if (value !== undefined && value !== '') return value;
    if (fallback !== undefined) return fallback;
    throw new CairnError(
      'INVALID_ARGUMENT',
      `${where}: the environment variable ${name} is not set (write \${${name}:-default} for a default)`,
      { details: { variable: name } },
    );
  });
}
