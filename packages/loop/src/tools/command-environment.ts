// A name part that says the value is a secret: `OPENAI_API_KEY`, `GITHUB_TOKEN`, `DB_PASSWORD`, `aws_secret`.
const SECRET_NAME = /(^|_)(API_?KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIALS?|PRIVATE_?KEY)($|_)/i;

// Secrets by name, also those the pattern already covers: the list says what is meant.
const SECRET_NAMES: ReadonlySet<string> = new Set([
  'DATABASE_URL',
  'CAIRN_API_TOKEN',
  'OPENAI_API_KEY',
  'ANTHROPIC_API_KEY',
  'GEMINI_API_KEY',
  'GOOGLE_API_KEY',
  'AWS_SECRET_ACCESS_KEY',
  'GITHUB_TOKEN',
  'NPM_TOKEN',
]);

/** Whether the variable `name` holds a secret a model-written command must not see by default. */
export function isSecretVariable(name: string): boolean {
  return SECRET_NAMES.has(name.toUpperCase()) || SECRET_NAME.test(name);
}

/**
 * The environment a command runs with: `inherited` (this process's) without its secrets unless
 * `inheritSecrets`, then `extra` on top, secrets or not (the caller chose to pass them).
 */
export function commandEnvironment(
  inherited: NodeJS.ProcessEnv,
  extra: Readonly<Record<string, string>> | undefined,
  inheritSecrets: boolean,
): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(inherited)) {
    if (inheritSecrets || !isSecretVariable(name)) env[name] = value;
  }
  return { ...env, ...extra };
}
