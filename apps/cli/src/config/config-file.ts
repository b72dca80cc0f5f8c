import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { PROVIDER_NAMES } from '@cairn/connect';
import { z } from 'zod';
import { cliFailure } from '../cli-error.js';

export const CONFIG_FILE_NAME = 'cairn.config.json';

/**
 * `cairn.config.json`. Strict: a misspelt field is an error, not silently ignored. API keys are not
 * accepted here on purpose: a config file gets committed; keys belong in the environment.
 */
export const CliConfigSchema = z.strictObject({
  $schema: z.string().optional(),
  provider: z.enum(PROVIDER_NAMES).optional(),
  model: z.string().min(1).optional(),
  baseURL: z.url().optional(),
  store: z.enum(['fs', 'sqlite', 'postgres']).optional(),
  dataDir: z.string().min(1).optional(),
  databaseUrl: z.string().min(1).optional(),
  /** The directory the workspace tools may touch (default: where cairn runs). */
  workspace: z.string().min(1).optional(),
  /** Whether `run_command` asks first: `ask` (default on a terminal), `always` runs, `never` refuses. */
  approval: z.enum(['ask', 'always', 'never']).optional(),
  maxTurns: z.number().int().positive().optional(),
  /** An extra system prompt for chat (the agent persona's `systemPrompt`). */
  systemPrompt: z.string().min(1).optional(),
});

export type CliConfig = z.infer<typeof CliConfigSchema>;

/** Where the config comes from: `--config`, else `CAIRN_CONFIG`, else `./cairn.config.json` if there is one. */
export function configPath(
  flag: string | undefined,
  env: NodeJS.ProcessEnv,
  cwd: string,
): string | undefined {
  const chosen = flag ?? env.CAIRN_CONFIG;
  if (chosen !== undefined && chosen !== '') return resolve(cwd, chosen);
  const local = resolve(cwd, CONFIG_FILE_NAME);
  return existsSync(local) ? local : undefined;
}

/** Reads and checks a config file; a bad file fails with the file, the field and what is wrong. */
export function loadConfigFile(path: string | undefined): CliConfig {
  if (path === undefined) return {};
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? String(error);
    throw cliFailure(
      'INVALID_ARGUMENT',
      `cannot read the config file ${path} (${reason})`,
      'fix the path given to --config / CAIRN_CONFIG',
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw cliFailure(
      'INVALID_ARGUMENT',
      `${path} is not valid JSON: ${(error as Error).message}`,
      'fix the JSON syntax',
    );
  }
  const parsed = CliConfigSchema.safeParse(json);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const field =
    issue?.path.join('.') || (issue?.code === 'unrecognized_keys' ? issue.keys.join(', ') : '(root)');
  const fields = Object.keys(CliConfigSchema.shape)
    .filter((key) => key !== '$schema')
    .join(', ');
  throw cliFailure(
    'INVALID_ARGUMENT',
    `${path}: ${field}: ${issue?.message ?? 'invalid'}`,
    `valid fields are ${fields}; API keys go in the environment`,
  );
}
